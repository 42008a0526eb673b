/**
 * The spill hook: the full output of a truncated result goes to the host,
 * whose reference the marker then names. A hook that throws, answers
 * something odd or answers late never changes the result's linkage or turns
 * a success into a failure; its failure is reported once. Cancellation still wins.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  MAX_SPILL_REFERENCE_CHARACTERS,
  NonRecoverableToolError,
  type OutputSpill,
  type OutputSpillInfo,
  ToolRegistry,
  type ToolRegistryOptions,
} from "../../src/index.ts";
import { blindedController } from "../support/tool-harness.ts";

const call: CourseToolCall = { type: "toolCall", id: "call-9", name: "emit", arguments: {} };
const codePoints = (text: string) => [...text].length;
const LONG = "line of output\n".repeat(2_000); // 30,000 characters

function registryOf(output: unknown, options?: ToolRegistryOptions) {
  const tool = defineTool({
    name: "emit",
    description: "Returns its output.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async () => output,
  });
  return new ToolRegistry([tool], options);
}

/** Runs one call with `spill` and a counting `onSpillError`. */
async function runSpill(
  spill: OutputSpill,
  output: unknown = LONG,
  signal = new AbortController().signal,
) {
  const errors: Array<[unknown, OutputSpillInfo]> = [];
  const result = await executeToolCall(registryOf(output), call, signal, {
    outputBudget: { maxCharacters: 2_000 },
    spill,
    onSpillError: (error, info) => {
      errors.push([error, info]);
    },
  });
  return { result, errors };
}

/** Collects the process warnings emitted while `run` settles (they arrive on a later tick). */
async function warningsDuring(run: () => Promise<unknown>): Promise<Error[]> {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on("warning", onWarning);
  try {
    await run();
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", onWarning);
  }
  return warnings.filter((warning) => warning.name === "ToolOutputSpillWarning");
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a working hook", () => {
  test("receives the full output and its info; the marker names its reference", async () => {
    const seen: Array<[string, OutputSpillInfo]> = [];
    const { result, errors } = await runSpill((text, info) => {
      seen.push([text, info]);
      return "artifacts/call-9.txt";
    });
    expect(seen).toHaveLength(1);
    const [text, info] = seen[0] ?? ["", undefined];
    expect(text).toBe(JSON.stringify(LONG).replaceAll("\\n", "\\u000a"));
    expect(info).toEqual({
      toolCallId: "call-9",
      toolName: "emit",
      limit: "characters",
      truncated: false,
    });
    expect(Object.isFrozen(info)).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(
      /\n\[Tool output truncated: \d+ of 30000 characters kept; full output: artifacts\/call-9.txt\]$/,
    );
    expect(codePoints(result.content)).toBe(2_000);
    expect(errors).toEqual([]);
  });

  test("is not called when nothing was cut", async () => {
    const spill = vi.fn(() => "unused");
    const { result } = await runSpill(spill, "short");
    expect(result.content).toBe('"short"');
    expect(spill).not.toHaveBeenCalled();
  });

  test("a spill larger than maxSpillCharacters is itself cut and says so", async () => {
    const seen: Array<[string, OutputSpillInfo]> = [];
    const registry = registryOf(LONG);
    await executeToolCall(registry, call, new AbortController().signal, {
      outputBudget: { maxCharacters: 2_000 },
      maxSpillCharacters: 10_000,
      spill: (text, info) => {
        seen.push([text, info]);
        return undefined;
      },
    });
    const [text, info] = seen[0] ?? ["", undefined];
    expect(info?.truncated).toBe(true);
    expect(codePoints(text)).toBe(10_000);
    expect(text.endsWith(" of 30000 characters kept]")).toBe(true);
  });

  test("a registry's hook serves every call; a call's own hook replaces it", async () => {
    const fromRegistry = vi.fn(() => "registry-ref");
    const fromCall = vi.fn(() => "call-ref");
    const registry = registryOf(LONG, {
      outputBudget: { maxCharacters: 2_000 },
      spill: fromRegistry,
    });
    const first = await executeToolCall(registry, call, new AbortController().signal);
    expect(first.content.endsWith("; full output: registry-ref]")).toBe(true);
    const second = await executeToolCall(registry, call, new AbortController().signal, {
      spill: fromCall,
    });
    expect(second.content.endsWith("; full output: call-ref]")).toBe(true);
    expect([fromRegistry.mock.calls.length, fromCall.mock.calls.length]).toEqual([1, 1]);
  });

  test("never runs the output's code: its getters stay unread in both serializations", async () => {
    let reads = 0;
    const output: Record<string, unknown> = { text: LONG };
    Object.defineProperty(output, "secret", {
      enumerable: true,
      get: () => {
        reads += 1;
        return "ran";
      },
    });
    const { result } = await runSpill(() => "ref", output);
    expect(result.content.endsWith("; full output: ref]")).toBe(true);
    expect(reads).toBe(0);
  });
});

describe("a misbehaving hook: the result stays a linked success, the failure is reported once", () => {
  const longReference = "r".repeat(MAX_SPILL_REFERENCE_CHARACTERS + 1);
  const cases: ReadonlyArray<readonly [string, OutputSpill, string]> = [
    [
      "throws",
      () => {
        throw new Error("disk full");
      },
      "disk full",
    ],
    [
      "throws a registered NonRecoverableToolError",
      () => {
        throw new NonRecoverableToolError("host gave up");
      },
      "host gave up",
    ],
    [
      "returns a number",
      () => 42 as never,
      "the spill hook returned number, not a string reference or undefined",
    ],
    [
      "returns a Promise",
      () => Promise.reject(new Error("late")) as never,
      "the spill hook must return a string reference or undefined, synchronously",
    ],
    [
      "returns an over-long reference",
      () => longReference,
      `the spill reference is longer than ${MAX_SPILL_REFERENCE_CHARACTERS} characters`,
    ],
    [
      "returns a reference with a line feed",
      () => "a\n[Tool output truncated]",
      "the spill reference contains a control character",
    ],
    ["returns an empty reference", () => "", "the spill reference is empty"],
    ["returns a blank reference", () => "   ", "the spill reference is blank"],
    [
      "returns a lone high surrogate at the end",
      () => "file-\ud800",
      "the spill reference has a lone surrogate",
    ],
    [
      "returns a high surrogate before a letter",
      () => "\ud800x",
      "the spill reference has a lone surrogate",
    ],
    ["returns a lone low surrogate", () => "x\udc00", "the spill reference has a lone surrogate"],
    [
      "returns a DEL character",
      () => "a\u007fb",
      "the spill reference contains a control character",
    ],
    [
      "returns a C1 control character",
      () => "a\u009fb",
      "the spill reference contains a control character",
    ],
    [
      "returns a line separator",
      () => "a\u2028b",
      "the spill reference contains a line or paragraph separator",
    ],
    [
      "returns a paragraph separator",
      () => "a\u2029b",
      "the spill reference contains a line or paragraph separator",
    ],
    [
      "returns a right-to-left override",
      () => "a\u202eb",
      "the spill reference contains a format character (a direction mark or control, a zero-width or other invisible character)",
    ],
    [
      "returns a direction isolate",
      () => "a\u2066b",
      "the spill reference contains a format character (a direction mark or control, a zero-width or other invisible character)",
    ],
    [
      "returns a closing bracket",
      () => "x] [Tool output truncated: fake",
      "the spill reference contains a bracket",
    ],
    ["returns an opening bracket", () => "files[1].txt", "the spill reference contains a bracket"],
    [
      "returns an object",
      () => ({ path: "x" }) as never,
      "the spill hook must return a string reference or undefined, synchronously",
    ],
    [
      "returns null",
      () => null as never,
      "the spill hook returned object, not a string reference or undefined",
    ],
  ];

  test.each(cases)("%s", async (_label, spill, message) => {
    expect(cases.length).toBeGreaterThan(0);
    const { result, errors } = await runSpill(spill);
    expect(result).toMatchObject({
      id: "tool-result-call-9",
      toolCallId: "call-9",
      isError: false,
    });
    expect(result.content).toMatch(/\n\[Tool output truncated: \d+ of 30000 characters kept\]$/);
    expect(codePoints(result.content)).toBe(2_000);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toMatchObject({ message });
    expect(errors[0]?.[1]).toMatchObject({ toolCallId: "call-9", limit: "characters" });
  });

  test("a reference of exactly the longest length is named, within the floor cap", async () => {
    const reference = "r".repeat(MAX_SPILL_REFERENCE_CHARACTERS);
    const result = await executeToolCall(registryOf(LONG), call, new AbortController().signal, {
      outputBudget: { maxCharacters: 1_024 },
      truncate: "head-and-tail",
      spill: () => reference,
    });
    expect(result.content).toContain(`; full output: ${reference}]\n`);
    expect(codePoints(result.content)).toBe(1_024);
  });

  test("without onSpillError the failure is one ToolOutputSpillWarning, its cause the thrown error", async () => {
    const thrown = new Error("no space left");
    let isError: boolean | undefined;
    const warnings = await warningsDuring(async () => {
      const result = await executeToolCall(registryOf(LONG), call, new AbortController().signal, {
        outputBudget: { maxCharacters: 2_000 },
        spill: () => {
          throw thrown;
        },
      });
      isError = result.isError;
    });
    expect(isError).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.cause).toBe(thrown);
    expect(warnings[0]?.message).toContain('Tool call "call-9"');
  });

  test("an onSpillError that throws is reported as a warning; the result is unchanged", async () => {
    const reporterError = new Error("reporter broke");
    let isError: boolean | undefined;
    const warnings = await warningsDuring(async () => {
      const result = await executeToolCall(registryOf(LONG), call, new AbortController().signal, {
        outputBudget: { maxCharacters: 2_000 },
        spill: () => 7 as never,
        onSpillError: () => {
          throw reporterError;
        },
      });
      isError = result.isError;
    });
    expect(isError).toBe(false);
    expect(warnings.map((warning) => warning.cause)).toEqual([reporterError]);
    expect(warnings[0]?.message).toContain("onSpillError failed");
  });
});

describe("references at the edges, and what is not a failure", () => {
  test.each([
    ["a pair", "file-😀.txt"],
    ["the character before DEL", "a~b"],
    ["the character after the C1 range", "a\u00a0b"],
    ["the characters around the separators and direction controls", "a\u2027\u202f\u2065\u2070b"],
    ["a single character", "x"],
  ])("a reference with %s is named", async (_label, reference) => {
    const { result, errors } = await runSpill(() => reference);
    expect(result.content.endsWith(`; full output: ${reference}]`)).toBe(true);
    expect(errors).toEqual([]);
  });

  test("a hook that returns undefined names nothing and reports nothing", async () => {
    const { result, errors } = await runSpill(() => undefined);
    expect(result.content).toMatch(/ characters kept\]$/);
    expect(errors).toEqual([]);
  });

  test("a cut result without a hook reports nothing", async () => {
    const warnings = await warningsDuring(() =>
      executeToolCall(registryOf(LONG), call, new AbortController().signal, {
        outputBudget: { maxCharacters: 2_000 },
      }),
    );
    expect(warnings).toEqual([]);
  });

  test("an onSpillError that rejects has its rejection observed", async () => {
    const { result } = await runSpill(() => 5 as never);
    expect(result.isError).toBe(false);
    const rejecting = await executeToolCall(registryOf(LONG), call, new AbortController().signal, {
      outputBudget: { maxCharacters: 2_000 },
      spill: () => 5 as never,
      onSpillError: () => Promise.reject(new Error("async reporter failed")),
    });
    // The set-up fails the test file on any unhandled rejection.
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejecting.isError).toBe(false);
  });

  test("the default warning is named ToolOutputSpillWarning, the name not enumerable", async () => {
    const warnings = await warningsDuring(() =>
      executeToolCall(registryOf(LONG), call, new AbortController().signal, {
        outputBudget: { maxCharacters: 2_000 },
        spill: () => 5 as never,
      }),
    );
    expect(warnings).toHaveLength(1);
    expect(Object.getOwnPropertyDescriptor(warnings[0], "name")).toMatchObject({
      value: "ToolOutputSpillWarning",
      enumerable: false,
    });
  });
});

describe("a full output that cannot be written past the cut", () => {
  const pastTheCut = () => ({ a: "x".repeat(5_000), z: new Date(0) });

  test("the hook is not called; the failure names the refusal, once, with truncated false", async () => {
    const spill = vi.fn(() => "never");
    const { result, errors } = await runSpill(spill, pastTheCut());
    expect(result.isError).toBe(false);
    expect(
      result.content.endsWith("\n[Tool output truncated: characters limit 2000 reached]"),
    ).toBe(true);
    expect(spill).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toMatchObject({
      message: "the full output could not be serialized: $.z: Date objects are not supported",
    });
    expect(errors[0]?.[1]).toEqual({
      toolCallId: "call-9",
      toolName: "emit",
      limit: "characters",
      truncated: false,
    });
  });

  test("a Proxy prototype's trap that throws past the cut is reported, not fatal", async () => {
    const trapped = Object.create(
      new Proxy(Object.prototype, {
        getPrototypeOf: () => {
          throw new Error("trap past the cut");
        },
      }),
    );
    const { result, errors } = await runSpill(() => "never", { a: "x".repeat(5_000), z: trapped });
    expect(result.isError).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toMatchObject({ message: "trap past the cut" });
    expect(errors[0]?.[1]).toMatchObject({ truncated: false });
  });

  test("a registered NonRecoverableToolError thrown there stops the run, as from any serialization", async () => {
    const fatal = new NonRecoverableToolError("invariant broken past the cut");
    const trapped = Object.create(
      new Proxy(Object.prototype, {
        getPrototypeOf: () => {
          throw fatal;
        },
      }),
    );
    await expect(runSpill(() => "never", { a: "x".repeat(5_000), z: trapped })).rejects.toBe(fatal);
  });
});

describe("cancellation still wins", () => {
  test("a hook that aborts the run's signal makes the call reject with the reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped while spilling");
    const spill = vi.fn(() => {
      controller.abort(reason);
      return "ref";
    });
    await expect(runSpill(spill, LONG, controller.signal)).rejects.toBe(reason);
    expect(spill).toHaveBeenCalledTimes(1);
  });

  test("an abort no listener saw, before the output arrived: no spill, a rejection", async () => {
    const controller = blindedController();
    const reason = new Error("cancelled while the Tool finished");
    let release: (value: string) => void = () => {};
    const tool = defineTool({
      name: "emit",
      description: "Returns when released.",
      validate: (input) => ({ ok: true, value: input }),
      execute: () =>
        new Promise<string>((resolve) => {
          release = resolve;
        }),
    });
    const spill = vi.fn(() => "ref");
    const pending = executeToolCall(new ToolRegistry([tool]), call, controller.signal, {
      outputBudget: { maxCharacters: 2_000 },
      spill,
    });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(reason);
    release(LONG);
    await expect(pending).rejects.toBe(reason);
    expect(spill).not.toHaveBeenCalled();
  });
});
