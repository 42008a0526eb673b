/**
 * Reading a durable call's inputs before anything runs: options read once
 * each (round fields only for a round), checked here or by the core itself;
 * calls read by index; ids claimed once per handler run; deadlines resolved
 * per Tool; journal entries checked against their call.
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  ToolContractError,
  ToolRegistry,
  toolContent,
  toolResultMessage,
} from "../../course/src/index.ts";
import { PNG_1X1 } from "../../test/support/parts.ts";
import { snapshotCallList } from "../rounds/round-calls.ts";
import { claimCallIds } from "./durable-calls.ts";
import { resolveDeadline } from "./durable-deadline.ts";
import { readDurableOptions } from "./durable-options.ts";
import { JOURNAL_BYTES_RULE } from "./journal-budget.ts";
import { fromJournal, toJournal } from "./journal-entry.ts";

const call = (id: string, name = "work"): CourseToolCall => ({
  type: "toolCall",
  id,
  name,
  arguments: {},
});
const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolContractError);
    expect((error as ToolContractError).code).toBe("INVALID_TOOL_CALL");
    return (error as Error).message;
  }
  throw new Error("not refused");
};

describe("readDurableOptions", () => {
  test("every field is read once, in order; a single call never reads the round's", () => {
    const reads: string[] = [];
    const fields = ["concurrency", "onEvent", "onEventError", "maxRoundCharacters", "timeoutMs"];
    const plain = {};
    const after = ["approve", "maxJournalBytes", "maxArgumentCharacters", "outputBudget"];
    for (const field of [...fields, ...after]) {
      Object.defineProperty(plain, field, {
        enumerable: true,
        get: () => {
          reads.push(field);
          return undefined;
        },
      });
    }
    readDurableOptions(plain, true);
    expect(reads).toEqual([...fields, ...after]);
    reads.length = 0;
    readDurableOptions(plain, false);
    expect(reads).toEqual(["timeoutMs", ...after]);
  });

  test.each([
    [new Proxy({}, {}), "Tool round options must be a plain object (not a Proxy)"],
    [null, "Tool round options must be a plain object (not a Proxy)"],
    [{ concurrency: 0 }, "concurrency must be a positive integer or Infinity"],
    [{ concurrency: 1.5 }, "concurrency must be a positive integer or Infinity"],
    [{ concurrency: "2" }, "concurrency must be a positive integer or Infinity"],
    [{ maxRoundCharacters: -1 }, "maxRoundCharacters must be a positive integer or Infinity"],
    [{ onEvent: "log" }, "onEvent must be a function"],
    [{ approve: true }, "approve must be a function"],
    [
      { timeoutMs: 0 },
      "timeoutMs must be a positive number of milliseconds, at most 2147483647 (Infinity for none), or a function returning one",
    ],
    [
      { timeoutMs: 2 ** 31 },
      "timeoutMs must be a positive number of milliseconds, at most 2147483647 (Infinity for none), or a function returning one",
    ],
    [{ maxArgumentCharacters: 0 }, "maxArgumentCharacters must be a positive integer"],
    [{ maxJournalBytes: 1_048_575 }, JOURNAL_BYTES_RULE],
    [{ maxJournalBytes: 1_073_741_825 }, JOURNAL_BYTES_RULE],
    [{ maxJournalBytes: 2_000_000.5 }, JOURNAL_BYTES_RULE],
    [{ maxJournalBytes: "4000000" }, JOURNAL_BYTES_RULE],
    [{ maxJournalBytes: Number.POSITIVE_INFINITY }, JOURNAL_BYTES_RULE],
  ])("%j is refused: %s", (options, message) => {
    expect(refusal(() => readDurableOptions(options, true))).toBe(message);
  });

  test("output settings are checked by the core's own rules, before any call is read", () => {
    expect(
      refusal(() => readDurableOptions({ outputBudget: { maxCharacters: 5 } }, true)),
    ).toContain("maxCharacters must be an integer from 1024 to 10000000");
  });

  test("a throwing getter is named", () => {
    const options = {
      get concurrency(): number {
        throw new Error("boom");
      },
    };
    expect(refusal(() => readDurableOptions(options, true))).toBe(
      'Tool round option "concurrency" threw when read',
    );
  });

  test("the core gets only the defined per-call fields, never the deadline or the gate", () => {
    const settings = readDurableOptions(
      { timeoutMs: 5, approve: () => true, truncate: "tail", concurrency: 2 },
      true,
    );
    expect(settings.coreOptions).toEqual({ truncate: "tail" });
    expect(Object.isFrozen(settings.coreOptions)).toBe(true);
    expect([settings.timeoutMs, settings.concurrency]).toEqual([5, 2]);
  });

  test("a single call's unset round fields are its own: a getter planted on Array.prototype is never asked", () => {
    let reads = 0;
    const planted = ["0", "1", "2", "3"];
    for (const index of planted) {
      Object.defineProperty(Array.prototype, index, {
        configurable: true,
        get() {
          reads += 1;
          return () => undefined;
        },
        set(this: object, value: unknown) {
          Object.defineProperty(this, index, {
            value,
            writable: true,
            enumerable: true,
            configurable: true,
          });
        },
      });
    }
    let settings: ReturnType<typeof readDurableOptions>;
    try {
      settings = readDurableOptions({}, false);
    } finally {
      for (const index of planted) {
        delete (Array.prototype as unknown as Record<string, unknown>)[index];
      }
    }
    expect(reads).toBe(0);
    expect([settings.onEvent, settings.onEventError, settings.concurrency]).toEqual([
      undefined,
      undefined,
      1,
    ]);
  });

  test.each([
    [undefined, 33_554_432],
    [1_048_576, 1_048_576],
    [1_073_741_824, 1_073_741_824],
  ])("maxJournalBytes %j is taken as %i; it never reaches the core", (value, taken) => {
    const settings = readDurableOptions(
      value === undefined ? {} : { maxJournalBytes: value },
      false,
    );
    expect(settings.maxJournalBytes).toBe(taken);
    expect(settings.coreOptions).toEqual({});
  });
});

/** `[a, <hole>, c]`. */
function holey(): CourseToolCall[] {
  const calls = [call("a")];
  calls[2] = call("c");
  return calls;
}

describe("snapshotCallList", () => {
  test.each([
    ["a non-array", { length: 1, 0: call("a") }, "Tool round calls must be an array (not a Proxy)"],
    ["a Proxy", new Proxy([call("a")], {}), "Tool round calls must be an array (not a Proxy)"],
    ["a hole", holey(), "Tool round calls have a hole at index 1"],
    ["a blank id", [call(" ")], "calls[0]: Tool call id must be a non-blank string"],
  ])("%s is refused", (_label, calls, message) => {
    expect(refusal(() => snapshotCallList(calls))).toBe(message);
  });

  test("a getter slot is read once, and the snapshots are frozen", () => {
    let reads = 0;
    const calls: CourseToolCall[] = [];
    Object.defineProperty(calls, 0, {
      enumerable: true,
      get: () => {
        reads += 1;
        return call("a");
      },
    });
    const snapshots = snapshotCallList(calls);
    expect(reads).toBe(1);
    expect(snapshots).toEqual([call("a")]);
    expect(Object.isFrozen(snapshots[0])).toBe(true);
  });
});

describe("claimCallIds", () => {
  test("an id is claimed once per handler run; a refused round claims nothing", () => {
    const ctx = {} as never;
    expect(refusal(() => claimCallIds(ctx, [call("a"), call("b"), call("a")]))).toBe(
      'Duplicate Tool call id "a" at calls[0] and calls[2]',
    );
    claimCallIds(ctx, [call("a")]);
    expect(refusal(() => claimCallIds(ctx, [call("b"), call("a")]))).toBe(
      'Tool call id "a" was already used by a durable call of this invocation; its idempotency key would repeat',
    );
    claimCallIds(ctx, [call("b")]);
    // A retry runs the handler with a new context: its ids are its own.
    claimCallIds({} as never, [call("a"), call("b")]);
  });
});

describe("resolveDeadline", () => {
  test("a function is asked once with the Tool's name; undefined and Infinity mean none", () => {
    const asked: string[] = [];
    const setting = (name: string) => {
      asked.push(name);
      return name === "slow" ? 1_000 : name === "free" ? Number.POSITIVE_INFINITY : undefined;
    };
    expect([
      resolveDeadline(setting, "slow"),
      resolveDeadline(setting, "free"),
      resolveDeadline(setting, "x"),
    ]).toEqual([1_000, undefined, undefined]);
    expect(asked).toEqual(["slow", "free", "x"]);
  });

  test.each([0, -1, Number.NaN, 2 ** 31, "5"])(
    "an answer of %j is refused naming the Tool",
    (answer) => {
      expect(refusal(() => resolveDeadline(() => answer as number, "slow"))).toBe(
        'timeoutMs for Tool "slow" must be a positive number of milliseconds, at most 2147483647 (Infinity for none)',
      );
    },
  );

  test("a throwing function is the host's mistake", () => {
    expect(
      refusal(() =>
        resolveDeadline(() => {
          throw new Error("no config");
        }, "slow"),
      ),
    ).toBe("timeoutMs could not be resolved");
  });
});

describe("journal entries", () => {
  const result = toolResultMessage(call("a"), '{"n":1}', false);

  test("an entry read back is the same frozen message", () => {
    const read = fromJournal(JSON.parse(JSON.stringify(toJournal(result))), call("a"));
    expect(read).toEqual(result);
    expect(Object.keys(read)).toEqual(Object.keys(result));
    expect(Object.isFrozen(read)).toBe(true);
  });

  test.each([
    ["another call's entry", { ...toJournal(result), toolCallId: "b", id: "tool-result-b" }],
    ["another Tool's entry", { ...toJournal(result), toolName: "other" }],
    ["content that is not text", { ...toJournal(result), content: 1 }],
    ["no isError", { ...toJournal(result), isError: undefined }],
    ["an array", []],
    ["null", null],
  ])("%s is refused", (_label, entry) => {
    expect(() => fromJournal(entry, call("a"))).toThrow(TypeError);
  });
});

describe("journal entries with parts", () => {
  // A Tool's text and image, as executeToolCall answers them: the message carries parts.
  async function withParts(): Promise<CourseToolResultMessage> {
    const shot = defineTool({
      name: "work",
      description: "Answers with text and an image.",
      validate: () => ({ ok: true, value: {} }),
      execute: async () =>
        toolContent([
          { type: "text", text: "The screen:" },
          { type: "image", data: PNG_1X1, mimeType: "image/png" },
          {
            type: "file",
            data: new TextEncoder().encode("notes"),
            mimeType: "text/plain",
            name: "n.txt",
          },
        ]),
    });
    return executeToolCall(new ToolRegistry([shot]), call("a"), new AbortController().signal);
  }

  test("an entry read back keeps the message's parts, the same frozen message", async () => {
    const result = await withParts();
    expect(result.parts).toHaveLength(3);
    const read = fromJournal(JSON.parse(JSON.stringify(toJournal(result))), call("a"));
    expect(read).toEqual(result);
    expect(Object.keys(read)).toEqual(Object.keys(result));
    expect(Object.isFrozen(read)).toBe(true);
    expect(Object.isFrozen(read.parts)).toBe(true);
    for (const part of read.parts ?? []) expect(Object.isFrozen(part)).toBe(true);
  });

  test.each<[string, (parts: Record<string, unknown>[]) => unknown]>([
    ["parts that are not a list", () => "image"],
    ["an empty list of parts", () => []],
    ["an unknown kind of part", (parts) => [{ ...parts[1], type: "video" }]],
    ["an image of another media type", (parts) => [{ ...parts[1], mimeType: "image/svg+xml" }]],
    ["data that is not strict base64", (parts) => [{ ...parts[1], data: "not base64!" }]],
    ["text that is not a string", () => [{ type: "text", text: 1 }]],
    ["a file name that is not a string", (parts) => [{ ...parts[2], name: 7 }]],
  ])("%s is refused", async (_label, change) => {
    const entry = JSON.parse(JSON.stringify(toJournal(await withParts())));
    expect(() => fromJournal({ ...entry, parts: change(entry.parts) }, call("a"))).toThrow(
      'the journal entry of Tool call "a" has parts the core never writes',
    );
  });

  test("an error result with parts is refused: the core never writes one", async () => {
    const entry = JSON.parse(JSON.stringify(toJournal(await withParts())));
    expect(() => fromJournal({ ...entry, isError: true }, call("a"))).toThrow(TypeError);
  });
});
