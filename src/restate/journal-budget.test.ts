/**
 * A durable result fits its journal entry: part budgets lowered before the
 * call where the limit leaves less room than they allow (the core then
 * leaves the parts out with its own lines), and an entry still over the
 * limit journaled as TOOL_OUTPUT_SERIALIZATION_FAILED. Restate refuses a
 * larger entry and retries the step, running the Tool again each time.
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  type ToolCallOptions,
  ToolRegistry,
  toolContent,
  toolResultMessage,
} from "../../course/src/index.ts";
import { readCallOptions, resolvedCallBudgets } from "../../course/src/internal.ts";
import { PNG_1X1 } from "../../test/support/parts.ts";
import {
  DURABLE_MAX_JOURNAL_BYTES,
  fitJournal,
  journalBytes,
  journalCallOptions,
  journalRoomRefusal,
} from "./journal-budget.ts";
import { toJournal } from "./journal-entry.ts";

const call = (name: string, id = "call-1"): CourseToolCall => ({
  type: "toolCall",
  id,
  name,
  arguments: {},
});
const MIB = 1_048_576;

/** A PNG of `bytes` bytes: the signature and header of a real one, then filler. */
function png(bytes: number): Uint8Array {
  const image = new Uint8Array(bytes);
  image.set(PNG_1X1.subarray(0, Math.min(PNG_1X1.length, bytes)));
  return image;
}

let executions = 0;
const shots = (sizes: readonly number[]) =>
  defineTool({
    name: "shots",
    description: "Answers with images of the given sizes.",
    validate: (input: unknown) => ({ ok: true as const, value: input }),
    outputBudget: { maxPartBytes: 100 * MIB, maxTotalBytes: 256 * MIB },
    execute: async () => {
      executions += 1;
      return toolContent([
        { type: "text", text: "The screens:" },
        ...sizes.map((size) => ({
          type: "image" as const,
          data: png(size),
          mimeType: "image/png",
        })),
      ]);
    },
  });

/** The options a call of `name` runs with under `maxJournalBytes`, from `options`. */
function fitted(
  registry: ToolRegistry,
  name: string,
  options: ToolCallOptions,
  maxJournalBytes: number,
): ToolCallOptions {
  return journalCallOptions(
    options,
    readCallOptions(options).output,
    registry,
    call(name),
    maxJournalBytes,
  );
}

describe("part budgets before the call", () => {
  test("with the default budgets nothing is lowered: the options are the very same object", () => {
    const registry = new ToolRegistry([
      defineTool({
        name: "plain",
        description: "Plain.",
        validate: (input: unknown) => ({ ok: true as const, value: input }),
        execute: async () => "done",
      }),
    ]);
    const options = Object.freeze({});
    expect(fitted(registry, "plain", options, DURABLE_MAX_JOURNAL_BYTES)).toBe(options);
    // An unknown Tool has the call's and the registry's budgets: the defaults.
    expect(fitted(registry, "missing", options, DURABLE_MAX_JOURNAL_BYTES)).toBe(options);
  });

  test("a Tool's raised total is lowered to the room the text leaves, to the byte; its part limit stays", () => {
    const registry = new ToolRegistry([shots([])]);
    const options = fitted(registry, "shots", {}, DURABLE_MAX_JOURNAL_BYTES);
    // Text: 4,096 code points in content and in text parts, 6 bytes each; 20 parts of 1 KiB
    // room; the id and the name, 6 bytes a unit; 1 KiB for the entry itself.
    const room = DURABLE_MAX_JOURNAL_BYTES - (12 * 4_096 + 20 * 1_024 + 6 * (12 + 5) + 1_024);
    const bytes = Math.floor(room / 4) * 3;
    expect(options.outputBudget).toEqual({ maxTotalBytes: bytes });
    // What the core then resolves: the Tool's other fields stay, the parts take the ceiling.
    const budgets = resolvedCallBudgets(registry, "shots", readCallOptions(options).output);
    expect(budgets.parts).toEqual({ maxParts: 20, maxPartBytes: 100 * MIB, maxTotalBytes: bytes });
  });

  test("the call's own budget keeps its other fields", () => {
    const registry = new ToolRegistry([shots([])]);
    const options = fitted(
      registry,
      "shots",
      { outputBudget: { maxCharacters: 8_192, maxPartBytes: 1_000 }, truncate: "tail" },
      2 * MIB,
    );
    const room = 2 * MIB - (12 * 8_192 + 20 * 1_024 + 6 * (12 + 5) + 1_024);
    expect(options).toEqual({
      outputBudget: {
        maxCharacters: 8_192,
        maxPartBytes: 1_000,
        maxTotalBytes: Math.floor(room / 4) * 3,
      },
      truncate: "tail",
    });
    expect(Object.isFrozen(options) && Object.isFrozen(options.outputBudget)).toBe(true);
  });

  test("text that could fill the journal alone leaves no binary part room: 1 byte each", () => {
    const registry = new ToolRegistry([shots([])]);
    const options = fitted(registry, "shots", { outputBudget: { maxCharacters: 100_000 } }, MIB);
    expect(options.outputBudget).toEqual({
      maxCharacters: 100_000,
      maxTotalBytes: 1,
    });
  });

  test("the core then leaves the parts out with its own lines, and the entry fits", async () => {
    executions = 0;
    const registry = new ToolRegistry([shots([600_000, 600_000])]);
    const options = fitted(registry, "shots", {}, MIB);
    const result = await executeToolCall(
      registry,
      call("shots"),
      new AbortController().signal,
      options,
    );
    expect(executions).toBe(1);
    const room = MIB - (12 * 4_096 + 20 * 1_024 + 6 * (12 + 5) + 1_024);
    const bytes = Math.floor(room / 4) * 3;
    expect(result.content).toBe(
      [
        "The screens:",
        "[image: image/png, 600000 bytes]",
        `[image omitted: 600000 bytes, over the ${bytes}-byte total limit]`,
      ].join("\n"),
    );
    expect(result.parts?.map((part) => part.type)).toEqual(["text", "image", "text"]);
    const entry = toJournal(result);
    expect(Buffer.byteLength(JSON.stringify(entry))).toBeLessThanOrEqual(MIB);
    expect(fitJournal(entry, call("shots"), MIB)).toBe(entry);
  });
});

describe("the entry after the call", () => {
  test.each([
    ["ASCII", "plain text"],
    ["quotes and backslashes", '"\\"\\'],
    ["controls", "\u0000\n\t\u001f"],
    ["two- and three-byte units", "é€ü"],
    ["a surrogate pair", "😀"],
    ["lone surrogates", "\ud83d x \ude00"],
    ["a high surrogate at the end", "x\ud83d"],
  ])("its size is never under its JSON's: %s", (_name, text) => {
    const entry = toJournal(toolResultMessage(call("t", text), text, false));
    const json = Buffer.byteLength(JSON.stringify(entry));
    // The exact count (forced by a limit of 0) and the quick bound both cover the JSON.
    expect(journalBytes(entry, 0)).toBeGreaterThanOrEqual(json);
    expect(journalBytes(entry, DURABLE_MAX_JOURNAL_BYTES)).toBeGreaterThanOrEqual(json);
    // Only the keys' room is added to the exact count.
    expect(journalBytes(entry, 0) - json).toBeLessThanOrEqual(1_024);
  });

  test("an entry that fits is journaled as it is", () => {
    const entry = toJournal(toolResultMessage(call("t"), "x".repeat(100_000), false));
    expect(fitJournal(entry, call("t"), MIB)).toBe(entry);
  });

  test("an entry over the limit becomes TOOL_OUTPUT_SERIALIZATION_FAILED, for the same call", () => {
    // 200,000 controls: 1.2 MB as JSON, over 1 MiB though 200,000 characters are not. The
    // size is the texts' exact JSON bytes (the id twice, the name, the content) and the room.
    const entry = toJournal(toolResultMessage(call("t"), "\u0001".repeat(200_000), false));
    const fitted = fitJournal(entry, call("t"), MIB);
    expect(fitted).toEqual({
      id: "tool-result-call-1",
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "t",
      isError: true,
      content: JSON.stringify({
        error: {
          code: "TOOL_OUTPUT_SERIALIZATION_FAILED",
          message: `Tool output takes more than ${MIB} bytes as a durable journal entry (about ${1_200_000 + 18 + 6 + 1 + 1_024}), over the journal's limit (maxJournalBytes); the Tool ran, and its output was not kept`,
        },
      }),
    });
  });
});

describe("a call whose id and name leave no room", () => {
  test.each([
    [87_000, 1_048_576, false],
    [87_500, 1_048_576, true],
  ])("an id of %i characters under %i bytes is refused: %s", (length, limit, refused) => {
    // 6 bytes a character, twice for the id, once for the name "t", plus 2 KiB of room.
    const refusal = journalRoomRefusal(call("t", "x".repeat(length)), limit);
    expect(refusal !== undefined).toBe(refused);
    if (refused) {
      expect(refusal).toBe(
        `Tool call id and name take up to ${2_048 + 6 * (2 * length + 1)} bytes of each journal entry, over the durable journal's limit of ${limit} (maxJournalBytes): no result of this call could be journaled, so no Tool of the round runs`,
      );
    }
  });
});
