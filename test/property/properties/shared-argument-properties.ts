/**
 * Properties of arguments that reuse objects (host or adapter code can build
 * them; JSON text cannot): whatever the sharing and the depth, a call ends in
 * a result or an `INVALID_TOOL_CALL` rejection, never a `RangeError`, and the
 * depth limit holds where each object appears.
 */

import fc from "fast-check";
import {
  COURSE_TOOL_ARGUMENTS_MAX_DEPTH,
  executeToolCall,
  ToolContractError,
} from "../../../course/src/index.ts";
import { executeToolCalls } from "../../../src/rounds/index.ts";
import { errorOf, probeRegistry, toolCall } from "../support/tool-harness.ts";

/** One node of a generated DAG: a container of earlier nodes, wrapped in arrays. */
export interface NodeSpec {
  readonly kind: "array" | "object";
  /** How many arrays wrap the container (each a fresh level). */
  readonly wrap: number;
  /** Earlier nodes it holds, as indices taken modulo its own index; empty for a leaf. */
  readonly children: readonly number[];
}

/** A DAG of up to 24 nodes where later nodes hold earlier ones, some many times, some deeply wrapped. */
export const sharedDag: fc.Arbitrary<readonly NodeSpec[]> = fc.array(
  fc.record({
    kind: fc.constantFrom("array" as const, "object" as const),
    wrap: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 20, max: 140 })),
    children: fc.array(fc.nat(), { maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 24 },
);

/** Builds the arguments object of a DAG: every node under its own key, the last one last. */
export function buildShared(specs: readonly NodeSpec[]): Record<string, unknown> {
  const nodes: unknown[] = [];
  for (let index = 0; index < specs.length; index += 1) {
    const spec = specs[index] as NodeSpec;
    const held = index === 0 ? [] : spec.children.map((child) => nodes[child % index]);
    let node: unknown =
      spec.kind === "array" ? held : Object.fromEntries(held.map((value, at) => [`k${at}`, value]));
    for (let level = 0; level < spec.wrap; level += 1) node = [node];
    nodes.push(node);
  }
  return Object.fromEntries(nodes.map((node, index) => [`n${index}`, node]));
}

/** Levels of objects and arrays, the value itself included; iterative, each shared part measured once. */
export function levelsOf(value: unknown): number {
  const heights = new Map<object, number>();
  const stack: { node: object; children: unknown[]; next: number; tallest: number }[] = [];
  const enter = (node: unknown): number | undefined => {
    if (typeof node !== "object" || node === null) return 0;
    const known = heights.get(node);
    if (known !== undefined) return known;
    stack.push({ node, children: Object.values(node), next: 0, tallest: 0 });
    return undefined;
  };
  const first = enter(value);
  if (first !== undefined) return first;
  for (;;) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.next === frame.children.length) {
      stack.pop();
      const height = frame.tallest + 1;
      heights.set(frame.node, height);
      const parent = stack[stack.length - 1];
      if (parent === undefined) return height;
      parent.tallest = Math.max(parent.tallest, height);
      continue;
    }
    const height = enter(frame.children[frame.next]);
    frame.next += 1;
    if (height !== undefined) frame.tallest = Math.max(frame.tallest, height);
  }
}

/**
 * For any DAG of shared objects, with or without an argument budget:
 * `executeToolCall` resolves exactly when the arguments nest at most 256
 * levels (and the validator then sees every one of those levels), and
 * otherwise rejects with `INVALID_TOOL_CALL` before any validator runs; the
 * same round through `executeToolCalls` does the same. No `RangeError`.
 */
export function sharedArgumentsAreDepthCheckedWhereTheyAppear(): fc.IAsyncProperty<
  [readonly NodeSpec[], boolean]
> {
  return fc.asyncProperty(sharedDag, fc.boolean(), async (specs, budgeted) => {
    const args = buildShared(specs);
    const levels = levelsOf(args);
    const allowed = levels <= COURSE_TOOL_ARGUMENTS_MAX_DEPTH;
    const seen: number[] = [];
    const { registry, calls } = probeRegistry(
      (input) => {
        // The round's healthy call is not the one measured.
        if (!Object.hasOwn(input as object, "healthy")) seen.push(levelsOf(input));
        return { ok: true, value: input };
      },
      async () => "ran",
    );
    // A budget the arguments may or may not fit: every path of the measurement runs.
    const options = budgeted ? { maxArgumentCharacters: 5_000 } : undefined;
    const single = await executeToolCall(
      registry,
      toolCall("probe", args) as never,
      new AbortController().signal,
      options,
    ).then(
      (message) => ({ message, thrown: undefined }),
      (thrown: unknown) => ({ message: undefined, thrown }),
    );
    const round = await executeToolCalls(
      registry,
      [
        toolCall("probe", { healthy: true }, "call-healthy") as never,
        toolCall("probe", args) as never,
      ],
      new AbortController().signal,
      options,
    ).then(
      (messages) => ({ messages, thrown: undefined }),
      (thrown: unknown) => ({ messages: undefined, thrown }),
    );
    for (const thrown of [single.thrown, round.thrown]) {
      if (thrown === undefined) continue;
      if (!(thrown instanceof ToolContractError) || thrown.code !== "INVALID_TOOL_CALL") {
        throw new Error(`${levels} levels: rejected with ${String(thrown)}`);
      }
    }
    if (allowed !== (single.thrown === undefined) || allowed !== (round.thrown === undefined)) {
      throw new Error(
        `${levels} levels: single ${String(single.thrown)}, round ${String(round.thrown)}`,
      );
    }
    if (!allowed) {
      if (calls.validate !== 0 || calls.execute !== 0) throw new Error("refused arguments ran");
      return true;
    }
    if (seen.some((height) => height !== levels)) {
      throw new Error(`${levels} levels, but the validator saw ${seen.join(", ")}`);
    }
    if (single.message?.isError) {
      if (!budgeted || errorOf(single.message).code !== "TOOL_ARGUMENTS_INVALID") {
        throw new Error(`unexpected error result ${single.message.content}`);
      }
    }
    return true;
  });
}
