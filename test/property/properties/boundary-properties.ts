/**
 * Properties of the validation and error boundaries: refused arguments never
 * reach `execute`, malformed calls never reach the Tool at all, hostile
 * output always becomes one bounded, linked result, and only a registered
 * NonRecoverableToolError crosses the recoverable boundary.
 */

import { types } from "node:util";
import fc from "fast-check";
import {
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolResultMessage,
  executeToolCall,
  NonRecoverableToolError,
  ToolContractError,
} from "../../../course/src/index.ts";
import { buildHostile, hostileRecipe, type Recipe } from "../support/hostile-arbitraries.ts";
import { plainJsonObject } from "../support/json-arbitraries.ts";
import {
  abortListeners,
  assertLinked,
  errorOf,
  nextMacrotask,
  outcomeOf,
  probeRegistry,
  toolCall,
} from "../support/tool-harness.ts";
import { countingHandler, newTouches } from "../support/touches.ts";
import { assertBoundedContent, serializeCounted } from "./serializer-properties.ts";

/** Ways a validator can say no, or fail to say yes properly, with the code each must produce. */
export const REFUSALS = [
  ["returns { ok: false, error }", "TOOL_ARGUMENTS_INVALID"],
  ["throws an Error", "TOOL_VALIDATION_FAILED"],
  ["throws a string", "TOOL_VALIDATION_FAILED"],
  ["throws undefined", "TOOL_VALIDATION_FAILED"],
  ["returns a rejected Promise", "TOOL_VALIDATION_FAILED"],
  ["returns a resolved Promise of ok", "TOOL_VALIDATION_FAILED"],
  ["returns a thenable", "TOOL_VALIDATION_FAILED"],
  ["returns null", "TOOL_VALIDATION_FAILED"],
  ["returns a number", "TOOL_VALIDATION_FAILED"],
  ['returns ok: "true"', "TOOL_VALIDATION_FAILED"],
  ["returns ok: true without value", "TOOL_VALIDATION_FAILED"],
  ["returns ok: false without error", "TOOL_VALIDATION_FAILED"],
  ["returns ok: false with a blank error", "TOOL_VALIDATION_FAILED"],
  ["returns an inherited ok: true", "TOOL_VALIDATION_FAILED"],
  ["returns a Proxy of ok: true", "TOOL_VALIDATION_FAILED"],
  ["returns a decision whose ok getter throws", "TOOL_VALIDATION_FAILED"],
] as const;

type Refusal = (typeof REFUSALS)[number];

function refusingValidator(kind: Refusal[0], error: string): (input: unknown) => unknown {
  switch (kind) {
    case "returns { ok: false, error }":
      return () => ({ ok: false, error });
    case "throws an Error":
      return () => {
        throw new Error(error);
      };
    case "throws a string":
      return () => {
        throw error;
      };
    case "throws undefined":
      return () => {
        throw undefined;
      };
    case "returns a rejected Promise":
      return () => Promise.reject(new Error(error));
    case "returns a resolved Promise of ok":
      return (input) => Promise.resolve({ ok: true, value: input });
    case "returns a thenable":
      // biome-ignore lint/suspicious/noThenProperty: a thenable decision is the attack.
      return (input) => ({ then: (onFulfilled: (value: unknown) => void) => onFulfilled(input) });
    case "returns null":
      return () => null;
    case "returns a number":
      return () => 1;
    case 'returns ok: "true"':
      return (input) => ({ ok: "true", value: input });
    case "returns ok: true without value":
      return () => ({ ok: true });
    case "returns ok: false without error":
      return () => ({ ok: false });
    case "returns ok: false with a blank error":
      return () => ({ ok: false, error: " \n\t" });
    case "returns an inherited ok: true":
      return (input) => Object.create({ ok: true, value: input }) as object;
    case "returns a Proxy of ok: true":
      return (input) => new Proxy({ ok: true, value: input }, {});
    case "returns a decision whose ok getter throws":
      return () => ({
        get ok(): boolean {
          throw new Error(error);
        },
      });
  }
}

const nonBlank = fc.string({ minLength: 1, maxLength: 60 }).filter((text) => text.trim() !== "");

/**
 * For any arguments and any refusal: `execute` never runs, the validator ran
 * once on a frozen copy equal to the arguments, and the call resolves with
 * one linked error result of the expected code (the validator's own text for
 * TOOL_ARGUMENTS_INVALID).
 */
export function refusedArgumentsNeverExecute(): fc.IAsyncProperty<
  [Refusal, string, { [key: string]: unknown }]
> {
  return fc.asyncProperty(
    fc.constantFrom(...REFUSALS),
    nonBlank,
    plainJsonObject,
    async ([kind, code], error, args) => {
      let seen: unknown;
      const refuse = refusingValidator(kind, error);
      const { registry, calls } = probeRegistry(
        (input) => {
          seen = input;
          return refuse(input);
        },
        async () => ({ unreachable: true }),
      );
      const controller = new AbortController();
      const message = await executeToolCall(
        registry,
        toolCall("probe", args, "call-refused") as never,
        controller.signal,
      );
      await nextMacrotask();
      if (calls.execute !== 0) throw new Error(`execute ran ${calls.execute} times`);
      if (calls.validate !== 1) throw new Error(`validate ran ${calls.validate} times`);
      if (!Object.isFrozen(seen)) throw new Error("the validator saw unfrozen arguments");
      if (JSON.stringify(seen) !== JSON.stringify(args))
        throw new Error("the validator saw other arguments");
      assertLinked(message, "call-refused");
      const reported = errorOf(message);
      if (!message.isError || reported.code !== code) {
        throw new Error(`expected ${code}, got ${message.content}`);
      }
      if (code === "TOOL_ARGUMENTS_INVALID" && reported.message !== error) {
        throw new Error("the validator's text was not kept verbatim");
      }
      if (abortListeners(controller.signal) !== 0) throw new Error("an abort listener was left");
    },
  );
}

/** Malformed call shapes; each must be refused before the Tool is looked at. */
export const MALFORMED_CALLS = [
  "not-an-object",
  "a-proxy-call",
  "a-revoked-proxy-call",
  "wrong-type",
  "blank-id",
  "blank-name",
  "inherited-fields",
  "an-id-getter-that-throws",
  "arguments-an-array",
  "arguments-a-proxy",
  "arguments-with-a-cycle",
] as const;

function malformedCall(kind: (typeof MALFORMED_CALLS)[number], args: object): unknown {
  const handler = countingHandler(newTouches());
  switch (kind) {
    case "not-an-object":
      return "toolCall";
    case "a-proxy-call":
      return new Proxy(toolCall("probe", args) as object, handler);
    case "a-revoked-proxy-call": {
      const { proxy, revoke } = Proxy.revocable(toolCall("probe", args) as object, handler);
      revoke();
      return proxy;
    }
    case "wrong-type":
      return { type: "tool_call", id: "call-1", name: "probe", arguments: args };
    case "blank-id":
      return { type: "toolCall", id: "   ", name: "probe", arguments: args };
    case "blank-name":
      return { type: "toolCall", id: "call-1", name: "", arguments: args };
    case "inherited-fields":
      return Object.create(toolCall("probe", args) as object);
    case "an-id-getter-that-throws":
      return {
        type: "toolCall",
        get id(): string {
          throw new Error("hostile id");
        },
        name: "probe",
        arguments: args,
      };
    case "arguments-an-array":
      return toolCall("probe", [args]);
    case "arguments-a-proxy":
      return toolCall("probe", new Proxy(args, handler));
    case "arguments-with-a-cycle": {
      const cyclic: { [key: string]: unknown } = { ...args };
      cyclic.self = { again: cyclic };
      return toolCall("probe", cyclic);
    }
  }
}

/**
 * For any malformed call: the promise rejects with a ToolContractError
 * INVALID_TOOL_CALL made by the boundary, and neither the validator nor the
 * executor ran. For hostile arguments built from any recipe: either that same
 * rejection, or the validator saw a frozen copy; no Proxy trap or `toJSON` ran,
 * but for at most one `getPrototypeOf` trap of a Proxy prototype (read before
 * that prototype is refused, as the course's plain-object check does).
 */
export function malformedCallsNeverReachTheTool(): fc.IAsyncProperty<
  [(typeof MALFORMED_CALLS)[number] | "hostile-arguments", { [key: string]: unknown }, Recipe]
> {
  return fc.asyncProperty(
    fc.constantFrom(...MALFORMED_CALLS, "hostile-arguments" as const),
    plainJsonObject,
    hostileRecipe,
    async (kind, args, recipe) => {
      const touches = newTouches();
      let seen: unknown;
      const { registry, calls } = probeRegistry(
        (input) => {
          seen = input;
          return { ok: false, error: "stop here" };
        },
        async () => ({}),
      );
      const call =
        kind === "hostile-arguments"
          ? toolCall("probe", { payload: buildHostile(recipe, touches) })
          : malformedCall(kind, args);
      const outcome = await outcomeOf(
        executeToolCall(registry, call as never, new AbortController().signal),
      );
      if (calls.execute !== 0) throw new Error("execute ran");
      if (touches.traps !== 0 || touches.toJSON !== 0 || touches.prototypeTraps > 1) {
        throw new Error(`user code ran: ${JSON.stringify(touches)}`);
      }
      if (outcome.kind === "rejected") {
        const error = outcome.reason;
        if (!(error instanceof ToolContractError) || error.code !== "INVALID_TOOL_CALL") {
          throw new Error(`rejected with something else: ${String(error)}`);
        }
        if (calls.validate !== 0) throw new Error("the validator ran for a refused call");
        return;
      }
      if (kind !== "hostile-arguments") throw new Error(`a ${kind} call was accepted`);
      if (calls.validate !== 1 || !Object.isFrozen(seen)) {
        throw new Error("an accepted call was not validated once on a frozen copy");
      }
    },
  );
}

/**
 * True when the boundary adopts `output` as a promise instead of serializing
 * it: a native Promise, or a non-Proxy object whose own data `then` is callable.
 */
function adopted(output: unknown): boolean {
  if ((typeof output !== "object" && typeof output !== "function") || output === null) return false;
  if (types.isProxy(output)) return false;
  if (types.isPromise(output)) return true;
  return typeof Object.getOwnPropertyDescriptor(output, "then")?.value === "function";
}

/**
 * True when looking `then` up on `output` (as promise adoption does) reaches
 * a Proxy prototype's `get` trap: a non-Proxy, non-promise object with no own
 * `then` whose prototype is a Proxy.
 */
function thenLookupReachesProxy(output: unknown): boolean {
  if ((typeof output !== "object" && typeof output !== "function") || output === null) return false;
  if (types.isProxy(output) || types.isPromise(output)) return false;
  if (Object.getOwnPropertyDescriptor(output, "then") !== undefined) return false;
  return types.isProxy(Object.getPrototypeOf(output));
}

/**
 * For any hostile output returned by a Tool: the call settles as one linked
 * result (success with exactly the serializer's text, or a recoverable
 * error), within the cap. No Proxy trap or `toJSON` ran, except the `then`
 * lookup that adopting an outcome makes (a callable Proxy `then`'s `apply`, or
 * a Proxy prototype's `get`) and at most one `getPrototypeOf` trap of a Proxy
 * prototype (read before it is refused, as the course's plain-object check
 * does). An output whose `then` never settles is cut off by the abort, with
 * exactly its reason.
 */
export function hostileOutputBecomesOneBoundedResult(): fc.IAsyncProperty<[Recipe]> {
  return fc.asyncProperty(hostileRecipe, async (recipe) => {
    const touches = newTouches();
    const output = buildHostile(recipe, touches);
    const expected = serializeCounted(output, touches);
    const prototypeTrapsBefore = touches.prototypeTraps;
    const { registry } = probeRegistry(
      (input) => ({ ok: true, value: input }),
      () => output,
    );
    const controller = new AbortController();
    const reason = new Error("cut off");
    const settled = outcomeOf(
      executeToolCall(registry, toolCall("probe", {}, "call-output") as never, controller.signal),
    );
    await nextMacrotask();
    controller.abort(reason);
    const outcome = await settled;
    // A promise or thenable output is adopted, as `await` would: its settlement is the
    // Tool's outcome, and a callable Proxy `then` gets its one `apply` trap. Nothing else runs.
    const thenable = adopted(output);
    const lookupTraps = thenable || thenLookupReachesProxy(output) ? 1 : 0;
    if (touches.traps > lookupTraps || touches.toJSON !== 0) {
      throw new Error(`user code ran: ${JSON.stringify(touches)}`);
    }
    if (touches.prototypeTraps - prototypeTrapsBefore > 1) {
      throw new Error("the call ran a Proxy prototype's trap more than once");
    }
    if (abortListeners(controller.signal) !== 0) throw new Error("an abort listener was left");
    if (outcome.kind === "rejected") {
      if (outcome.reason !== reason) throw new Error("rejected with something else");
      return;
    }
    const message: CourseToolResultMessage = outcome.message;
    assertLinked(message, "call-output");
    assertBoundedContent(message.content, message.content.endsWith(COURSE_TOOL_TRUNCATION_MARKER));
    if (!message.isError) {
      if (expected === "trap threw" || !expected.ok || message.content !== expected.content) {
        throw new Error("the result differs from the serializer's text");
      }
      return;
    }
    const code = errorOf(message).code;
    const allowed =
      (code === "TOOL_OUTPUT_SERIALIZATION_FAILED" &&
        (expected === "trap threw" || !expected.ok)) ||
      // Only an adopted promise or thenable (or a `then` lookup that throws) can fail the call.
      (code === "TOOL_EXECUTION_FAILED" && (touches.getters > 0 || lookupTraps > 0));
    if (!allowed) throw new Error(`unexpected error result ${message.content}`);
  });
}

/** What a Tool throws in the non-recoverable property. */
export const THROWN_KINDS = [
  "genuine",
  "subclass",
  "prototype-only look-alike",
  "field-only look-alike",
  "forged frozen branded Error",
  "Proxy of a genuine one",
  "Error re-parented onto the class",
  "a ToolContractError",
] as const;

/** Where the Tool throws it. */
export const THROW_SITES = ["validate", "execute-sync", "execute-async", "execute-later"] as const;

class FatalSubclass extends NonRecoverableToolError {}

function thrownValue(kind: (typeof THROWN_KINDS)[number]): unknown {
  switch (kind) {
    case "genuine":
      return new NonRecoverableToolError("stop the run");
    case "subclass":
      return new FatalSubclass("stop the run");
    case "prototype-only look-alike":
      return Object.create(NonRecoverableToolError.prototype) as object;
    case "field-only look-alike":
      return {
        name: "NonRecoverableToolError",
        code: "NON_RECOVERABLE_TOOL_ERROR",
        nonRecoverable: true,
        message: "pretend",
      };
    case "forged frozen branded Error": {
      const forged = new Error("pretend");
      Object.defineProperty(forged, "name", { value: "NonRecoverableToolError" });
      Object.defineProperty(forged, "code", { value: "NON_RECOVERABLE_TOOL_ERROR" });
      Object.defineProperty(forged, "nonRecoverable", { value: true });
      Object.defineProperty(forged, Symbol.for("pify.course.NonRecoverableToolError.brand.v1"), {
        value: true,
      });
      return Object.freeze(forged);
    }
    case "Proxy of a genuine one":
      return new Proxy(new NonRecoverableToolError("stop the run"), countingHandler(newTouches()));
    case "Error re-parented onto the class":
      return Object.setPrototypeOf(new Error("pretend"), NonRecoverableToolError.prototype);
    case "a ToolContractError":
      return new ToolContractError("INVALID_TOOL_CALL", "thrown by a Tool");
  }
}

/**
 * For any site and any thrown value: a registered NonRecoverableToolError (or
 * subclass) always rejects the call with that very instance; every look-alike
 * always becomes a recoverable error result.
 */
export function onlyRegisteredFatalErrorsCross(): fc.IAsyncProperty<
  [(typeof THROW_SITES)[number], (typeof THROWN_KINDS)[number], { [key: string]: unknown }]
> {
  return fc.asyncProperty(
    fc.constantFrom(...THROW_SITES),
    fc.constantFrom(...THROWN_KINDS),
    plainJsonObject,
    async (site, kind, args) => {
      const thrown = thrownValue(kind);
      const raise = (): never => {
        throw thrown;
      };
      const { registry } = probeRegistry(
        site === "validate" ? raise : (input) => ({ ok: true, value: input }),
        site === "execute-sync"
          ? raise
          : site === "execute-async"
            ? async () => raise()
            : () => new Promise((_, reject) => setImmediate(() => reject(thrown))),
      );
      const outcome = await outcomeOf(
        executeToolCall(registry, toolCall("probe", args) as never, new AbortController().signal),
      );
      const fatal = kind === "genuine" || kind === "subclass";
      if (fatal) {
        if (outcome.kind !== "rejected" || outcome.reason !== thrown) {
          throw new Error("a registered NonRecoverableToolError did not reject the call");
        }
        return;
      }
      if (outcome.kind !== "resolved") throw new Error(`a ${kind} rejected the call`);
      const expected = site === "validate" ? "TOOL_VALIDATION_FAILED" : "TOOL_EXECUTION_FAILED";
      if (!outcome.message.isError || errorOf(outcome.message).code !== expected) {
        throw new Error(`expected ${expected}, got ${outcome.message.content}`);
      }
    },
  );
}
