/**
 * The facts an observer's `end` hook gets, for every way a call can end:
 * rejected before anything was read (cancelled, malformed), timed out (its
 * effects unknown), cut by each output budget (the limit's name and value),
 * returned as `toolContent`; and how a broken observer is refused and a
 * throwing hook reported (the warning's name and text).
 */
import { afterEach, describe, expect, test } from "vitest";
import { PNG_1X1 } from "../../../test/support/parts.ts";
import type { CallFacts, CallObserver } from "../../src/call-observer.ts";
import {
  executeToolCall,
  type OutputBudget,
  prepareToolCall,
  runPreparedToolCall,
  type ToolCallOptions,
  ToolRegistry,
  toolContent,
} from "../../src/index.ts";
import { CALL_OBSERVER_WARNING, withCallObserver } from "../../src/internal.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

const live = () => new AbortController().signal;

/** An observer that records the arguments of every hook and the facts of every end. */
function watching() {
  const facts: CallFacts[] = [];
  const startArguments: unknown[][] = [];
  const observer: CallObserver<string> = {
    start: (...args: unknown[]) => {
      startArguments.push(args);
      return "state";
    },
    resume: () => {},
    execute: (_state, _call, _tool, run) => run(),
    end: (_state, ended) => {
      facts.push(ended);
    },
  };
  return { observer, facts, startArguments };
}

/** The one call's facts, for a Tool returning `output` under `options`. */
async function factsOf(output: unknown, options?: ToolCallOptions): Promise<CallFacts> {
  const { observer, facts } = watching();
  const registry = withCallObserver(
    workRegistry(async () => output),
    observer,
  );
  await executeToolCall(registry, workCall(), live(), options);
  expect(facts).toHaveLength(1);
  return facts[0] as CallFacts;
}

const warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};
process.on("warning", onWarning);
afterEach(() => {
  warnings.length = 0;
});

describe("a rejected call's facts", () => {
  test("an already-aborted signal: phase call, cancelled, the reason, no result", async () => {
    const { observer, facts } = watching();
    const registry = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(executeToolCall(registry, workCall(), controller.signal)).rejects.toBe(reason);
    expect(facts).toEqual([
      {
        call: undefined,
        tool: undefined,
        phase: "call",
        result: undefined,
        code: undefined,
        rejection: "cancelled",
        reason,
        output: undefined,
        timeoutMs: undefined,
        effectUnknown: false,
      },
    ]);
    expect(Object.isFrozen(facts[0])).toBe(true);
  });

  test("a malformed call: a contract error, observed once, by prepareToolCall too", async () => {
    const { observer, facts } = watching();
    const registry = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    const malformed = { type: "toolCall", id: "", name: "work", arguments: {} } as never;
    const refusal = {
      code: "INVALID_TOOL_CALL",
      message: "Tool call id must be a non-blank string",
    };
    await expect(executeToolCall(registry, malformed, live())).rejects.toMatchObject(refusal);
    expect(() => prepareToolCall(registry, malformed, live())).toThrow(refusal.message);
    expect(facts.map((ended) => [ended.phase, ended.rejection, ended.effectUnknown])).toEqual([
      ["call", "contract-error", false],
      ["call", "contract-error", false],
    ]);
    expect(facts[0]?.reason).toMatchObject(refusal);
  });

  test("a prepared call decided without effects ends once, though it is run afterwards", async () => {
    const { observer, facts } = watching();
    const registry = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    const prepared = prepareToolCall(registry, { ...workCall(), name: "nope" }, live());
    const result = await runPreparedToolCall(prepared);
    expect(result.isError).toBe(true);
    expect(facts.map((ended) => [ended.phase, ended.code])).toEqual([["lookup", "TOOL_NOT_FOUND"]]);
  });
});

describe("effects unknown", () => {
  test("a call past its deadline: TOOL_TIMEOUT, effectUnknown, the deadline", async () => {
    const { observer, facts } = watching();
    const registry = withCallObserver(
      workRegistry(() => new Promise(() => {})),
      observer,
    );
    await executeToolCall(registry, workCall(), live(), { timeoutMs: 5 });
    expect(facts.map((ended) => [ended.code, ended.effectUnknown, ended.timeoutMs])).toEqual([
      ["TOOL_TIMEOUT", true, 5],
    ]);
  });

  test.each([
    ["a success", async () => "done", undefined],
    [
      "a Tool that fails",
      async () => {
        throw new Error("broke");
      },
      "TOOL_EXECUTION_FAILED",
    ],
  ])("%s: the effects are known", async (_label, execute, code) => {
    const { observer, facts } = watching();
    const registry = withCallObserver(workRegistry(execute), observer);
    await executeToolCall(registry, workCall(), live(), { timeoutMs: 10_000 });
    expect(facts.map((ended) => [ended.code, ended.effectUnknown])).toEqual([[code, false]]);
  });
});

const nested = (depth: number): unknown => (depth === 0 ? 1 : { next: nested(depth - 1) });
const budget = (outputBudget: OutputBudget): ToolCallOptions => ({ outputBudget });

describe("a cut output's facts name the budget that cut it", () => {
  test.each([
    ["characters", "x".repeat(5_000), budget({ maxCharacters: 1_024 }), 1_024],
    [
      "string characters",
      { text: "y".repeat(3_000) },
      budget({ maxCharacters: 100_000, maxStringCharacters: 100 }),
      100,
    ],
    ["depth", nested(10), budget({ maxDepth: 3 }), 3],
    ["values", Array.from({ length: 50 }, (_, index) => index), budget({ maxNodes: 10 }), 10],
    ["entries", Array.from({ length: 50 }, () => null), budget({ maxEntries: 5 }), 5],
    ["BigInt size", { n: 2n ** 100n }, budget({ maxBigIntBits: 64 }), 64],
    // Under the course's own budgets (no settings): the same facts.
    ["characters", "z".repeat(5_000), undefined, 4_096],
    ["entries", new Array(300), undefined, 256],
    ["values", Array.from({ length: 200 }, () => 0), undefined, 128],
  ] as const)("the %s budget (%#)", async (limit, output, options, limitValue) => {
    const ended = await factsOf(output, options);
    expect(ended.output).toMatchObject({ truncated: true, limit, limitValue });
    expect(ended.output?.characters).toBe([...(ended.result?.content ?? "")].length);
  });

  test("output that fits names no budget", async () => {
    const ended = await factsOf({ rows: [1, 2, 3] }, budget({ maxCharacters: 2_048 }));
    expect(ended.output).toEqual({
      characters: 16,
      originalCharacters: 16,
      originalTextLength: undefined,
      truncated: false,
      limit: undefined,
      limitValue: undefined,
      spillReference: undefined,
    });
  });

  test("configured budgets are the ones applied: the same content as without an observer", async () => {
    const output = { text: "q".repeat(2_000) };
    const options = budget({ maxCharacters: 1_024 });
    const plain = await executeToolCall(
      workRegistry(async () => output),
      workCall(),
      live(),
      options,
    );
    const ended = await factsOf(output, options);
    expect(ended.result).toEqual(plain);
    expect(ended.output).toMatchObject({ limit: "characters", limitValue: 1_024 });
  });

  test("only a top-level string has a text length: an array's length is not one", async () => {
    expect((await factsOf([1, 2, 3])).output?.originalTextLength).toBeUndefined();
    expect((await factsOf("abc")).output?.originalTextLength).toBe(3);
  });

  test("output that cannot be serialized: an error result, no output facts", async () => {
    const ended = await factsOf({ when: new Date(0) });
    expect(ended.code).toBe("TOOL_OUTPUT_SERIALIZATION_FAILED");
    expect(ended.output).toBeUndefined();
  });
});

describe("a toolContent output's facts", () => {
  test("the content's size, not truncated, no budget", async () => {
    const ended = await factsOf(
      toolContent([
        { type: "text", text: "chart:" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
      ]),
    );
    expect(ended.result?.content).toBe("chart:\n[image: image/png, 70 bytes]");
    expect(ended.output).toEqual({
      characters: 35,
      originalCharacters: 35,
      originalTextLength: undefined,
      truncated: false,
      limit: undefined,
      limitValue: undefined,
      spillReference: undefined,
    });
  });

  test("text cut by the course's own budget: truncated, the characters budget and its value", async () => {
    const ended = await factsOf(toolContent([{ type: "text", text: "w".repeat(5_000) }]));
    const content = ended.result?.content ?? "";
    expect(content).toMatch(/\n\[Tool output truncated: \d+ of 5000 characters kept\]$/);
    expect(ended.output).toEqual({
      characters: [...content].length,
      originalCharacters: undefined,
      originalTextLength: undefined,
      truncated: true,
      limit: "characters",
      limitValue: 4_096,
      spillReference: undefined,
    });
  });

  test("text cut by a configured budget and spilled: the reference and the spilled text's size", async () => {
    const spilled: string[] = [];
    const output = toolContent([
      { type: "text", text: "a".repeat(1_500) },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
      { type: "text", text: "b".repeat(700) },
    ]);
    const options: ToolCallOptions = {
      outputBudget: { maxCharacters: 1_024 },
      spill: (text) => {
        spilled.push(text);
        return "spill://call-1";
      },
    };
    const plain = await executeToolCall(
      workRegistry(async () => output),
      workCall(),
      live(),
      options,
    );
    const ended = await factsOf(output, options);
    // The observer changes nothing the model reads; the hook ran once per call.
    expect(ended.result).toEqual(plain);
    expect(spilled).toHaveLength(2);
    expect(ended.output).toEqual({
      characters: [...(plain.content ?? "")].length,
      originalCharacters: [...(spilled[1] ?? "")].length,
      originalTextLength: undefined,
      truncated: true,
      limit: "characters",
      limitValue: 1_024,
      spillReference: "spill://call-1",
    });
    // The full text: both text parts and the image's line, each on its own line.
    const line = "[image: image/png, 70 bytes]";
    expect(ended.output?.originalCharacters).toBe(1_500 + 1 + line.length + 1 + 700);
  });
});

describe("the hooks, as the observer sees them", () => {
  test("start is called with no arguments", async () => {
    const { observer, startArguments } = watching();
    const registry = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    await executeToolCall(registry, workCall(), live());
    expect(startArguments).toEqual([[]]);
  });

  const hooks = ["start", "resume", "execute", "end"] as const;
  test.each(hooks)(
    "a throwing %s hook: a warning with its own name and text, the name not enumerable",
    async (hook) => {
      const { observer } = watching();
      const broken = {
        ...observer,
        [hook]: () => {
          throw new Error(`${hook} broke`);
        },
      };
      const registry = withCallObserver(
        workRegistry(async () => 1),
        broken,
      );
      await runPreparedToolCall(prepareToolCall(registry, workCall(), live()));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toHaveLength(1);
      const [warning] = warnings as [Error];
      expect(CALL_OBSERVER_WARNING).toBe("ToolCallObserverWarning");
      expect(warning.name).toBe("ToolCallObserverWarning");
      expect(Object.getOwnPropertyDescriptor(warning, "name")?.enumerable).toBe(false);
      expect(warning.message).toBe(
        `the call observer's ${hook} hook threw; the call went on unchanged`,
      );
    },
  );
});

describe("an observer that is not one is refused, naming why", () => {
  const hooks = { start() {}, resume() {}, execute() {}, end() {} };
  test.each([
    ["null", null, "a call observer must be a plain object (not a Proxy)"],
    ["a string", "observer", "a call observer must be a plain object (not a Proxy)"],
    ["a function", () => {}, "a call observer must be a plain object (not a Proxy)"],
    ["a Proxy", new Proxy(hooks, {}), "a call observer must be a plain object (not a Proxy)"],
    ["no start hook", { ...hooks, start: undefined }, "a call observer's start must be a function"],
    ["no end hook", { ...hooks, end: 1 }, "a call observer's end must be a function"],
  ])("%s", (_label, observer, message) => {
    expect(() => withCallObserver(new ToolRegistry(), observer as never)).toThrow(
      new TypeError(message),
    );
  });
});
