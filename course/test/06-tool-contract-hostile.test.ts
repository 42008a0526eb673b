/**
 * Checkpoint 06 under attack: the hostile tables behind the focused test.
 * Every case is written the way an attacker would write it, and counts what
 * the boundary touched (getter reads, Proxy traps, executions, listeners).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { Worker } from "node:worker_threads";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import {
  type CourseJsonObject,
  type CourseTool,
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  NonRecoverableToolError,
  serializeToolOutput,
  ToolRegistry,
} from "../src/index.js";
import {
  ASYNC_VALIDATOR,
  accept,
  chain,
  contentFor,
  errorContent,
  expectContractError,
  live,
  MALFORMED_DECISION,
  MARKER,
  nextTurn,
  noting,
  PROVENANCE,
  rejectionOf,
  resultFor,
  revokedProxy,
  runWith,
  throwing,
  thrownBy,
  toolCall,
  toolOf,
  trapCounting,
  withThen,
} from "./support/tool-harness.js";

const FIELDS = ["name", "description", "validate", "execute"] as const;
const definitionFields = (): Record<string, unknown> => ({
  name: "echo",
  description: "Echo.",
  validate: accept,
  execute: async () => "done",
});

// ---------------------------------------------------------------------------
// Definitions and batches

describe("hostile definitions", () => {
  test.each(FIELDS)("a definition without an own %s is INVALID_TOOL_DEFINITION", (field) => {
    const definition = definitionFields();
    delete definition[field];
    expectContractError(
      thrownBy(() => defineTool(definition as CourseTool)),
      "INVALID_TOOL_DEFINITION",
    );
  });

  test.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "echo"],
    ["a number", 42],
    ["a function", () => definitionFields()],
    ["an empty name", { ...definitionFields(), name: "" }],
    ["a non-string name", { ...definitionFields(), name: 7 }],
    ["a blank description", { ...definitionFields(), description: "\t \n" }],
    ["a non-string description", { ...definitionFields(), description: ["Echo."] }],
    ["a validator that is a string", { ...definitionFields(), validate: "accept" }],
    ["an executor that is an object", { ...definitionFields(), execute: { run: true } }],
  ])("%s as a definition is INVALID_TOOL_DEFINITION", (_label, definition) => {
    expectContractError(
      thrownBy(() => defineTool(definition as never)),
      "INVALID_TOOL_DEFINITION",
    );
  });

  test("a live Proxy, a revoked Proxy and a callable-Proxy validator are refused without a trap", () => {
    const { proxy, traps } = trapCounting(definitionFields());
    const validator = trapCounting(() => ({ ok: true, value: 1 }));
    for (const definition of [
      proxy,
      revokedProxy(),
      { ...definitionFields(), validate: validator.proxy },
      { ...definitionFields(), execute: validator.proxy },
    ]) {
      expectContractError(
        thrownBy(() => defineTool(definition as CourseTool)),
        "INVALID_TOOL_DEFINITION",
      );
    }
    expect([...traps, ...validator.traps]).toEqual([]);
  });

  test("a registered NonRecoverableToolError thrown by a definition getter is wrapped, never rethrown", () => {
    const fatal = new NonRecoverableToolError("thrown while defining");
    const definition = definitionFields();
    Object.defineProperty(definition, "execute", { get: throwing(fatal) });
    const error = expectContractError(
      thrownBy(() => defineTool(definition as CourseTool)),
      "INVALID_TOOL_DEFINITION",
    );
    expect(error.cause).toBe(fatal);
  });
});

describe("hostile batches", () => {
  const counted = trapCounting([toolOf("fresh")]);
  const throwingEntry = () => {
    const batch: unknown[] = [toolOf("fresh")];
    Object.defineProperty(batch, 1, { enumerable: true, get: throwing(new Error("entry")) });
    return batch;
  };

  test.each([
    ["a Proxy of an array", () => counted.proxy],
    ["a revoked Proxy", revokedProxy],
    ["an array-like object", () => ({ 0: toolOf("fresh"), length: 1 })],
    ["a string", () => "fresh"],
    ["an entry whose getter throws", throwingEntry],
  ])(
    "registerMany with %s is INVALID_TOOL_BATCH, traps nothing and changes nothing",
    (_label, batch) => {
      const registry = new ToolRegistry([toolOf("existing")]);
      expectContractError(
        thrownBy(() => registry.registerMany(batch() as never)),
        "INVALID_TOOL_BATCH",
      );
      expect([registry.size, registry.names]).toEqual([1, ["existing"]]);
      expect(counted.traps).toEqual([]);
    },
  );

  test("an entry getter's throw is the INVALID_TOOL_BATCH cause", () => {
    const thrown = new Error("entry exploded");
    const batch: unknown[] = [toolOf("fresh")];
    Object.defineProperty(batch, 1, { enumerable: true, get: throwing(thrown) });
    const error = thrownBy(() => new ToolRegistry(batch as never));
    expect(expectContractError(error, "INVALID_TOOL_BATCH").cause).toBe(thrown);
  });

  test("an accessor entry is read exactly once", () => {
    let reads = 0;
    const batch: unknown[] = [];
    Object.defineProperty(batch, 0, {
      enumerable: true,
      get: () => {
        reads += 1;
        return toolOf("accessor");
      },
    });
    const registry = new ToolRegistry(batch as never);
    expect(registry.names).toEqual(["accessor"]);
    expect(reads).toBe(1);
  });

  test("a duplicate in the constructor's batch throws DUPLICATE_TOOL_NAME", () => {
    const thrown = thrownBy(() => new ToolRegistry([toolOf("twin"), toolOf("twin")]));
    expect(expectContractError(thrown, "DUPLICATE_TOOL_NAME").message).toBe(
      'Tool name "twin" is already registered',
    );
  });
});

// ---------------------------------------------------------------------------
// Calls

const wellFormed = () => ({ type: "toolCall", id: "c", name: "echo", arguments: {} });
const withArgs = (args: unknown) => ({ ...wellFormed(), arguments: args });
const cyclicArgs = () => {
  const args: Record<string, unknown> = {};
  args.self = args;
  return args;
};
const sparseArgs = () => {
  const list: unknown[] = new Array(2);
  list[1] = 1;
  return { list };
};

describe("hostile calls", () => {
  test.each([
    ["null", null],
    ["a look-alike with get and names", { get: () => toolOf("echo"), names: ["echo"], size: 1 }],
    ["an object made from the prototype", Object.create(ToolRegistry.prototype)],
    ["a Proxy of a real registry", new Proxy(new ToolRegistry([toolOf("echo")]), {})],
  ])("%s as the registry is INVALID_TOOL_CALL", async (_label, registry) => {
    const pending = executeToolCall(registry as never, toolCall("echo", {}, "c"), live());
    expectContractError(await rejectionOf(pending), "INVALID_TOOL_CALL");
  });

  test.each([
    ["a string", "toolCall"],
    ["a function", () => wellFormed()],
    ["missing its type", { id: "c", name: "echo", arguments: {} }],
    ["missing its id", { type: "toolCall", name: "echo", arguments: {} }],
    ["missing its name", { type: "toolCall", id: "c", arguments: {} }],
    ["missing its arguments", { type: "toolCall", id: "c", name: "echo" }],
    ["of the wrong type", { ...wellFormed(), type: "tool_call" }],
    ["with a numeric id", { ...wellFormed(), id: 1 }],
    ["with a blank id", { ...wellFormed(), id: " \n" }],
    ["with a blank name", { ...wellFormed(), name: "" }],
    ["with null arguments", withArgs(null)],
    ["with string arguments", withArgs("{}")],
    ["with array arguments", withArgs([1])],
    ["with a Date argument", withArgs({ d: new Date(0) })],
    ["with a Map argument", withArgs({ m: new Map() })],
    ["with a class-instance argument", withArgs({ c: new (class Thing {})() })],
    ["with a NaN argument", withArgs({ n: Number.NaN })],
    ["with an Infinity argument", withArgs({ n: Number.POSITIVE_INFINITY })],
    ["with an undefined argument", withArgs({ u: undefined })],
    ["with a function argument", withArgs({ f() {} })],
    ["with a symbol argument", withArgs({ s: Symbol("s") })],
    ["with a BigInt argument", withArgs({ b: 1n })],
    ["with a 2,000,000-bit BigInt argument", withArgs({ b: 2n ** 2_000_000n })],
    ["with a hole in an argument array", withArgs(sparseArgs())],
    ["with a cycle", withArgs(cyclicArgs())],
    ["with a Date argument from another realm", withArgs({ d: vm.runInNewContext("new Date(0)") })],
    [
      "with an argument getter that throws",
      withArgs(Object.defineProperty({}, "x", { enumerable: true, get: throwing(new Error("x")) })),
    ],
  ])("a call %s is INVALID_TOOL_CALL and never validates", async (_label, hostileCall) => {
    const validate = vi.fn(accept);
    const registry = new ToolRegistry([toolOf("echo", { validate })]);
    const pending = executeToolCall(registry, hostileCall as never, live());
    expectContractError(await rejectionOf(pending), "INVALID_TOOL_CALL");
    expect(validate).not.toHaveBeenCalled();
  });

  test.each(["type", "id", "name", "arguments"])(
    "an inherited call field %s is absent and its getter never runs",
    async (field) => {
      let reads = 0;
      const own: Record<string, unknown> = wellFormed();
      const proto = {};
      Object.defineProperty(proto, field, {
        get: () => {
          reads += 1;
          return own[field];
        },
      });
      delete own[field];
      const hostileCall = Object.assign(Object.create(proto), own);
      const registry = new ToolRegistry([toolOf("echo")]);
      const pending = executeToolCall(registry, hostileCall, live());
      expectContractError(await rejectionOf(pending), "INVALID_TOOL_CALL");
      expect(reads).toBe(0);
    },
  );

  test("Proxies anywhere in a call are refused before any trap: call, arguments, nested, cross-realm, callable", async () => {
    const logs: string[][] = [];
    const counting = <T extends object>(target: T): T => {
      const { proxy, traps } = trapCounting(target);
      logs.push(traps);
      return proxy;
    };
    const foreignHandler = trapCounting({}).proxy;
    const foreign = vm.runInNewContext("new Proxy({}, handler)", { handler: foreignHandler });
    const hostileCalls = [
      counting(wellFormed()),
      withArgs(counting({ left: 1 })),
      withArgs({ list: [1, counting({ deep: true })] }),
      withArgs({ list: counting([1, 2]) }),
      withArgs({ foreign }),
      withArgs({ callable: counting(() => 1) }),
      withArgs(revokedProxy()),
    ];
    expect(hostileCalls.length).toBeGreaterThan(0);
    const registry = new ToolRegistry([toolOf("echo")]);
    for (const hostileCall of hostileCalls) {
      const pending = executeToolCall(registry, hostileCall as never, live());
      expectContractError(await rejectionOf(pending), "INVALID_TOOL_CALL");
    }
    expect(logs.flat()).toEqual([]);
  });

  test("a replayed ToolContractError thrown by a call or argument getter is wrapped, never rethrown", async () => {
    const registry = new ToolRegistry([toolOf("echo")]);
    const replay = await rejectionOf(executeToolCall(registry, null as never, live()));
    expectContractError(replay, "INVALID_TOOL_CALL");
    const inField = Object.defineProperty(wellFormed(), "id", { get: throwing(replay) });
    const inArgs = withArgs(
      Object.defineProperty({}, "x", { enumerable: true, get: throwing(replay) }),
    );
    for (const hostileCall of [inField, inArgs]) {
      const error = await rejectionOf(executeToolCall(registry, hostileCall as never, live()));
      expect(expectContractError(error, "INVALID_TOOL_CALL")).not.toBe(replay);
      expect((error as Error).cause).toBe(replay);
    }
  });

  test("plain arguments from another realm are accepted and copied", async () => {
    const foreign = vm.runInNewContext('({ left: 1, list: [2, { deep: "x" }] })');
    let seen: unknown;
    const validate = (input: unknown) => {
      seen = input;
      return accept(input);
    };
    const result = await runWith({ validate }, foreign);
    expect(result.content).toBe('{"left":1,"list":[2,{"deep":"x"}]}');
    expect(seen).not.toBe(foreign);
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
  });

  test.each([
    [256, "accepted"],
    [257, "refused"],
  ])("arguments nested %i containers deep are %s", async (depth, verdict) => {
    const outcome = runWith({}, chain(depth) as CourseJsonObject);
    if (verdict === "accepted") expect((await outcome).isError).toBe(false);
    else expectContractError(await rejectionOf(outcome), "INVALID_TOOL_CALL");
  });

  test("300 sibling containers are wide, not deep: accepted", async () => {
    const wide: Record<string, object> = {};
    for (let index = 0; index < 300; index += 1) wide[`k${index}`] = { list: [index] };
    expect((await runWith({ execute: async () => "ok" }, wide as CourseJsonObject)).content).toBe(
      '"ok"',
    );
  });

  test("a cycle is refused as a cycle, not as deep nesting", async () => {
    const error = await rejectionOf(runWith({}, withArgs(cyclicArgs()).arguments as never));
    expect(expectContractError(error, "INVALID_TOOL_CALL").message).toContain("cycle");
  });

  test("the copied arrays are ordinary frozen arrays with enumerable indices", async () => {
    let seen: { list?: unknown } = {};
    const validate = (input: unknown) => {
      seen = input as typeof seen;
      return accept(input);
    };
    await runWith({ validate }, { list: [1, [2]] });
    expect(Array.isArray(seen.list)).toBe(true);
    expect(Object.getPrototypeOf(seen.list)).toBe(Array.prototype);
    expect(Object.keys(seen.list as object)).toEqual(["0", "1"]);
  });

  test("a 100,000-deep argument chain is refused without exhausting the stack", async () => {
    const error = expectContractError(
      await rejectionOf(runWith({}, chain(100_000) as CourseJsonObject)),
      "INVALID_TOOL_CALL",
    );
    expect(error.message).toContain("nesting deeper than 256");
  });

  test("a million-slot sparse argument array is refused at its first hole", async () => {
    const error = expectContractError(
      await rejectionOf(runWith({}, { list: new Array(1_000_000) } as never)),
      "INVALID_TOOL_CALL",
    );
    expect(error.message).toContain("$.list[0]");
  });

  test("an 8-million-character string argument reaches the validator intact", async () => {
    let length = 0;
    const validate = (input: unknown) => {
      length = (input as { text: string }).text.length;
      return { ok: false, error: "too long" };
    };
    await runWith({ validate }, { text: "q".repeat(8_000_000) });
    expect(length).toBe(8_000_000);
  });

  test("a shared reference is copied once, so the DAG stays a DAG", async () => {
    const shared = { n: 1 };
    let seen: { a?: unknown; b?: unknown[] } = {};
    const validate = (input: unknown) => {
      seen = input as typeof seen;
      return accept(input);
    };
    await runWith({ validate }, { a: shared, b: [shared] });
    expect(seen.a).toEqual({ n: 1 });
    expect(seen.a).not.toBe(shared);
    expect(seen.b?.[0]).toBe(seen.a);
  });

  test("keys inherited from a polluted Object.prototype are not copied, and their getters never run", async () => {
    let reads = 0;
    let seen: object = {};
    const validate = (input: unknown) => {
      seen = input as object;
      return accept(input);
    };
    let pending: Promise<CourseToolResultMessage> | undefined;
    try {
      Object.defineProperty(Object.prototype, "pollutedKey", {
        configurable: true,
        enumerable: true,
        get: () => {
          reads += 1;
          return "polluted";
        },
      });
      // Validation runs synchronously, inside the call, while the pollution is in place.
      pending = runWith({ validate }, { own: 1 });
    } finally {
      delete (Object.prototype as Record<string, unknown>).pollutedKey;
    }
    expect((await pending).content).toBe('{"own":1}');
    expect(Object.hasOwn(seen, "pollutedKey")).toBe(false);
    expect(reads).toBe(0);
  });

  test("the snapshot the validator and the Tool see cannot be mutated", async () => {
    const attempts: string[] = [];
    const tryWrite = (input: unknown, who: string) => {
      try {
        (input as Record<string, unknown>).left = "tampered";
      } catch {
        attempts.push(who);
      }
    };
    const validate = (input: unknown) => {
      tryWrite(input, "validate");
      return accept(input);
    };
    const execute = async (input: unknown) => {
      tryWrite(input, "execute");
      return input;
    };
    expect((await runWith({ validate, execute }, { left: 1 })).content).toBe('{"left":1}');
    expect(attempts).toEqual(["validate", "execute"]);
  });
});

// ---------------------------------------------------------------------------
// Signals

/** A tampered signal (own `aborted`), which the boundary has to listen to directly. */
function blindedWithoutBlocker(): AbortController {
  const controller = new AbortController();
  Object.defineProperty(controller.signal, "aborted", { value: false, configurable: true });
  return controller;
}

describe("hostile signals", () => {
  test.each([
    ["an EventTarget", new EventTarget()],
    ["an AbortController", new AbortController()],
    ["an object made from the prototype", Object.create(AbortSignal.prototype)],
  ])("%s as the signal is INVALID_TOOL_CALL", async (_label, signal) => {
    expectContractError(await rejectionOf(runWith({}, {}, signal as never)), "INVALID_TOOL_CALL");
  });

  test("a look-alike signal is INVALID_TOOL_CALL and its fields are never read", async () => {
    const reads: string[] = [];
    const fake = {};
    for (const key of ["aborted", "reason", "addEventListener", "removeEventListener"]) {
      Object.defineProperty(fake, key, { get: () => noting(reads, key, () => false) });
    }
    expectContractError(await rejectionOf(runWith({}, {}, fake as never)), "INVALID_TOOL_CALL");
    expect(reads).toEqual([]);
  });

  test("a Proxy of a genuine signal is INVALID_TOOL_CALL, and none of its traps run", async () => {
    const { proxy, traps } = trapCounting(new AbortController().signal);
    const execute = vi.fn(async () => "effect");
    expectContractError(await rejectionOf(runWith({ execute }, {}, proxy)), "INVALID_TOOL_CALL");
    expect(traps).toEqual([]);
    expect(execute).not.toHaveBeenCalled();
  });

  test("a signal's own overridden `aborted` is ignored both ways: the intrinsic getter decides", async () => {
    let reads = 0;
    const running = new AbortController().signal;
    Object.defineProperty(running, "aborted", {
      get: () => {
        reads += 1;
        return true;
      },
    });
    expect((await runWith({}, { x: 1 }, running)).content).toBe('{"x":1}');
    const stopped = new AbortController();
    stopped.abort("stopped");
    Object.defineProperty(stopped.signal, "aborted", { value: false });
    expect(await rejectionOf(runWith({}, {}, stopped.signal))).toBe("stopped");
    expect(reads).toBe(0);
  });

  test("own `aborted` and `reason` getters that lie on a running signal never run, and a real abort while awaiting still wins", async () => {
    const controller = new AbortController();
    const reads: string[] = [];
    Object.defineProperty(controller.signal, "aborted", {
      get: () => noting(reads, "aborted", true),
    });
    Object.defineProperty(controller.signal, "reason", {
      get: () => noting(reads, "reason", "fake"),
    });
    let release: () => void = () => {};
    const slow = () => new Promise((resolve) => (release = () => resolve("finished anyway")));
    const pending = runWith({ execute: slow }, {}, controller.signal).then(
      (result) => result.content,
      (error: unknown) => error,
    );
    await nextTurn();
    controller.abort("real reason");
    const early = await Promise.race([pending, nextTurn().then(() => "still waiting")]);
    release(); // let the Tool finish, so nothing is left behind
    await pending;
    expect(early).toBe("real reason");
    expect(reads).toEqual([]);
  });

  test.each([
    ["a plain signal", () => new AbortController()],
    ["a signal listened to directly", blindedWithoutBlocker],
  ])("an abort event dispatched by hand on %s is not a cancellation", async (_label, make) => {
    const controller = make();
    let release: () => void = () => {};
    const execute = (input: unknown) => new Promise((resolve) => (release = () => resolve(input)));
    const pending = runWith({ execute }, { x: 1 }, controller.signal);
    await nextTurn();
    controller.signal.dispatchEvent(new Event("abort"));
    release();
    expect((await pending).content).toBe('{"x":1}');
  });

  test.each([
    ["a plain signal", () => new AbortController()],
    // An own (truthful) `aborted`: a tampered instance, which the boundary listens to directly.
    ["a tampered signal", blindedWithoutBlocker],
  ])(
    "a Tool that plants a propagation-stopping abort listener on %s cannot keep a later call from being cancelled",
    async (_label, make) => {
      const controller = make();
      const reason = new Error("stop the run");
      const poison = (_input: unknown, context: { signal: AbortSignal }) => {
        // Added after the boundary's listener for this call, but it outlives the call.
        context.signal.addEventListener("abort", (event) => event.stopImmediatePropagation());
        return Promise.resolve("planted");
      };
      expect((await runWith({ execute: poison }, {}, controller.signal)).content).toBe('"planted"');
      let release: () => void = () => {};
      const slow = () => new Promise((resolve) => (release = () => resolve("finished anyway")));
      const pending = runWith({ execute: slow }, {}, controller.signal).then(
        (result) => result.content,
        (error: unknown) => error,
      );
      await nextTurn();
      controller.abort(reason);
      const early = await Promise.race([pending, nextTurn().then(() => "still waiting")]);
      release(); // let the Tool finish, so nothing is left behind
      await pending;
      expect(early).toBe(reason);
    },
  );
});

// ---------------------------------------------------------------------------
// Validators

/** A thenable whose `then` getter and `then` calls are logged; `body` is what `then` does. */
function loggedThenable<T extends object>(
  log: string[],
  target: T,
  body: (reject: (reason: unknown) => void) => unknown,
): T {
  const then = (resolve: unknown, reject: (reason: unknown) => void) => {
    // Observing a rejection means handing `then` a rejection handler.
    const handled = typeof resolve === "function" && typeof reject === "function";
    log.push(handled ? "call" : "call without handlers");
    return body(reject);
  };
  return withThen(target, { get: () => noting(log, "get", then) });
}

describe("hostile validators", () => {
  test.each([
    ["a resolved Promise", () => Promise.resolve({ ok: true, value: 1 }), 0],
    ["a rejected Promise", () => Promise.reject(new Error("no")), 0],
    [
      "a thenable calling reject",
      (log: string[]) => loggedThenable(log, {}, (reject) => reject(new Error("no"))),
      1,
    ],
    [
      "a thenable whose then throws",
      (log: string[]) => loggedThenable(log, {}, throwing(new Error("then threw"))),
      1,
    ],
    [
      "a thenable returning a rejected Promise",
      (log: string[]) => loggedThenable(log, {}, () => Promise.reject(new Error("observe me"))),
      1,
    ],
    [
      "a callable thenable",
      (log: string[]) =>
        loggedThenable(
          log,
          () => 1,
          () => undefined,
        ),
      1,
    ],
    [
      "a valid-looking decision that is a thenable",
      (log: string[]) => loggedThenable(log, { ok: true, value: 1 }, () => undefined),
      1,
    ],
  ])(
    "%s is refused as asynchronous; `then` read and called %i time(s), nothing executed",
    async (_label, decide, times) => {
      const log: string[] = [];
      const execute = vi.fn(async () => "effect");
      const result = await runWith({ validate: () => decide(log), execute });
      expect(result.content).toBe(errorContent("TOOL_VALIDATION_FAILED", ASYNC_VALIDATOR));
      expect(log.filter((entry) => entry === "get")).toHaveLength(times);
      expect(log.filter((entry) => entry === "call")).toHaveLength(times);
      expect(execute).not.toHaveBeenCalled();
    },
  );

  test.each([
    ["undefined", undefined],
    ["null", null],
    ["a number", 1],
    ["a string", "ok"],
    ["true", true],
    ["an empty object", {}],
    ["ok without value", { ok: true }],
    ["ok: false without error", { ok: false }],
    ["an empty error", { ok: false, error: "" }],
    ["a blank error", { ok: false, error: " \n\t" }],
    ["a non-string error", { ok: false, error: 42 }],
    ["an Error as the error", { ok: false, error: new Error("x") }],
    ["a truthy non-boolean ok", { ok: 1, value: 1 }],
    ["a string ok", { ok: "true", value: 1 }],
    ["inherited ok and value", Object.create({ ok: true, value: 1 })],
    ["an own ok with an inherited value", Object.assign(Object.create({ value: 1 }), { ok: true })],
    ["a live Proxy of a valid decision", new Proxy({ ok: true, value: 1 }, {})],
    ["a revoked Proxy", revokedProxy()],
  ])(
    "a malformed decision (%s) is TOOL_VALIDATION_FAILED and nothing executes",
    async (_label, decision) => {
      const execute = vi.fn(async () => "effect");
      const result = await runWith({ validate: () => decision, execute });
      expect(result.content).toBe(errorContent("TOOL_VALIDATION_FAILED", MALFORMED_DECISION));
      expect(execute).not.toHaveBeenCalled();
    },
  );

  test("a Proxy decision is refused without running a trap", async () => {
    const { proxy, traps } = trapCounting({ ok: true, value: 1 });
    const result = await runWith({ validate: () => proxy });
    expect(result.content).toBe(errorContent("TOOL_VALIDATION_FAILED", MALFORMED_DECISION));
    expect(traps).toEqual([]);
  });

  test("own getters on a decision run exactly once each", async () => {
    const reads: string[] = [];
    const decision = {};
    Object.defineProperty(decision, "ok", { get: () => noting(reads, "ok", true) });
    Object.defineProperty(decision, "value", { get: () => noting(reads, "value", { v: 1 }) });
    expect((await runWith({ validate: () => decision })).content).toBe('{"v":1}');
    expect(reads).toEqual(["ok", "value"]);
  });

  test("a registered NonRecoverableToolError thrown by a decision getter rejects the call", async () => {
    const fatal = new NonRecoverableToolError("decision invariant");
    const decision = { ok: false };
    Object.defineProperty(decision, "error", { get: throwing(fatal) });
    expect(await rejectionOf(runWith({ validate: () => decision }))).toBe(fatal);
  });
});

// ---------------------------------------------------------------------------
// Thrown values, from either side of the boundary

describe.each([
  ["validate", "TOOL_VALIDATION_FAILED", "Tool validation failed"],
  ["execute", "TOOL_EXECUTION_FAILED", "Tool execution failed"],
] as const)("values thrown by %s", (phase, code, fallback) => {
  const runThrowing = (thrown: unknown) => runWith({ [phase]: throwing(thrown) });

  test.each([
    ["an Error", new Error("plain error"), "plain error"],
    ["a non-empty string", "thrown text", "thrown text"],
    ["an empty string", "", fallback],
    ["a number", 42, fallback],
    ["null", null, fallback],
    ["undefined", undefined, fallback],
    ["an object with a data message", { message: "data message" }, "data message"],
    ["an object with an empty message", { message: "" }, fallback],
    ["an object with a numeric message", { message: 7 }, fallback],
    ["an object with an inherited message", Object.create({ message: "inherited" }), fallback],
    ["a revoked Proxy", revokedProxy(), fallback],
  ])(`%s becomes ${code} with the expected message`, async (_label, thrown, message) => {
    const result = await runThrowing(thrown);
    expect(result.content).toBe(errorContent(code, message));
  });

  test("getters on the thrown value and Proxy traps never run", async () => {
    const reads: string[] = [];
    const thrown = {};
    for (const key of ["message", "name", "code", "nonRecoverable", "stack", "toString"]) {
      Object.defineProperty(thrown, key, { get: () => noting(reads, key, "from a getter") });
    }
    Object.defineProperty(thrown, Symbol.toPrimitive, { get: () => noting(reads, "prim", null) });
    const { proxy, traps } = trapCounting(new Error("behind a Proxy"));
    expect((await runThrowing(thrown)).content).toBe(errorContent(code, fallback));
    expect((await runThrowing(proxy)).content).toBe(errorContent(code, fallback));
    expect([...reads, ...traps]).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Executions

describe("hostile executions", () => {
  test("an outcome whose `then` getter throws is read once and becomes TOOL_EXECUTION_FAILED", async () => {
    let reads = 0;
    const outcome = withThen(
      {},
      {
        get: () => {
          reads += 1;
          throw new Error("then getter exploded");
        },
      },
    );
    const result = await resultFor(() => outcome);
    expect(result.content).toBe(errorContent("TOOL_EXECUTION_FAILED", "then getter exploded"));
    expect(reads).toBe(1);
  });

  test("a thenable that fulfils twice and then rejects settles once, with the first value", async () => {
    let calls = 0;
    const outcome = withThen(
      {},
      {
        value: (fulfil: (value: unknown) => void, reject: (reason: unknown) => void) => {
          calls += 1;
          fulfil({ first: true });
          fulfil({ second: true });
          reject(new Error("too late"));
          return Promise.reject(new Error("the then's own promise, observed"));
        },
      },
    );
    const result = await resultFor(() => outcome);
    expect(result.content).toBe('{"first":true}');
    expect(calls).toBe(1);
  });

  test("a registered NonRecoverableToolError thrown by an outcome's `then` getter rejects the call", async () => {
    const fatal = new NonRecoverableToolError("then invariant");
    const outcome = withThen({}, { get: throwing(fatal) });
    expect(await rejectionOf(resultFor(() => outcome))).toBe(fatal);
  });

  test("patched Promise.prototype.then and Promise.resolve are never used on the Tool's promise", async () => {
    const originalThen = Promise.prototype.then;
    const originalResolve = Promise.resolve;
    const used: string[] = [];
    let toolPromise: Promise<unknown> | undefined;
    let result: CourseToolResultMessage | undefined;
    try {
      // biome-ignore lint/suspicious/noThenProperty: patching the global `then` is the attack under test.
      Promise.prototype.then = function patchedThen(
        this: Promise<unknown>,
        ...handlers: unknown[]
      ) {
        if (this !== toolPromise) return Reflect.apply(originalThen, this, handlers);
        used.push("then");
        // The attack: hand the boundary a forged output instead of the real one.
        const forge = () => (handlers[0] as (value: unknown) => unknown)({ forged: true });
        return Reflect.apply(originalThen, this, [forge, handlers[1]]);
      } as typeof originalThen;
      Promise.resolve = function patchedResolve(this: PromiseConstructor, value?: unknown) {
        if (value === toolPromise) used.push("resolve");
        return Reflect.apply(originalResolve, this, [value]);
      } as typeof originalResolve;
      const execute = () => {
        toolPromise = new Promise((resolve) => setImmediate(() => resolve({ real: true })));
        return toolPromise;
      };
      result = await resultFor(execute);
    } finally {
      // biome-ignore lint/suspicious/noThenProperty: patching the global `then` is the attack under test.
      Promise.prototype.then = originalThen;
      Promise.resolve = originalResolve;
    }
    expect(result?.content).toBe('{"real":true}');
    expect(used).toEqual([]);
  });

  test.each([
    ["a number", 42, "42"],
    ["a string", "text", '"text"'],
    ["null", null, "null"],
    ["undefined", undefined, '"[Undefined]"'],
    ["a function", () => 1, '"[Function]"'],
  ])(
    "a non-async execute returning %s: that value is the output",
    async (_label, value, content) => {
      expect(await contentFor(() => value)).toBe(content);
    },
  );

  test("a validator's native Promise is refused without calling a patched Promise.prototype.then on it", async () => {
    const originalThen = Promise.prototype.then;
    const decision = Promise.resolve({ ok: true, value: "forged" });
    let calls = 0;
    let result: CourseToolResultMessage | undefined;
    try {
      // biome-ignore lint/suspicious/noThenProperty: patching the global `then` is the attack under test.
      Promise.prototype.then = function patchedThen(
        this: Promise<unknown>,
        ...handlers: unknown[]
      ) {
        if (this === decision) calls += 1;
        return Reflect.apply(originalThen, this, handlers);
      } as typeof originalThen;
      result = await runWith({ validate: () => decision });
    } finally {
      // biome-ignore lint/suspicious/noThenProperty: restoring the global `then`.
      Promise.prototype.then = originalThen;
    }
    expect(result?.content).toBe(errorContent("TOOL_VALIDATION_FAILED", ASYNC_VALIDATOR));
    expect(calls).toBe(0);
  });

  test("an own `then` on the Tool's native promise is never read", async () => {
    let reads = 0;
    const execute = () => {
      const promise = Promise.resolve({ real: true });
      return withThen(promise, {
        get: () => {
          reads += 1;
          return (fulfil: (value: unknown) => void) => fulfil({ forged: true });
        },
      });
    };
    expect(await contentFor(execute)).toBe('{"real":true}');
    expect(reads).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Output

const refused = (message: string) =>
  JSON.stringify({ error: { code: "TOOL_OUTPUT_SERIALIZATION_FAILED", message } });

describe("hostile output", () => {
  test("Proxies anywhere in the output are refused before any trap, with the path in the message", async () => {
    const logs: string[][] = [];
    const counting = <T extends object>(target: T): T => {
      const { proxy, traps } = trapCounting(target);
      logs.push(traps);
      return proxy;
    };
    const handler = counting({});
    const foreign = vm.runInNewContext("new Proxy({}, handler)", { handler });
    const cases: ReadonlyArray<readonly [() => unknown, string]> = [
      [() => counting({ a: 1 }), "$"],
      [() => revokedProxy(), "$"],
      [() => counting(() => 1), "$"],
      [() => ({ callable: counting(() => 1) }), "$.callable"],
      [() => ({ foreign }), "$.foreign"],
      [() => ({ "odd key": counting([]) }), '$["odd key"]'],
      [() => ({ items: [0, 1, 2, { p: counting({}) }] }), "$.items[3].p"],
    ];
    expect(cases.length).toBeGreaterThan(0);
    for (const [output, path] of cases) {
      const result = await resultFor(output);
      expect(result.content).toBe(refused(`${path}: Proxy objects are not supported`));
    }
    expect(logs.flat()).toEqual([]);
  });

  test.each([
    ["an identifier key", { ok_1$: "proxy" }, "$.ok_1$"],
    ["a key with a space", { "odd key": "proxy" }, '$["odd key"]'],
    ["a key with quotes and a backslash", { 'say "hi" \\': "proxy" }, '$["say \\"hi\\" \\\\"]'],
    ["a key with a newline", { "line\nbreak": "proxy" }, '$["line?break"]'],
    ["a 40-character key", { ["k".repeat(40)]: "proxy" }, `$.${"k".repeat(40)}`],
    ["a 41-character key", { ["k".repeat(41)]: "proxy" }, `$["${"k".repeat(40)}…"]`],
    ["an index under a key", { items: [0, "proxy"] }, "$.items[1]"],
  ])("the refusal path for %s is %s, counted from the root", async (_label, shape, path) => {
    const { proxy } = trapCounting({});
    // Puts the Proxy where the shape says "proxy"; every other value stays as it is.
    const swap = (value: unknown): unknown => {
      if (value === "proxy") return proxy;
      if (Array.isArray(value)) return value.map(swap);
      if (typeof value !== "object" || value === null) return value;
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swap(item)]));
    };
    const result = await resultFor(async () => swap(shape));
    expect(result.content).toBe(refused(`${path}: Proxy objects are not supported`));
  });

  function* generator() {
    yield 1;
  }

  test.each([
    ["a Set", () => new Set([1]), "Set objects are not supported"],
    ["a WeakMap", () => new WeakMap(), "WeakMap objects are not supported"],
    ["a WeakSet", () => new WeakSet(), "WeakSet objects are not supported"],
    ["a RegExp", () => /x/, "RegExp objects are not supported"],
    ["a boxed number", () => Object(1), "boxed primitives are not supported"],
    ["a boxed string", () => Object("s"), "boxed primitives are not supported"],
    ["a Promise", () => Promise.resolve(1), "Promise objects are not supported"],
    ["an Error", () => new Error("x"), "Error objects are not supported"],
    [
      "a NonRecoverableToolError",
      () => new NonRecoverableToolError("returned"),
      "Error objects are not supported",
    ],
    ["a typed array", () => new Uint8Array(2), "typed arrays and DataViews are not supported"],
    ["an ArrayBuffer", () => new ArrayBuffer(2), "ArrayBuffers are not supported"],
    ["a generator object", () => generator(), "generator objects are not supported"],
    ["a Map iterator", () => new Map().keys(), "Map iterators are not supported"],
    [
      "an Array subclass",
      () => new (class List extends Array {})(),
      "arrays with a custom prototype are not supported",
    ],
    [
      "an array with a swapped prototype",
      () => Object.setPrototypeOf([], {}),
      "arrays with a custom prototype are not supported",
    ],
    [
      "Object.create of a custom prototype",
      () => Object.create({ inherited: 1 }),
      "objects with a custom prototype (class instances) are not supported",
    ],
    [
      "a class instance from another realm",
      () => vm.runInNewContext("new (class Foreign {})()"),
      "objects with a custom prototype (class instances) are not supported",
    ],
  ])(
    "%s nested in a plain array is TOOL_OUTPUT_SERIALIZATION_FAILED",
    async (_label, make, reason) => {
      // Nested, so promise resolution does not adopt a returned Promise or thenable.
      const result = await resultFor(async () => [make()]);
      expect(result.content).toBe(refused(`$[0]: ${reason}`));
    },
  );

  test.each([
    [32, `${'{"a":'.repeat(31)}{}${"}".repeat(31)}`],
    [33, `${'{"a":'.repeat(32)}${MARKER}`],
  ])("depth: %i nested objects are written as %j", async (depth, content) => {
    let value: Record<string, unknown> = {};
    for (let level = 1; level < depth; level += 1) value = { a: value };
    expect(await contentFor(async () => value)).toBe(content);
  });

  test("accessor array slots are collection visits, not nodes, and are never read", async () => {
    let reads = 0;
    const slots: unknown[] = [];
    for (let index = 0; index < 150; index += 1) {
      const get = () => {
        reads += 1;
        return index;
      };
      Object.defineProperty(slots, index, { enumerable: true, get });
    }
    const omitted = Array(150).fill('"[Accessor omitted]"').join(",");
    expect(await contentFor(async () => slots)).toBe(`[${omitted}]`);
    expect(reads).toBe(0);
  });

  test("keys inherited from a polluted Object.prototype are collection visits, never written, never read", () => {
    let reads = 0;
    const keys = Array.from({ length: 300 }, (_, index) => `polluted${index}`);
    expect(keys.length).toBeGreaterThan(0);
    const results: unknown[] = [];
    try {
      for (const key of keys.slice(0, 1)) pollute(key);
      results.push(serializeToolOutput({ own: 1 }));
      for (const key of keys.slice(1)) pollute(key);
      results.push(serializeToolOutput({ own: 1 }));
    } finally {
      for (const key of keys) delete (Object.prototype as Record<string, unknown>)[key];
    }
    expect(results).toEqual([
      { ok: true, content: '{"own":1}', truncated: false },
      { ok: true, content: `{${MARKER}`, truncated: true },
    ]);
    expect(reads).toBe(0);

    function pollute(key: string): void {
      Object.defineProperty(Object.prototype, key, {
        configurable: true,
        enumerable: true,
        get: () => {
          reads += 1;
          return "polluted";
        },
      });
    }
  });
});

// ---------------------------------------------------------------------------
// The live Object.hasOwn: the course counts its calls, so the serializer calls
// the global; a patched one can only make keys be skipped.

describe("a patched global Object.hasOwn", () => {
  /** Runs `body` while Object.hasOwn is replaced by `patched`; counts the calls. */
  async function withHasOwn<T>(
    patched: (target: object, key: PropertyKey) => boolean,
    body: () => Promise<T>,
  ): Promise<{ value: T; calls: number }> {
    const spy = vi.spyOn(Object, "hasOwn").mockImplementation(patched);
    try {
      const value = await body();
      return { value, calls: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  /** An output with an own data key and an own accessor. */
  function mixedOutput(reads: { count: number }): object {
    const output = {};
    Object.defineProperty(output, "own", { value: 1, enumerable: true });
    Object.defineProperty(output, "accessor", {
      enumerable: true,
      get: () => {
        reads.count += 1;
        return "getter ran";
      },
    });
    return output;
  }

  test("answering true for every key makes no inherited key or accessor appear, and runs no getter", async () => {
    const reads = { count: 0 };
    const key = "plantedEnumerableKey";
    // Writable, so that code assigning a same-named field elsewhere still can.
    Object.defineProperty(Object.prototype, key, {
      configurable: true,
      enumerable: true,
      writable: true,
      value: "planted",
    });
    try {
      const { value, calls } = await withHasOwn(
        () => true,
        () => contentFor(async () => mixedOutput(reads)),
      );
      expect(value).toBe('{"own":1}');
      expect(calls).toBe(3); // own, accessor, and the planted key: one call per key yielded
    } finally {
      delete (Object.prototype as Record<string, unknown>)[key];
    }
    expect(reads.count).toBe(0);
  });

  test("answering false for every key only makes keys be skipped", async () => {
    const { value, calls } = await withHasOwn(
      () => false,
      () => contentFor(async () => ({ a: 1, b: { c: 2 } })),
    );
    expect(value).toBe("{}");
    expect(calls).toBe(2);
  });

  test("one that throws makes the output TOOL_OUTPUT_SERIALIZATION_FAILED, never a partial success", async () => {
    const { value } = await withHasOwn(
      () => {
        throw new Error("patched hasOwn threw");
      },
      () => resultFor(async () => ({ a: 1 })),
    );
    expect(value.content).toBe(refused("Tool output could not be serialized"));
  });

  test("error results never consult it: an unknown Tool's result is intact while it answers false", async () => {
    const registry = new ToolRegistry([]);
    const call = { type: "toolCall" as const, id: "call-1", name: "rm", arguments: {} };
    const { value, calls } = await withHasOwn(
      () => false,
      () => executeToolCall(registry, call, live()),
    );
    expect(value.content).toBe(
      JSON.stringify({ error: { code: "TOOL_NOT_FOUND", message: 'Unknown Tool "rm"' } }),
    );
    expect(calls).toBe(0);
  });

  test("error results ignore keys planted on Object.prototype, even more than the visit budget", async () => {
    const keys = Array.from({ length: 300 }, (_, index) => `planted${index}`);
    expect(keys.length).toBeGreaterThan(256);
    for (const key of keys) {
      Object.defineProperty(Object.prototype, key, {
        configurable: true,
        enumerable: true,
        writable: true,
        value: key,
      });
    }
    let result: CourseToolResultMessage;
    try {
      result = await runWith({ validate: () => ({ ok: false, error: "left must be a number" }) });
    } finally {
      for (const key of keys) delete (Object.prototype as Record<string, unknown>)[key];
    }
    expect(result.content).toBe(errorContent("TOOL_ARGUMENTS_INVALID", "left must be a number"));
  });

  test("array slots are read without it: zero calls for a 100-slot array", async () => {
    const list = Array.from({ length: 100 }, (_, index) => index);
    const { value, calls } = await withHasOwn(
      (target, key) => Reflect.apply(Object.prototype.hasOwnProperty, target, [key]) as boolean,
      () => contentFor(async () => list),
    );
    expect(value).toBe(JSON.stringify(list));
    expect(calls).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// The shared provenance registry, as a fresh realm sees it

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const key = Symbol.for(workerData.key);
if (workerData.plant !== undefined) {
  Object.defineProperty(globalThis, key, (0, eval)(workerData.plant));
}
import(workerData.entry).then(
  (loaded) => parentPort.postMessage("loaded " + new loaded.NonRecoverableToolError("x").code),
  (error) => parentPort.postMessage("refused: " + error.message),
);`;

describe("loading beside an existing provenance registry (in a fresh worker realm)", () => {
  let buildDirectory = "";

  beforeAll(() => {
    // A worker cannot load TypeScript on Node 20: emit the module as JavaScript first.
    buildDirectory = mkdtempSync(join(tmpdir(), "course-tool-module-"));
    writeFileSync(join(buildDirectory, "package.json"), '{ "type": "module" }');
    const sources = new URL("../src/", import.meta.url);
    for (const file of readdirSync(sources).filter((name) => name.endsWith(".ts"))) {
      const { outputText } = ts.transpileModule(readFileSync(new URL(file, sources), "utf8"), {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          rewriteRelativeImportExtensions: true,
        },
      });
      writeFileSync(join(buildDirectory, file.replace(/\.ts$/, ".js")), outputText);
    }
  });

  afterAll(() => rmSync(buildDirectory, { recursive: true, force: true }));

  async function loadWith(plant: string | undefined): Promise<string> {
    const entry = pathToFileURL(join(buildDirectory, "index.js")).href;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { entry, plant, key: PROVENANCE.description },
    });
    try {
      return await new Promise<string>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
    } finally {
      await worker.terminate();
    }
  }

  const shaped =
    "Object.freeze({ version: 1, register() { return false }, isRegistered() { return false } })";

  test.each([
    ["nothing", undefined],
    ["a locked registry of the right shape", `({ value: ${shaped} })`],
  ])("with %s there, the module loads and reuses it", async (_label, plant) => {
    expect(await loadWith(plant)).toBe("loaded NON_RECOVERABLE_TOOL_ERROR");
  });

  test.each([
    ["a writable property", `({ value: ${shaped}, writable: true })`],
    ["a configurable property", `({ value: ${shaped}, configurable: true })`],
    ["an accessor property", `({ get: () => ${shaped} })`],
    ["a number", "({ value: 1 })"],
    [
      "an object that is not frozen",
      "({ value: { version: 1, register() {}, isRegistered() {} } })",
    ],
    ["version 2", "({ value: Object.freeze({ version: 2, register() {}, isRegistered() {} }) })"],
    [
      "an exposed collection",
      "({ value: Object.freeze({ version: 1, register() {}, isRegistered() {}, all: new WeakSet() }) })",
    ],
    [
      "a missing function",
      "({ value: Object.freeze({ version: 1, register() {}, isRegistered: true }) })",
    ],
    [
      "a null-prototype object",
      `({ value: Object.freeze(Object.assign(Object.create(null), ${shaped})) })`,
    ],
    ["a Proxy", `({ value: new Proxy(${shaped}, {}) })`],
  ])("with %s there, the module refuses to load", async (_label, plant) => {
    expect(await loadWith(plant)).toMatch(
      /^refused: NonRecoverableToolError: refusing the shared provenance registry: /,
    );
  });
});
