/**
 * Shared helpers for the checkpoint 06 tests: loosely typed Tools (so that
 * hostile validators and executors can be written), one-call runners, and the
 * counters an attack needs (trap logs, thrown values, rejection reasons).
 */
import { expect } from "vitest";
import {
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseJsonObject,
  type CourseTool,
  type CourseToolCall,
  type CourseToolExecutionContext,
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  type RegisteredCourseTool,
  ToolContractError,
  type ToolContractErrorCode,
  ToolRegistry,
} from "../../src/index.js";

/** The truncation marker, under a short name. */
export const MARKER = COURSE_TOOL_TRUNCATION_MARKER;

/** The well-known brand key of a NonRecoverableToolError. */
export const BRAND = Symbol.for("pify.course.NonRecoverableToolError.brand.v1");

/** The well-known `globalThis` key of the shared provenance registry. */
export const PROVENANCE = Symbol.for("pify.course.NonRecoverableToolError.provenance.v1");

/** The fixed message for a validator that answered with a Promise or thenable. */
export const ASYNC_VALIDATOR =
  "Tool validator returned a Promise or thenable; validators must decide synchronously";

/** The fixed message for a validator decision of the wrong shape. */
export const MALFORMED_DECISION =
  "Tool validator must return { ok: true, value } or { ok: false, error: non-blank string }";

/** A fresh, running signal. */
export const live = (): AbortSignal => new AbortController().signal;

/** A validator that accepts its input as it is. */
export const accept = (input: unknown) => ({ ok: true as const, value: input });

/**
 * A controller whose signal hides its abort event from the boundary's
 * listeners: an own (truthful) `aborted` marks the instance as tampered, so it
 * cannot be relayed and must be listened to directly, and a listener added
 * first stops the event before any later listener runs. Only the boundary's
 * explicit `aborted` checks can then see the cancellation.
 */
export function blindedController(): AbortController {
  const controller = new AbortController();
  Object.defineProperty(controller.signal, "aborted", { value: false, configurable: true });
  controller.signal.addEventListener("abort", (event) => event.stopImmediatePropagation());
  return controller;
}

/** Resolves after the current macrotask turn (every pending microtask has run). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Length in Unicode code points, not UTF-16 code units. */
export const codePoints = (text: string): number => [...text].length;

/**
 * The exact content of an error result whose message needs no escaping.
 *
 * @example
 * errorContent("TOOL_NOT_FOUND", "x"); // '{"error":{"code":"TOOL_NOT_FOUND","message":"x"}}'
 */
export const errorContent = (code: string, message: string): string =>
  `{"error":{"code":"${code}","message":"${message}"}}`;

/** Builds a CourseToolCall (the focused file declares its own `call`, as the seed expects). */
export function toolCall(name: string, args: CourseJsonObject, id: string): CourseToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

/** A validator and an executor with loose types; either defaults (accept, echo the input). */
export type LooseParts = {
  validate?: (input: unknown) => unknown;
  execute?: (input: unknown, context: CourseToolExecutionContext) => unknown;
};

/**
 * Defines a Tool from loosely typed parts.
 *
 * @example
 * toolOf("echo"); // validates anything, returns its input
 */
export function toolOf(name: string, parts: LooseParts = {}): RegisteredCourseTool {
  return defineTool({
    name,
    description: `The ${name} Tool.`,
    validate: (parts.validate ?? accept) as CourseTool["validate"],
    execute: (parts.execute ?? (async (input: unknown) => input)) as CourseTool["execute"],
  });
}

/**
 * Executes one call (id `call-1`) of a Tool named `tool` built from `parts`.
 * Defaults: empty arguments, a fresh running signal.
 */
export function runWith(
  parts: LooseParts,
  args: CourseJsonObject = {},
  signal: AbortSignal = live(),
): Promise<CourseToolResultMessage> {
  const registry = new ToolRegistry([toolOf("tool", parts)]);
  return executeToolCall(registry, toolCall("tool", args, "call-1"), signal);
}

/** Executes one call of a Tool whose `execute` is `produce`. */
export function resultFor(
  produce: () => unknown,
  signal: AbortSignal = live(),
): Promise<CourseToolResultMessage> {
  return runWith({ execute: produce }, {}, signal);
}

/** The content of a successful call of a Tool whose `execute` is `produce`. */
export async function contentFor(produce: () => unknown): Promise<string> {
  const result = await resultFor(produce);
  expect(result.isError).toBe(false);
  return result.content;
}

/** The reason `promise` rejected with; fails the test when it resolved. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  let value: unknown;
  try {
    value = await promise;
  } catch (reason) {
    return reason;
  }
  throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
}

/** What `action` threw; fails the test when it returned. */
export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (thrown) {
    return thrown;
  }
  throw new Error("expected a throw");
}

/**
 * A function that throws `thrown` whenever it is called (or read, as a getter).
 *
 * @example
 * Object.defineProperty(call, "id", { get: throwing(new Error("no id")) });
 */
export function throwing(thrown: unknown): () => never {
  return () => {
    throw thrown;
  };
}

/** Asserts a ToolContractError with `code`, and returns it typed. */
export function expectContractError(
  value: unknown,
  code: ToolContractErrorCode,
): ToolContractError {
  expect(value).toBeInstanceOf(ToolContractError);
  expect((value as ToolContractError).code).toBe(code);
  return value as ToolContractError;
}

/**
 * A Proxy whose handler logs every trap the engine asks it for (the handler
 * is itself a Proxy, so even traps the test did not foresee are logged).
 */
export function trapCounting<T extends object>(target: T): { proxy: T; traps: string[] } {
  const traps: string[] = [];
  const reflect = Reflect as unknown as Record<string, (...args: unknown[]) => unknown>;
  const handler = new Proxy(
    {},
    {
      get: (_handler, trap) => {
        traps.push(String(trap));
        return reflect[String(trap)];
      },
    },
  );
  return { proxy: new Proxy(target, handler), traps };
}

/** A revoked Proxy: any operation on it throws. */
export function revokedProxy(): object {
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return revocable.proxy;
}

/** `depth` nested objects, built without recursion: `{ next: { next: … {} } }`. */
export function chain(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < depth; level += 1) value = { next: value };
  return value;
}

/** `depth` nested arrays, built without recursion: `[[[…]]]`. */
export function nestedArrays(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
}

/**
 * Appends `entry` to `log`, then returns `value`: records that a getter or a
 * function ran without changing what it answers.
 */
export function noting<T>(log: string[], entry: string, value: T): T {
  log.push(entry);
  return value;
}

/** An array of `count` holes. */
export function holes(count: number): unknown[] {
  return new Array(count);
}

/**
 * Gives `target` an own `then` property: the shape of a hostile thenable.
 *
 * @example
 * withThen({}, { get: () => { throw new Error("no") } });
 */
export function withThen<T extends object>(target: T, descriptor: PropertyDescriptor): T {
  // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is exactly the attack under test.
  return Object.defineProperty(target, "then", descriptor);
}
