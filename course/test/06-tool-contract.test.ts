/**
 * Checkpoint 06, the Tool contract: one focused test per rule of the checkpoint
 * and of the interface page, every acceptance criterion included. The deeper
 * hostile tables (attacks on calls, definitions, validators, executions and
 * output) live beside this file in `06-tool-contract-hostile.test.ts`.
 */
import { getEventListeners } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import vm from "node:vm";
import { describe, expect, test, vi } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS,
  COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  COURSE_TOOL_SERIALIZATION_MAX_DEPTH,
  COURSE_TOOL_SERIALIZATION_MAX_NODES,
  COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseJsonObject,
  type CourseTool,
  type CourseToolCall,
  type CourseToolExecutionContext,
  type CourseToolValidation,
  defineTool,
  executeToolCall,
  NonRecoverableToolError,
  type RegisteredCourseTool,
  ToolContractError,
  ToolRegistry,
} from "../src/index.js";
import {
  ASYNC_VALIDATOR,
  accept,
  BRAND,
  blindedController,
  chain,
  codePoints,
  contentFor,
  errorContent,
  expectContractError,
  holes,
  live,
  MALFORMED_DECISION,
  MARKER,
  nestedArrays,
  nextTurn,
  noting,
  PROVENANCE,
  rejectionOf,
  resultFor,
  runWith,
  throwing,
  thrownBy,
  toolOf,
  trapCounting,
  withThen,
} from "./support/tool-harness.js";

/** Builds the normalized Tool call the seed fragment sends. */
function call(name: string, args: CourseJsonObject, id: string): CourseToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

/** A Tool whose execute never settles until `release` is called. */
function pendingTool() {
  const releases: Array<(value: unknown) => void> = [];
  const execute = (input: unknown) => new Promise((resolve) => releases.push(() => resolve(input)));
  return { releases, execute };
}

// ---------------------------------------------------------------------------
// The seed fragment and the failure experiment

describe("argument validation before effects (the checkpoint's seed)", () => {
  test("argument validation runs before effects and preserves validation details", async () => {
    const execute = vi.fn(async () => ({ unreachable: true }));
    const registry = new ToolRegistry([
      defineTool({
        name: "add",
        description: "Add numbers.",
        validate: () => ({ ok: false, error: "left must be a number" }),
        execute,
      }),
    ]);

    await expect(
      executeToolCall(
        registry,
        call("add", { left: "twenty", right: 22 }, "call-invalid-add"),
        new AbortController().signal,
      ),
    ).resolves.toMatchObject({
      toolCallId: "call-invalid-add",
      toolName: "add",
      isError: true,
      content: '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"left must be a number"}}',
    });
    expect(execute).not.toHaveBeenCalled();
  });

  function experiment(validate: () => CourseToolValidation<unknown>) {
    const execute = vi.fn(async () => ({ unreachable: true }));
    const registry = new ToolRegistry([
      defineTool({ name: "add", description: "Add numbers.", validate, execute }),
    ]);
    const args = { left: "twenty", right: 22 };
    return {
      execute,
      pending: executeToolCall(registry, call("add", args, "call-invalid-add"), live()),
    };
  }

  test("failure experiment, rejecting side: TOOL_ARGUMENTS_INVALID linked to call-invalid-add, zero executions", async () => {
    const { execute, pending } = experiment(() => ({ ok: false, error: "left must be a number" }));
    expect(await pending).toEqual({
      id: "tool-result-call-invalid-add",
      role: "toolResult",
      toolCallId: "call-invalid-add",
      toolName: "add",
      content: errorContent("TOOL_ARGUMENTS_INVALID", "left must be a number"),
      isError: true,
    });
    expect(execute).toHaveBeenCalledTimes(0);
  });

  test("failure experiment, accepting side: the spy runs once with the validated value and succeeds", async () => {
    const { execute, pending } = experiment(() => ({ ok: true, value: { left: 20, right: 22 } }));
    expect(await pending).toEqual({
      id: "tool-result-call-invalid-add",
      role: "toolResult",
      toolCallId: "call-invalid-add",
      toolName: "add",
      content: '{"unreachable":true}',
      isError: false,
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute).toHaveBeenCalledWith({ left: 20, right: 22 }, expect.anything());
  });
});

describe("the focused command", () => {
  test("test:course:checkpoint is plain `vitest run`, and its filter selects only this file", () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    );
    expect(manifest.scripts["test:course:checkpoint"]).toBe("vitest run");
    // Vitest keeps the files whose path contains the filter.
    const filter = "course/test/06-tool-contract.test.ts";
    const files = readdirSync(new URL(".", import.meta.url)).map(
      (file: string) => `course/test/${file}`,
    );
    expect(files.length).toBeGreaterThan(1);
    expect(files.filter((file: string) => file.includes(filter))).toEqual([filter]);
  });
});

describe("contract constants", () => {
  test.each([
    ["OUTPUT_CAP_CHARACTERS", COURSE_TOOL_OUTPUT_CAP_CHARACTERS, 4096],
    ["TRUNCATION_MARKER", COURSE_TOOL_TRUNCATION_MARKER, "\n[Tool output truncated]"],
    ["SERIALIZATION_MAX_DEPTH", COURSE_TOOL_SERIALIZATION_MAX_DEPTH, 32],
    ["SERIALIZATION_MAX_NODES", COURSE_TOOL_SERIALIZATION_MAX_NODES, 128],
    ["SERIALIZATION_MAX_COLLECTION_ENTRIES", COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES, 256],
    ["SERIALIZATION_MAX_STRING_CHARACTERS", COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS, 4096],
    ["SERIALIZATION_MAX_BIGINT_BITS", COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS, 4096],
  ])("COURSE_TOOL_%s is %j", (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

// ---------------------------------------------------------------------------
// defineTool

const FIELDS = ["name", "description", "validate", "execute"] as const;
type Field = (typeof FIELDS)[number];
const definitionFields = (): Record<Field, unknown> => ({
  name: "echo",
  description: "Echo.",
  validate: accept,
  execute: async () => "done",
});

describe("defineTool", () => {
  test("reads the four own fields once each, in the order name, description, validate, execute", () => {
    const reads: string[] = [];
    const values = definitionFields();
    const definition = {};
    for (const field of FIELDS) {
      Object.defineProperty(definition, field, {
        enumerable: true,
        get: () => {
          reads.push(field);
          return values[field];
        },
      });
    }
    defineTool(definition as CourseTool);
    expect(reads).toEqual(["name", "description", "validate", "execute"]);
  });

  test("returns a frozen definition with exactly the four fields", () => {
    const tool = defineTool(definitionFields() as CourseTool);
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.keys(tool)).toEqual(["name", "description", "validate", "execute"]);
    expect([tool.name, tool.description]).toEqual(["echo", "Echo."]);
    expect(thrownBy(() => Object.assign(tool, { name: "renamed" }))).toBeInstanceOf(TypeError);
  });

  test.each(FIELDS)("rejects an inherited %s without running the inherited getter", (field) => {
    let inheritedReads = 0;
    const values = definitionFields();
    const proto = {};
    Object.defineProperty(proto, field, {
      get: () => {
        inheritedReads += 1;
        return values[field];
      },
    });
    const definition = Object.create(proto);
    for (const other of FIELDS) if (other !== field) definition[other] = values[other];
    expectContractError(
      thrownBy(() => defineTool(definition)),
      "INVALID_TOOL_DEFINITION",
    );
    expect(inheritedReads).toBe(0);
  });

  test.each([
    ["a missing own name", { name: undefined }],
    ["a blank name", { name: " \t\n" }],
    ["a blank description", { description: "" }],
    ["a non-function validator", { validate: { ok: true } }],
    ["a non-function executor", { execute: "run" }],
  ])("rejects %s with INVALID_TOOL_DEFINITION", (label, override) => {
    const definition: Record<string, unknown> = { ...definitionFields(), ...override };
    if (label.includes("missing")) delete definition.name;
    expectContractError(
      thrownBy(() => defineTool(definition as CourseTool)),
      "INVALID_TOOL_DEFINITION",
    );
  });

  test("wraps a throwing getter in INVALID_TOOL_DEFINITION with the thrown value as cause", () => {
    const thrown = new Error("getter exploded");
    const definition = definitionFields();
    Object.defineProperty(definition, "validate", {
      get: () => {
        throw thrown;
      },
    });
    const error = expectContractError(
      thrownBy(() => defineTool(definition as CourseTool)),
      "INVALID_TOOL_DEFINITION",
    );
    expect(error.cause).toBe(thrown);
  });

  test("later mutation of the caller's object cannot rename the Tool or replace its functions", async () => {
    const calls: string[] = [];
    const definition = {
      name: "original",
      description: "Original.",
      validate: (input: unknown) => noting(calls, "original validate", accept(input)),
      execute: async () => noting(calls, "original execute", "original"),
    };
    const registry = new ToolRegistry([defineTool(definition)]);
    definition.name = "hijacked";
    definition.validate = (input) => noting(calls, "hijacked validate", accept(input));
    definition.execute = async () => noting(calls, "hijacked execute", "hijacked");
    expect(registry.names).toEqual(["original"]);
    const result = await executeToolCall(registry, call("original", {}, "call-1"), live());
    expect(result.content).toBe('"original"');
    expect(calls).toEqual(["original validate", "original execute"]);
  });

  test("its wrappers call the captured originals with `this` undefined, whatever the receiver", async () => {
    const receivers: unknown[] = [];
    const tool = defineTool({
      name: "probe",
      description: "Records its receiver.",
      validate(this: unknown, input: unknown) {
        receivers.push(this);
        return accept(input);
      },
      async execute(this: unknown) {
        receivers.push(this);
        return null;
      },
    });
    const stranger = { stranger: true };
    Reflect.apply(tool.validate, stranger, [{}]);
    await Reflect.apply(tool.execute, stranger, [{}, { signal: live(), toolCallId: "c" }]);
    expect(receivers).toEqual([undefined, undefined]);
  });

  test("an already-defined Tool is reused as the same object by defineTool, register and registerMany", () => {
    const tool = toolOf("shared");
    expect(defineTool(tool)).toBe(tool);
    const one = new ToolRegistry();
    one.register(tool);
    const many = new ToolRegistry();
    many.registerMany([tool]);
    expect(one.get("shared")).toBe(tool);
    expect(many.get("shared")).toBe(tool);
  });
});

// ---------------------------------------------------------------------------
// ToolContractError

describe("ToolContractError", () => {
  test("is a frozen Error with its name and code; assigning code or message throws", () => {
    const cause = new Error("why");
    const error = new ToolContractError("INVALID_TOOL_CALL", "bad call", { cause });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.message]).toEqual([
      "ToolContractError",
      "INVALID_TOOL_CALL",
      "bad call",
    ]);
    expect(error.cause).toBe(cause);
    expect(Object.isFrozen(error)).toBe(true);
    const assignCode = () => Object.assign(error, { code: "DUPLICATE_TOOL_NAME" });
    expect(thrownBy(assignCode)).toBeInstanceOf(TypeError);
    expect(thrownBy(() => Object.assign(error, { message: "other" }))).toBeInstanceOf(TypeError);
    expect(Object.keys(error)).toEqual(["code"]); // name is own but not enumerable
    expect(Object.getOwnPropertyDescriptor(error, "name")?.enumerable).toBe(false);
  });

  test("refuses a code outside the four contract codes", () => {
    const unknownCode = () => new ToolContractError("NOT_A_CODE" as never, "x");
    expect(thrownBy(unknownCode)).toBeInstanceOf(TypeError);
  });

  test("a user-made or replayed ToolContractError thrown at a definition boundary is wrapped, never rethrown", () => {
    const userMade = new ToolContractError("DUPLICATE_TOOL_NAME", "forged by the user");
    const replay = expectContractError(
      thrownBy(() => defineTool({} as CourseTool)),
      "INVALID_TOOL_DEFINITION",
    );
    for (const thrown of [userMade, replay]) {
      const definition = definitionFields();
      Object.defineProperty(definition, "description", {
        get: () => {
          throw thrown;
        },
      });
      const error = expectContractError(
        thrownBy(() => defineTool(definition as CourseTool)),
        "INVALID_TOOL_DEFINITION",
      );
      expect(error).not.toBe(thrown);
      expect(error.cause).toBe(thrown);
    }
  });

  test("a user-made or replayed ToolContractError thrown by execute becomes TOOL_EXECUTION_FAILED", async () => {
    const userMade = new ToolContractError("INVALID_TOOL_CALL", "forged by the Tool");
    const replay = expectContractError(
      await rejectionOf(executeToolCall(new ToolRegistry(), null as never, live())),
      "INVALID_TOOL_CALL",
    );
    for (const thrown of [userMade, replay]) {
      const result = await resultFor(async () => {
        throw thrown;
      });
      expect(result.isError).toBe(true);
      expect(result.content).toBe(errorContent("TOOL_EXECUTION_FAILED", thrown.message));
    }
  });
});

// ---------------------------------------------------------------------------
// ToolRegistry

describe("ToolRegistry", () => {
  test("starts empty by default", () => {
    const registry = new ToolRegistry();
    expect([registry.size, registry.names]).toEqual([0, []]);
  });

  test("register adds one Tool; the same name again is DUPLICATE_TOOL_NAME and changes nothing", () => {
    const registry = new ToolRegistry([toolOf("alpha")]);
    registry.register(toolOf("beta"));
    const error = expectContractError(
      thrownBy(() => registry.register(toolOf("beta"))),
      "DUPLICATE_TOOL_NAME",
    );
    expect(error.message).toBe('Tool name "beta" is already registered');
    expect([registry.size, registry.names]).toEqual([2, ["alpha", "beta"]]);
  });

  const hostileDefinition = () => {
    const hostile = definitionFields();
    Object.defineProperty(hostile, "name", {
      get: () => {
        throw new Error("no name for you");
      },
    });
    return hostile;
  };
  const sparse = () => {
    const batch: unknown[] = new Array(3);
    batch[0] = toolOf("fresh");
    batch[2] = toolOf("later");
    return batch;
  };

  test.each([
    [
      "a hostile second definition",
      () => [toolOf("fresh"), hostileDefinition()],
      "INVALID_TOOL_DEFINITION",
    ],
    ["a hole", sparse, "INVALID_TOOL_BATCH"],
    [
      "a duplicate inside the batch",
      () => [toolOf("fresh"), toolOf("fresh")],
      "DUPLICATE_TOOL_NAME",
    ],
    [
      "a duplicate against the registry",
      () => [toolOf("fresh"), toolOf("existing")],
      "DUPLICATE_TOOL_NAME",
    ],
    ["a null entry", () => [toolOf("fresh"), null], "INVALID_TOOL_DEFINITION"],
  ] as const)(
    "registerMany with %s throws and leaves names and size unchanged",
    (_label, batch, code) => {
      const registry = new ToolRegistry([toolOf("existing")]);
      expectContractError(
        thrownBy(() => registry.registerMany(batch() as never)),
        code,
      );
      expect([registry.size, registry.names]).toEqual([1, ["existing"]]);
      expect(registry.get("fresh")).toBeUndefined();
    },
  );

  test("registerMany reads the batch by index, never through its iterator or methods", () => {
    const used: string[] = [];
    const batch = [toolOf("one"), toolOf("two")];
    for (const method of ["map", "forEach", "slice", "entries", "values", Symbol.iterator]) {
      Object.defineProperty(batch, method, {
        value: () => {
          used.push(String(method));
          return [][Symbol.iterator]();
        },
      });
    }
    const registry = new ToolRegistry();
    registry.registerMany(batch);
    expect(used).toEqual([]);
    expect(registry.names).toEqual(["one", "two"]);
  });

  test("names is a new frozen array in insertion order on every read", () => {
    const registry = new ToolRegistry([toolOf("zeta"), toolOf("alpha")]);
    registry.register(toolOf("mid"));
    const names = registry.names;
    expect(names).toEqual(["zeta", "alpha", "mid"]);
    expect(Object.isFrozen(names)).toBe(true);
    expect(registry.names).not.toBe(names);
    expect(thrownBy(() => (names as string[]).push("intruder"))).toBeInstanceOf(TypeError);
  });

  test("get returns the frozen snapshot, which registers elsewhere as the same object", () => {
    const registry = new ToolRegistry([toolOf("echo")]);
    const tool = registry.get("echo");
    expect(Object.isFrozen(tool)).toBe(true);
    expect(registry.get("missing")).toBeUndefined();
    const elsewhere = new ToolRegistry([tool as RegisteredCourseTool]);
    expect(elsewhere.get("echo")).toBe(tool);
  });

  test("snapshot() has the same members and frozen Tools, and is independent afterwards both ways", () => {
    const registry = new ToolRegistry([toolOf("a"), toolOf("b")]);
    const copy = registry.snapshot();
    expect(copy).toBeInstanceOf(ToolRegistry);
    expect(copy).not.toBe(registry);
    expect(copy.get("a")).toBe(registry.get("a"));
    expect(copy.get("b")).toBe(registry.get("b"));
    registry.register(toolOf("later-in-original"));
    copy.register(toolOf("later-in-copy"));
    expect(registry.names).toEqual(["a", "b", "later-in-original"]);
    expect(copy.names).toEqual(["a", "b", "later-in-copy"]);
  });
});

// ---------------------------------------------------------------------------
// executeToolCall, step by step

describe("executeToolCall steps 1-3: cancellation, call snapshot, lookup", () => {
  test("never throws synchronously, even with nothing valid", async () => {
    let promise: Promise<unknown> = Promise.resolve();
    expect(() => {
      promise = executeToolCall(null as never, null as never, null as never);
    }).not.toThrow();
    expectContractError(await rejectionOf(promise), "INVALID_TOOL_CALL");
  });

  test("a cancelled signal rejects with the same reason before reading the call or validating", async () => {
    const controller = new AbortController();
    const reason = { why: "user pressed stop" };
    controller.abort(reason);
    let reads = 0;
    const validate = vi.fn(accept);
    const registry = new ToolRegistry([toolOf("echo", { validate })]);
    const hostileCall = {
      type: "toolCall" as const,
      name: "echo",
      arguments: {},
      get id() {
        reads += 1;
        return "call-1";
      },
    };
    const run = (target: unknown) =>
      executeToolCall(target as never, hostileCall, controller.signal);
    expect(await rejectionOf(run(registry))).toBe(reason);
    // Step 1 comes first: it wins over a registry that is not one.
    expect(await rejectionOf(run(null))).toBe(reason);
    expect(reads).toBe(0);
    expect(validate).not.toHaveBeenCalled();
  });

  test("a plain abort() rejects with the signal's own DOMException AbortError", async () => {
    const controller = new AbortController();
    controller.abort();
    const reason = await rejectionOf(runWith({}, {}, controller.signal));
    expect(reason).toBe(controller.signal.reason);
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe("AbortError");
  });

  test("a malformed call is INVALID_TOOL_CALL and never validates", async () => {
    const validate = vi.fn(accept);
    const registry = new ToolRegistry([toolOf("echo", { validate })]);
    const malformed = { type: "toolCall", id: " ", name: "echo", arguments: {} };
    expectContractError(
      await rejectionOf(executeToolCall(registry, malformed as never, live())),
      "INVALID_TOOL_CALL",
    );
    expect(validate).not.toHaveBeenCalled();
  });

  test("own getters on call fields and arguments run exactly once; a throwing one is INVALID_TOOL_CALL with the throw as cause", async () => {
    const reads: string[] = [];
    const args = {};
    Object.defineProperty(args, "left", {
      enumerable: true,
      get: () => noting(reads, "left", 1),
    });
    const counted = { type: "toolCall", name: "echo", arguments: args };
    Object.defineProperty(counted, "id", { get: () => noting(reads, "id", "call-getters") });
    const registry = new ToolRegistry([toolOf("echo")]);
    expect((await executeToolCall(registry, counted as never, live())).content).toBe('{"left":1}');
    expect(reads).toEqual(["id", "left"]);

    const thrown = new Error("getter exploded");
    const exploding = { type: "toolCall", id: "c", arguments: {} };
    Object.defineProperty(exploding, "name", {
      get: () => {
        throw thrown;
      },
    });
    const error = expectContractError(
      await rejectionOf(executeToolCall(registry, exploding as never, live())),
      "INVALID_TOOL_CALL",
    );
    expect(error.cause).toBe(thrown);
  });

  test("an unknown Tool resolves with a frozen linked TOOL_NOT_FOUND result and leaves the registry alone", async () => {
    const registry = new ToolRegistry([toolOf("echo")]);
    const unknown = call("rm -rf", { path: "/" }, "call-unknown");
    const result = await executeToolCall(registry, unknown, live());
    expect(result).toEqual({
      id: "tool-result-call-unknown",
      role: "toolResult",
      toolCallId: "call-unknown",
      toolName: "rm -rf",
      content: '{"error":{"code":"TOOL_NOT_FOUND","message":"Unknown Tool \\"rm -rf\\""}}',
      isError: true,
    });
    expect(Object.isFrozen(result)).toBe(true);
    expect([registry.size, registry.names]).toEqual([1, ["echo"]]);
  });
});

describe("executeToolCall step 4: synchronous validation", () => {
  test("the validator runs synchronously, inside executeToolCall, before execute", async () => {
    const order: string[] = [];
    const pending = runWith({
      validate: (input) => noting(order, "validate", accept(input)),
      execute: async () => noting(order, "execute", null),
    });
    order.push("returned");
    await pending;
    expect(order[0]).toBe("validate");
    expect(order.indexOf("validate")).toBeLessThan(order.indexOf("returned"));
    expect(order.indexOf("validate")).toBeLessThan(order.indexOf("execute"));
  });

  test("a validator's error text is the TOOL_ARGUMENTS_INVALID message verbatim, escaped by the serializer", async () => {
    const result = await runWith({ validate: () => ({ ok: false, error: 'bad "left"\n' }) });
    expect(result.content).toBe(
      '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"bad \\"left\\"\\u000a"}}',
    );
  });

  test("a validator returning a rejected Promise is TOOL_VALIDATION_FAILED, its rejection observed", async () => {
    const execute = vi.fn(async () => null);
    const result = await runWith({ validate: () => Promise.reject(new Error("later")), execute });
    expect(result.content).toBe(errorContent("TOOL_VALIDATION_FAILED", ASYNC_VALIDATOR));
    expect(execute).not.toHaveBeenCalled();
  });

  test("a thenable whose `then` getter throws: read once, TOOL_VALIDATION_FAILED, no execution", async () => {
    let reads = 0;
    const decision = withThen(
      {},
      {
        get: () => {
          reads += 1;
          throw new Error("then exploded");
        },
      },
    );
    const execute = vi.fn(async () => null);
    const result = await runWith({ validate: () => decision, execute });
    expect(result.content).toBe(errorContent("TOOL_VALIDATION_FAILED", "then exploded"));
    expect(reads).toBe(1);
    expect(execute).not.toHaveBeenCalled();
  });

  test.each([
    ["null", null],
    ["ok without value", { ok: true }],
    ["a blank error", { ok: false, error: "  " }],
    ["inherited fields", Object.create({ ok: true, value: 1 })],
  ])(
    "a malformed decision (%s) is TOOL_VALIDATION_FAILED with the fixed message",
    async (_label, decision) => {
      const execute = vi.fn(async () => null);
      const result = await runWith({ validate: () => decision, execute });
      expect(result.content).toBe(errorContent("TOOL_VALIDATION_FAILED", MALFORMED_DECISION));
      expect(execute).not.toHaveBeenCalled();
    },
  );

  test("a validator that throws is TOOL_VALIDATION_FAILED with the thrown message", async () => {
    const result = await runWith({
      validate: () => {
        throw new Error("validator broke");
      },
    });
    expect(result.content).toBe(errorContent("TOOL_VALIDATION_FAILED", "validator broke"));
  });
});

describe("executeToolCall steps 5-7: execution, output, success", () => {
  test("execute receives the validated value and a frozen { signal, toolCallId } with the same signal", async () => {
    const validated = { left: 20, right: 22 };
    let seen: { input: unknown; context: CourseToolExecutionContext } | undefined;
    const signal = live();
    const result = await runWith(
      {
        validate: () => ({ ok: true, value: validated }),
        execute: async (input, context) => {
          seen = { input, context };
          return 42;
        },
      },
      { left: "20" },
      signal,
    );
    expect(seen?.input).toBe(validated);
    expect(Object.keys(seen?.context ?? {})).toEqual(["signal", "toolCallId"]);
    expect(seen?.context.signal).toBe(signal);
    expect(seen?.context.toolCallId).toBe("call-1");
    expect(Object.isFrozen(seen?.context)).toBe(true);
    expect(result.content).toBe("42");
  });

  test.each([
    ["throws synchronously", throwing(new Error("sync failure")), "sync failure"],
    ["rejects", () => Promise.reject(new Error("async failure")), "async failure"],
    ["rejects with a string", () => Promise.reject("string failure"), "string failure"],
    ["rejects with undefined", () => Promise.reject(undefined), "Tool execution failed"],
  ])(
    "a Tool that %s becomes a frozen linked TOOL_EXECUTION_FAILED result",
    async (_label, execute, message) => {
      const result = await resultFor(execute);
      expect(result).toEqual({
        id: "tool-result-call-1",
        role: "toolResult",
        toolCallId: "call-1",
        toolName: "tool",
        content: errorContent("TOOL_EXECUTION_FAILED", message),
        isError: true,
      });
      expect(Object.isFrozen(result)).toBe(true);
    },
  );

  test.each([
    ["a Date", () => new Date(0), "$: Date objects are not supported"],
    ["a nested Date", () => ({ d: new Date(0) }), "$.d: Date objects are not supported"],
    [
      "a Map in a list",
      () => ({ items: [1, 2, 3, new Map()] }),
      "$.items[3]: Map objects are not supported",
    ],
    [
      "a class instance",
      () => new (class Account {})(),
      "$: objects with a custom prototype (class instances) are not supported",
    ],
  ])(
    "unsafe output (%s) becomes TOOL_OUTPUT_SERIALIZATION_FAILED naming the path",
    async (_label, output, message) => {
      const result = await resultFor(async () => output());
      expect(result.isError).toBe(true);
      expect(result.content).toBe(errorContent("TOOL_OUTPUT_SERIALIZATION_FAILED", message));
    },
  );

  test("success is a frozen result, keys in contract order, isError false, the serialized output", async () => {
    const registry = new ToolRegistry([toolOf("echo")]);
    const result = await executeToolCall(
      registry,
      call("echo", { b: [true, null], a: "x" }, "call-α/1"),
      live(),
    );
    expect(Object.keys(result)).toEqual([
      "id",
      "role",
      "toolCallId",
      "toolName",
      "content",
      "isError",
    ]);
    expect(result).toEqual({
      id: "tool-result-call-α/1",
      role: "toolResult",
      toolCallId: "call-α/1",
      toolName: "echo",
      content: '{"a":"x","b":[true,null]}',
      isError: false,
    });
    expect(Object.isFrozen(result)).toBe(true);
  });

  test("a successful execution settles within one macrotask turn after the Tool resolves", async () => {
    const { releases, execute } = pendingTool();
    let settled = false;
    const pending = runWith({ execute }, { done: true }).then((result) => {
      settled = true;
      return result;
    });
    await nextTurn();
    expect(settled).toBe(false);
    releases[0]?.(undefined);
    await nextTurn();
    expect(settled).toBe(true);
    expect((await pending).content).toBe('{"done":true}');
  });
});

// ---------------------------------------------------------------------------
// Cancellation at every point

describe("cancellation", () => {
  test("before validation: a call getter that aborts rejects with the reason and nothing validates", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped while reading the call");
    const validate = vi.fn(accept);
    const hostileCall = {
      type: "toolCall" as const,
      id: "c",
      get name() {
        controller.abort(reason);
        return "echo";
      },
      arguments: {},
    };
    const registry = new ToolRegistry([toolOf("echo", { validate })]);
    expect(await rejectionOf(executeToolCall(registry, hostileCall, controller.signal))).toBe(
      reason,
    );
    expect(validate).not.toHaveBeenCalled();
  });

  test("a getter that aborts and then throws: the cancellation wins over INVALID_TOOL_CALL", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped");
    const hostileCall = {
      type: "toolCall" as const,
      id: "c",
      name: "echo",
      get arguments(): CourseJsonObject {
        controller.abort(reason);
        throw new Error("and exploded");
      },
    };
    const registry = new ToolRegistry([toolOf("echo")]);
    expect(await rejectionOf(executeToolCall(registry, hostileCall, controller.signal))).toBe(
      reason,
    );
  });

  test("after validation, before effects: a validator that aborts keeps execute from running", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped during validation");
    const execute = vi.fn(async () => "effect");
    const validate = (input: unknown) => {
      controller.abort(reason);
      return accept(input);
    };
    expect(await rejectionOf(runWith({ validate, execute }, {}, controller.signal))).toBe(reason);
    expect(execute).not.toHaveBeenCalled();
  });

  test("while a rejected decision is inspected: an `error` getter that aborts wins over TOOL_ARGUMENTS_INVALID", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped while reading the decision");
    const decision = {
      ok: false,
      get error() {
        controller.abort(reason);
        return "left must be a number";
      },
    };
    expect(await rejectionOf(runWith({ validate: () => decision }, {}, controller.signal))).toBe(
      reason,
    );
  });

  test("while awaiting execution: rejects with the reason, the Tool's late rejection is observed, the listener removed", async () => {
    const controller = new AbortController();
    const reason = { why: "user pressed stop" };
    let fail: (error: unknown) => void = () => {};
    let seenSignal: AbortSignal | undefined;
    const execute = (_input: unknown, context: CourseToolExecutionContext) => {
      seenSignal = context.signal;
      return new Promise((_resolve, reject) => (fail = reject));
    };
    const pending = runWith({ execute }, {}, controller.signal);
    await nextTurn();
    controller.abort(reason);
    expect(await rejectionOf(pending)).toBe(reason);
    expect(seenSignal?.aborted).toBe(true);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    fail(new Error("the Tool gave up late")); // must not escape as an unhandled rejection
    await nextTurn();
  });

  test("abort and reject in the same turn: the reason wins and no unhandled rejection escapes", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const execute = async () => {
      controller.abort(reason);
      throw new Error("rejected in the same turn");
    };
    expect(await rejectionOf(runWith({ execute }, {}, controller.signal))).toBe(reason);
  });

  test("after the Tool resolves: an abort that no listener saw still wins over the output", async () => {
    const controller = blindedController();
    const reason = new Error("stopped as the Tool finished");
    const { releases, execute } = pendingTool();
    const pending = runWith({ execute }, { late: "output" }, controller.signal);
    await nextTurn();
    controller.abort(reason);
    releases[0]?.(undefined);
    expect(await rejectionOf(pending)).toBe(reason);
  });

  test("an overridden addEventListener/removeEventListener on the signal is never called", async () => {
    const controller = new AbortController();
    const overridden: string[] = [];
    for (const method of ["addEventListener", "removeEventListener"]) {
      Object.defineProperty(controller.signal, method, { value: () => overridden.push(method) });
    }
    const { releases, execute } = pendingTool();
    const pending = runWith({ execute }, { x: 1 }, controller.signal);
    await nextTurn();
    releases[0]?.(undefined);
    expect((await pending).content).toBe('{"x":1}');
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(overridden).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// NonRecoverableToolError and its provenance

/** A native error dressed by hand as a NonRecoverableToolError, one step optionally skipped. */
function handBuilt(skip?: string): Error {
  const error = new Error("hand-built");
  const own = (key: PropertyKey, value: unknown, enumerable = false) =>
    Object.defineProperty(error, key, { value, enumerable });
  if (skip !== "name") own("name", "NonRecoverableToolError");
  if (skip !== "code") own("code", "NON_RECOVERABLE_TOOL_ERROR");
  if (skip !== "nonRecoverable") own("nonRecoverable", true);
  if (skip !== "brand") own(BRAND, true, skip === "enumerable brand");
  return skip === "freeze" ? error : Object.freeze(error);
}

type Provenance = {
  version: number;
  register(value: unknown): boolean;
  isRegistered(value: unknown): boolean;
};
const provenance = () =>
  (globalThis as unknown as Record<symbol, Provenance>)[PROVENANCE] as Provenance;

const fatal = new NonRecoverableToolError("invariant broken");
class LedgerCorrupted extends NonRecoverableToolError {}
const fatalSub = new LedgerCorrupted("ledger corrupted");

describe("NonRecoverableToolError", () => {
  test("is a frozen Error with name, code, nonRecoverable and a non-enumerable own brand", () => {
    const error = new NonRecoverableToolError("ledger checksum mismatch", { cause: "why" });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.nonRecoverable, error.message, error.cause]).toEqual([
      "NonRecoverableToolError",
      "NON_RECOVERABLE_TOOL_ERROR",
      true,
      "ledger checksum mismatch",
      "why",
    ]);
    expect(Object.isFrozen(error)).toBe(true);
    expect(Object.keys(error).sort()).toEqual(["code", "nonRecoverable"]);
    expect(Object.getOwnPropertyDescriptor(error, "name")?.enumerable).toBe(false);
    const brand = Object.getOwnPropertyDescriptor(error, BRAND);
    expect(brand).toMatchObject({ value: true, enumerable: false });
    expect(Object.isFrozen(fatalSub)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(fatalSub, BRAND)?.value).toBe(true);
  });

  test("the shared registry is a locked globalThis property holding a frozen { version: 1, register, isRegistered }", () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, PROVENANCE);
    expect(descriptor).toMatchObject({ enumerable: false, writable: false, configurable: false });
    const registry = descriptor?.value as Provenance;
    expect(Object.isFrozen(registry)).toBe(true);
    expect(Object.getPrototypeOf(registry)).toBe(Object.prototype);
    const keys = Reflect.ownKeys(registry).map(String).sort();
    expect(keys).toEqual(["isRegistered", "register", "version"]);
    expect(registry.version).toBe(1);
    expect(registry.isRegistered(new NonRecoverableToolError("constructed"))).toBe(true);
    expect(registry.isRegistered(fatalSub)).toBe(true);
    expect(registry.isRegistered({ nonRecoverable: true })).toBe(false);
  });

  test("register accepts a genuine, frozen, branded native error with the right own fields", () => {
    const error = handBuilt();
    expect(provenance().isRegistered(error)).toBe(false);
    expect(provenance().register(error)).toBe(true);
    expect(provenance().isRegistered(error)).toBe(true);
  });

  const fieldsOnly = () => ({
    name: "NonRecoverableToolError",
    code: "NON_RECOVERABLE_TOOL_ERROR",
    nonRecoverable: true,
    message: "fields only",
  });

  test.each([
    ["a field-only object", fieldsOnly],
    [
      "Object.create of the prototype",
      () => Object.freeze(Object.create(NonRecoverableToolError.prototype)),
    ],
    ["an error without the name", () => handBuilt("name")],
    ["an error without the code", () => handBuilt("code")],
    ["an error without nonRecoverable", () => handBuilt("nonRecoverable")],
    ["an error without the brand", () => handBuilt("brand")],
    ["an error with an enumerable brand", () => handBuilt("enumerable brand")],
    ["an error that is not frozen", () => handBuilt("freeze")],
    ["a Proxy of a genuine error", () => new Proxy(new NonRecoverableToolError("real"), {})],
    ["a string", () => "NonRecoverableToolError"],
  ])("register refuses a forgery: %s", (_label, forge) => {
    const forged = forge();
    expect(provenance().register(forged)).toBe(false);
    expect(provenance().isRegistered(forged)).toBe(false);
  });

  const throwFatal = throwing(fatal);
  test.each([
    ["by validate", { validate: throwFatal }, fatal],
    ["by a synchronous execute", { execute: throwFatal }, fatal],
    ["by an async execute", { execute: async () => throwFatal() }, fatal],
    ["as a subclass instance", { execute: () => Promise.reject(fatalSub) }, fatalSub],
  ])(
    "a registered error thrown %s rejects the call with the same object",
    async (_label, parts, expected) => {
      expect(await rejectionOf(runWith(parts))).toBe(expected);
    },
  );

  test.each([
    ["a field-only look-alike", fieldsOnly, "fields only"],
    [
      "a prototype-only look-alike",
      () => Object.create(NonRecoverableToolError.prototype),
      "Tool execution failed",
    ],
    [
      "an error with a forged prototype",
      () => Object.setPrototypeOf(new Error("forged"), NonRecoverableToolError.prototype),
      "forged",
    ],
    ["a hand-built error never registered", () => handBuilt(), "hand-built"],
  ])("%s stays recoverable: TOOL_EXECUTION_FAILED", async (_label, lookAlike, message) => {
    const result = await resultFor(() => Promise.reject(lookAlike()));
    expect(result).toMatchObject({
      isError: true,
      content: errorContent("TOOL_EXECUTION_FAILED", message),
    });
  });

  test("when the cancellation already won, a registered error does not replace the reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop first");
    const execute = async () => {
      controller.abort(reason);
      throw new NonRecoverableToolError("too late");
    };
    expect(await rejectionOf(runWith({ execute }, {}, controller.signal))).toBe(reason);
  });
});

describe("module reloads", () => {
  test.each(["base class", "subclass"])(
    "a %s error from a reloaded copy rejects through the first copy, and the reverse holds",
    async (kind) => {
      vi.resetModules();
      const reloaded = await import("../src/tool.js");
      expect(reloaded.NonRecoverableToolError).not.toBe(NonRecoverableToolError);
      class ReloadedSub extends reloaded.NonRecoverableToolError {}
      const fromReloaded =
        kind === "subclass"
          ? new ReloadedSub("reloaded")
          : new reloaded.NonRecoverableToolError("reloaded");
      expect(Object.isFrozen(fromReloaded)).toBe(true);
      expect(await rejectionOf(resultFor(() => Promise.reject(fromReloaded)))).toBe(fromReloaded);

      const fromFirst = kind === "subclass" ? fatalSub : fatal;
      const tool = reloaded.defineTool({
        name: "fatal",
        description: "Fails hard.",
        validate: accept,
        execute: () => Promise.reject(fromFirst),
      });
      const pending = reloaded.executeToolCall(
        new reloaded.ToolRegistry([tool]),
        call("fatal", {}, "c"),
        live(),
      );
      expect(await rejectionOf(pending)).toBe(fromFirst);
    },
  );

  const inspected = { inspected: true };

  /**
   * Runs a call through a fresh Tool module whose serializer calls `after` once it has run
   * (the course path writes a call's output with `courseContent`).
   */
  async function runHooked(after: (value: unknown) => void, signal = live()) {
    vi.resetModules();
    vi.doMock("../src/serializer.js", async (importOriginal) => {
      const original = await importOriginal<typeof import("../src/serializer.js")>();
      const courseContent = (value: unknown) => {
        const serialized = original.courseContent(value);
        if (value === inspected) after(value);
        return serialized;
      };
      return { ...original, courseContent };
    });
    try {
      const hooked = await import("../src/tool.js");
      const tool = hooked.defineTool({
        name: "out",
        description: "Out.",
        validate: accept,
        execute: async () => inspected,
      });
      return hooked.executeToolCall(new hooked.ToolRegistry([tool]), call("out", {}, "c"), signal);
    } finally {
      vi.doUnmock("../src/serializer.js");
    }
  }

  test("after output inspection: an abort during serialization wins over the serialized result", async () => {
    const controller = blindedController(); // only the explicit check can see this abort
    const reason = new Error("stopped after inspection");
    expect(await rejectionOf(runHooked(() => controller.abort(reason), controller.signal))).toBe(
      reason,
    );
  });

  test("a registered error thrown during serialization rejects; any other throw is TOOL_OUTPUT_SERIALIZATION_FAILED", async () => {
    const thrownFatal = new NonRecoverableToolError("serializer invariant");
    const rejected = runHooked(() => {
      throw thrownFatal;
    });
    expect(await rejectionOf(rejected)).toBe(thrownFatal);
    const recovered = await runHooked(() => {
      throw new Error("defect");
    });
    expect(recovered.content).toBe(
      errorContent("TOOL_OUTPUT_SERIALIZATION_FAILED", "Tool output could not be serialized"),
    );
  });
});

// ---------------------------------------------------------------------------
// The serializer's value rules

describe("serializer value rules", () => {
  const hole: unknown[] = new Array(3);
  hole[0] = 1;
  hole[2] = 3;
  const accessorSlot: unknown[] = [1];
  Object.defineProperty(accessorSlot, 1, { enumerable: true, get: () => "never read" });
  const hidden = { shown: 1 };
  Object.defineProperty(hidden, "hidden", { value: 2, enumerable: false });
  Object.defineProperty(hidden, Symbol("key"), { value: 3, enumerable: true });
  const cyclic: Record<string, unknown> = { name: "loop" };
  cyclic.self = cyclic;
  const shared = { x: 1 };

  test.each([
    ["null", null, "null"],
    ["true", true, "true"],
    ["false", false, "false"],
    ["an integer", 42, "42"],
    ["-0", -0, "0"],
    ["a fraction", 1.5, "1.5"],
    ["a large number", 1e21, "1e+21"],
    ["NaN", Number.NaN, "null"],
    ["Infinity", Number.POSITIVE_INFINITY, "null"],
    ["-Infinity", Number.NEGATIVE_INFINITY, "null"],
    ["a top-level string", "hi", '"hi"'],
    ["quotes and backslashes", 'say "hi" \\ bye', '"say \\"hi\\" \\\\ bye"'],
    ["control characters", "\n\t\u0000\u001b\u001f", '"\\u000a\\u0009\\u0000\\u001b\\u001f"'],
    ["DEL and U+2028 raw", "\u007f\u2028", '"\u007f\u2028"'],
    ["a surrogate pair raw", "😀", '"😀"'],
    ["lone surrogates", "\ud800x\udc00", '"\\ud800x\\udc00"'],
    ["a reversed pair", "\udc00\ud800", '"\\udc00\\ud800"'],
    ["two low surrogates", "\udc00\udfff", '"\\udc00\\udfff"'],
    ["U+10000 and U+10FFFF raw", "\n\u{10000}\u{10ffff}", '"\\u000a\u{10000}\u{10ffff}"'],
    ["non-ASCII raw beside an escape", "\né\ue000\uffff", '"\\u000aé\ue000\uffff"'],
    ["a BigInt", BigInt("9007199254740993"), '"9007199254740993n"'],
    ["a negative BigInt", BigInt(-5), '"-5n"'],
    ["undefined", undefined, '"[Undefined]"'],
    ["a symbol", Symbol("s"), '"[Symbol]"'],
    ["a function", () => 1, '"[Function]"'],
    [
      "keys by plain comparison",
      { b: 1, a: 2, 10: 3, 2: 4, B: 5 },
      '{"10":3,"2":4,"B":5,"a":2,"b":1}',
    ],
    ["keys by code unit", { "\uffff": 1, "😀": 2 }, '{"😀":2,"\uffff":1}'],
    ["an escaped key", { "a\nb": 1 }, '{"a\\u000ab":1}'],
    [
      "a null-prototype object",
      Object.assign(Object.create(null), { z: 1, y: 2 }),
      '{"y":2,"z":1}',
    ],
    ["an array hole", hole, '[1,"[Empty]",3]'],
    ["an accessor array slot", accessorSlot, '[1,"[Accessor omitted]"]'],
    ["non-enumerable and symbol keys", hidden, '{"shown":1}'],
    ["a cycle", cyclic, '{"name":"loop","self":"[Circular]"}'],
    ["a shared reference, twice", { a: shared, b: [shared] }, '{"a":{"x":1},"b":[{"x":1}]}'],
    ["a shared sibling, twice", { a: shared, b: shared }, '{"a":{"x":1},"b":{"x":1}}'],
    ["__proto__ as an own key", JSON.parse('{"__proto__":{"x":1}}'), '{"__proto__":{"x":1}}'],
  ])("writes %s exactly", async (_label, value, content) => {
    expect(await contentFor(async () => value)).toBe(content);
  });

  test("never calls toJSON or runs a getter: a method is [Function], an accessor property is left out", async () => {
    let calls = 0;
    const output = {
      plain: 1,
      toJSON: () => (calls += 1),
      get secret() {
        calls += 1;
        return "leaked";
      },
    };
    expect(await contentFor(async () => output)).toBe('{"plain":1,"toJSON":"[Function]"}');
    expect(calls).toBe(0);
  });

  test("plain containers from another realm are accepted; a Date from there is still refused", async () => {
    const foreign = vm.runInNewContext('({ b: [1, { c: null }], a: "x", n: Object.create(null) })');
    expect(await contentFor(() => foreign)).toBe('{"a":"x","b":[1,{"c":null}],"n":{}}');
    const result = await resultFor(() => ({ when: vm.runInNewContext("new Date(0)") }));
    const message = "$.when: Date objects are not supported";
    expect(result.content).toBe(errorContent("TOOL_OUTPUT_SERIALIZATION_FAILED", message));
  });

  test("a Proxy in the output is refused before any trap runs", async () => {
    const { proxy, traps } = trapCounting({ secret: "behind a trap" });
    // Nested in a plain array, so promise resolution never asks the Proxy for `then` either.
    const nested = await resultFor(() => Promise.resolve().then(() => [proxy]));
    const message = "$[0]: Proxy objects are not supported";
    expect(nested.content).toBe(errorContent("TOOL_OUTPUT_SERIALIZATION_FAILED", message));
    // Returned directly by a non-async execute, it is not followed as a thenable.
    const direct = await resultFor(() => proxy);
    const atRoot = "$: Proxy objects are not supported";
    expect(direct.content).toBe(errorContent("TOOL_OUTPUT_SERIALIZATION_FAILED", atRoot));
    expect(traps).toEqual([]);
  });

  test("after output inspection: an abort raised by a Proxy prototype's getPrototypeOf trap makes the call reject with its reason", async () => {
    const controller = new AbortController();
    const reason = new Error("aborted while the output was inspected");
    const traps: string[] = [];
    const proto = new Proxy(Object.prototype, {
      getPrototypeOf(target) {
        traps.push("getPrototypeOf");
        controller.abort(reason);
        return Reflect.getPrototypeOf(target);
      },
      ownKeys(target) {
        traps.push("ownKeys");
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor(target, key) {
        traps.push("getOwnPropertyDescriptor");
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
    const output = Object.create(proto, {
      value: { value: 42, enumerable: true, writable: true, configurable: true },
    }) as { value: number };
    const execute = vi.fn(async () => output);
    expect(await rejectionOf(runWith({ execute }, {}, controller.signal))).toBe(reason);
    expect(execute).toHaveBeenCalledTimes(1);
    // The prototype's prototype is read once; nothing else of the Proxy runs.
    expect(traps).toEqual(["getPrototypeOf"]);
  });

  test("a Proxy prototype is refused after its one getPrototypeOf trap, with a message that says Proxy", async () => {
    let trapCalls = 0;
    const proto = new Proxy(Object.prototype, {
      getPrototypeOf(target) {
        trapCalls += 1;
        return Reflect.getPrototypeOf(target);
      },
    });
    const output = { nested: Object.create(proto) as object };
    const result = await resultFor(async () => output);
    const message = "$.nested: objects with a Proxy prototype are not supported";
    expect(result.content).toBe(errorContent("TOOL_OUTPUT_SERIALIZATION_FAILED", message));
    expect(trapCalls).toBe(1);
  });
});

// ---------------------------------------------------------------------------
// Budgets and the output cap

const emptySlots = (count: number) => Array(count).fill('"[Empty]"').join(",");

describe("budgets and the 4096-code-point cap", () => {
  test("content of exactly 4096 code points is kept; 4097 is cut to 4072 plus the marker, once", async () => {
    const exact = await contentFor(async () => "a".repeat(4094));
    expect(exact).toBe(`"${"a".repeat(4094)}"`);
    expect(codePoints(exact)).toBe(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    const over = await contentFor(async () => "a".repeat(4095));
    expect(over).toBe(`"${"a".repeat(4071)}${MARKER}`);
    expect(codePoints(over)).toBe(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(over.split(MARKER)).toHaveLength(2);
  });

  test("the cap counts code points, and truncation never splits a surrogate pair", async () => {
    const exact = await contentFor(async () => "😀".repeat(4094));
    expect(exact).toBe(`"${"😀".repeat(4094)}"`);
    const cut = await contentFor(async () => "😀".repeat(5000));
    expect(cut).toBe(`"${"😀".repeat(4071)}${MARKER}`);
    expect(codePoints(cut)).toBe(4096);
    expect(/\p{Cs}/u.test(cut)).toBe(false); // no lone surrogate
  });

  test.each([
    ["newlines", "\n".repeat(1000), "\\u000a".repeat(1000)],
    ["quotes", '"'.repeat(3000), '\\"'.repeat(3000)],
    ["lone surrogates", "\ud800".repeat(1000), "\\ud800".repeat(1000)],
  ])("escaped %s count toward the cap as written", async (_label, text, escaped) => {
    expect(await contentFor(async () => text)).toBe(`"${escaped}`.slice(0, 4072) + MARKER);
  });

  test.each([
    ["a", 4088, false],
    ["a", 4089, true],
    ["😀", 4088, false],
    ["😀", 4089, true],
  ])("after one escape, %s repeated %i times is truncated: %s", async (unit, count, truncated) => {
    const written = `"\\u000a${unit.repeat(count)}"`;
    const content = await contentFor(async () => `\n${unit.repeat(count)}`);
    expect(content).toBe(truncated ? [...written].slice(0, 4072).join("") + MARKER : written);
  });

  test.each(["\u{10000}", "\u{10ffff}"])("truncation keeps %s pairs whole", async (unit) => {
    const content = await contentFor(async () => unit.repeat(5000));
    expect(content).toBe(`"${unit.repeat(4071)}${MARKER}`);
  });

  test("a Tool cannot forge the marker: its own copy is escaped, and the real one appears once", async () => {
    const content = await contentFor(async () => ["x".repeat(5000), MARKER]);
    expect(content.endsWith(MARKER)).toBe(true);
    expect(content.split(MARKER)).toHaveLength(2);
    expect(await contentFor(async () => MARKER)).toBe('"\\u000a[Tool output truncated]"');
  });

  test("an 8-million-character string costs only the budget: a quote, 4071 characters, the marker", async () => {
    expect(await contentFor(async () => "z".repeat(8_000_000))).toBe(
      `"${"z".repeat(4071)}${MARKER}`,
    );
  });

  test.each([
    [32, "[".repeat(32) + "]".repeat(32)],
    [33, "[".repeat(32) + MARKER],
  ])("depth: %i nested arrays are written as %j", async (depth, content) => {
    expect(await contentFor(async () => nestedArrays(depth))).toBe(content);
  });

  test("a 100,000-deep chain stops at depth 32", async () => {
    expect(await contentFor(async () => chain(100_000))).toBe(`${'{"next":'.repeat(32)}${MARKER}`);
  });

  test.each([
    [127, `[${Array(127).fill("0").join(",")}]`],
    [128, `[${"0,".repeat(127)}${MARKER}`],
  ])("nodes: an array of %i zeros (with the root) is written as %j", async (length, content) => {
    expect(await contentFor(async () => new Array(length).fill(0))).toBe(content);
  });

  test.each([
    [256, `[${emptySlots(256)}]`],
    [257, `[${emptySlots(256)}${MARKER}`],
  ])(
    "collection visits: %i holes (visits, not nodes) are written as %j",
    async (length, content) => {
      expect(await contentFor(async () => holes(length))).toBe(content);
    },
  );

  test("collection visits are summed over the whole output, accessor keys included", async () => {
    // Two slots of the outer array plus 200 plus 54 is exactly 256.
    const within = await contentFor(async () => [holes(200), holes(54)]);
    expect(within).toBe(`[[${emptySlots(200)}],[${emptySlots(54)}]]`);
    const over = await contentFor(async () => [holes(200), holes(55)]);
    expect(over).toBe(`[[${emptySlots(200)}],[${emptySlots(54)}${MARKER}`);
    let reads = 0;
    const accessors = {};
    for (let index = 0; index < 257; index += 1) {
      const get = () => {
        reads += 1;
        return index;
      };
      Object.defineProperty(accessors, `k${index}`, { enumerable: true, get });
    }
    expect(await contentFor(async () => accessors)).toBe(`{${MARKER}`);
    expect(reads).toBe(0);
  });

  test("a 250,000-key object yields `{` and the marker: keys are enumerated before any entry is written", async () => {
    const wide: Record<string, number> = {};
    for (let index = 0; index < 250_000; index += 1) wide[`key${index}`] = index;
    expect(await contentFor(async () => wide)).toBe(`{${MARKER}`);
  });

  test("collection visits are own-key checks: {} from a realm with 250,000 inherited enumerable keys makes exactly 256 Object.hasOwn calls with it", async () => {
    const realm = vm.createContext({});
    const output = vm.runInContext(
      "for (let i = 0; i < 250000; i += 1) Object.prototype['inherited' + i] = i; ({})",
      realm,
    ) as object;
    const hasOwn = vi.spyOn(Object, "hasOwn");
    try {
      const result = await resultFor(async () => output);
      expect(result.isError).toBe(false);
      expect(result.content).toBe(`{${MARKER}`);
      expect(result.content.endsWith(MARKER)).toBe(true);
      const withOutput = hasOwn.mock.calls.filter(([target]) => target === output);
      expect(withOutput).toHaveLength(COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES);
      // One check per key yielded, in for…in order: the first 256 inherited keys.
      expect(withOutput.map(([, key]) => key)).toEqual(
        Array.from({ length: 256 }, (_, index) => `inherited${index}`),
      );
    } finally {
      hasOwn.mockRestore();
    }
  });

  test("a million-slot sparse array costs only the budget", async () => {
    const sparse = holes(1_000_000);
    sparse[999_999] = "far away";
    expect(await contentFor(async () => sparse)).toBe(`[${emptySlots(256)}${MARKER}`);
  });

  // BigInt(…) calls, not literals: the course compiles this file for ES2017.
  const limit = BigInt(2) ** BigInt(4096);
  const one = BigInt(1);
  test.each([
    ["2^4096 - 1 is written", limit - one, `"${limit - one}n"`],
    ["-(2^4096 - 1) is written", -(limit - one), `"${-(limit - one)}n"`],
    ["2^4096 truncates", limit, MARKER],
    ["-(2^4096) truncates", -limit, MARKER],
    ["a 2,000,000-bit BigInt truncates", BigInt(2) ** BigInt(2_000_000), MARKER],
  ])("BigInt magnitude: %s", async (_label, value, content) => {
    expect(await contentFor(async () => value)).toBe(content);
  });

  test("error results obey the same budgets: a 10,000-character validator error is truncated", async () => {
    const error = "x".repeat(10_000);
    const result = await runWith({ validate: () => ({ ok: false, error }) });
    const prefix = '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"';
    expect(result.isError).toBe(true);
    expect(result.content).toBe(`${prefix}${error}`.slice(0, 4072) + MARKER);
  });
});

// ---------------------------------------------------------------------------
// Snapshot isolation and parallel executions

describe("snapshot isolation", () => {
  test("the validator sees a frozen deep copy; mutating the caller's arguments later changes nothing", async () => {
    const args = { list: [1, { deep: "original" }], flag: true };
    let seen: { list?: unknown[] } = {};
    const { releases, execute } = pendingTool();
    const validate = (input: unknown) => {
      seen = input as typeof seen;
      return accept(input);
    };
    const pending = runWith({ validate, execute }, args);
    await nextTurn();
    args.list.push(2);
    (args.list[1] as { deep: string }).deep = "mutated";
    args.flag = false;
    releases[0]?.(undefined);
    expect((await pending).content).toBe('{"flag":true,"list":[1,{"deep":"original"}]}');
    expect(seen).not.toBe(args);
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.isFrozen(seen.list)).toBe(true);
    expect(Object.isFrozen(seen.list?.[1])).toBe(true);
  });

  test('"__proto__" from JSON.parse stays an ordinary own key and pollutes nothing', async () => {
    let seen: Record<string, unknown> = {};
    const validate = (input: unknown) => {
      seen = input as typeof seen;
      return accept(input);
    };
    const args = JSON.parse('{"__proto__":{"polluted":true},"x":1}');
    const result = await runWith({ validate }, args);
    expect(Object.hasOwn(seen, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(seen.polluted).toBeUndefined();
    expect(result.content).toBe('{"__proto__":{"polluted":true},"x":1}');
  });
});

describe("independent parallel executions", () => {
  test("500 calls at once on one signal each link to their own id and output, whatever the finishing order", async () => {
    const controller = new AbortController();
    const { releases, execute } = pendingTool();
    const registry = new ToolRegistry([toolOf("slow", { execute })]);
    const ids = Array.from({ length: 500 }, (_, index) => `call-${index}`);
    expect(ids.length).toBeGreaterThan(0);
    const pending = ids.map((id, index) =>
      executeToolCall(registry, call("slow", { index }, id), controller.signal),
    );
    await nextTurn();
    expect(releases).toHaveLength(500);
    // One shared watch at most, never a listener per call.
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
    for (const release of [...releases].reverse()) release(undefined);
    const results = await Promise.all(pending);
    results.forEach((result, index) => {
      expect(result.id).toBe(`tool-result-call-${index}`);
      expect(result.toolCallId).toBe(`call-${index}`);
      expect(result.content).toBe(`{"index":${index}}`);
    });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  test("aborting midway rejects only the calls still running", async () => {
    const controller = new AbortController();
    const reason = new Error("stop the rest");
    const { releases, execute } = pendingTool();
    const registry = new ToolRegistry([toolOf("slow", { execute })]);
    const pending = [0, 1, 2, 3].map((index) =>
      executeToolCall(registry, call("slow", { index }, `call-${index}`), controller.signal).then(
        (result) => result.content,
        (error: unknown) => error,
      ),
    );
    await nextTurn();
    releases[0]?.(undefined);
    releases[2]?.(undefined);
    await nextTurn();
    controller.abort(reason);
    releases[1]?.(undefined);
    expect(await Promise.all(pending)).toEqual(['{"index":0}', reason, '{"index":2}', reason]);
  });
});

// ---------------------------------------------------------------------------
// Type-level rules (checked by `npx tsc --noEmit -p .`)

type Pair = { left: number; right: number };
const validatePair = (input: unknown): CourseToolValidation<Pair> =>
  typeof input === "object" && input !== null && typeof (input as Pair).left === "number"
    ? { ok: true, value: input as Pair }
    : { ok: false, error: "left and right must be numbers" };

describe("type-level signature rules", () => {
  test("a validator narrower than unknown does not compile", () => {
    const narrow: CourseTool<Pair, number> = {
      name: "add",
      description: "Add.",
      // @ts-expect-error: a validator must accept unknown input
      validate: (input: Pair) => ({ ok: true, value: input }),
      execute: async ({ left, right }) => left + right,
    };
    const wide: CourseTool<Pair, number> = { ...narrow, validate: validatePair };
    const rejected = { ok: false, error: "left and right must be numbers" };
    expect(defineTool(wide).validate("nope")).toEqual(rejected);
  });

  test("an executor narrower than its Input does not compile", () => {
    const narrow: CourseTool<Pair, number> = {
      name: "add",
      description: "Add.",
      validate: validatePair,
      // @ts-expect-error: execute must accept every validated Input
      execute: async (input: Pair & { carry: number }) => input.left + input.carry,
    };
    expect(defineTool(narrow).name).toBe("add");
  });

  test("a synchronous execute does not compile", async () => {
    const sync: CourseTool<Pair, number> = {
      name: "add",
      description: "Add.",
      validate: validatePair,
      // @ts-expect-error: execute must return a Promise
      execute: ({ left, right }) => left + right,
    };
    const asyncAdd = defineTool({ ...sync, execute: async ({ left, right }) => left + right });
    const registry = new ToolRegistry([asyncAdd]);
    const result = await executeToolCall(registry, call("add", { left: 1, right: 2 }, "c"), live());
    expect(result.content).toBe("3");
  });
});
