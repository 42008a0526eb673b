/**
 * toToolResultMessages after a Tool replaced built-ins (Tools run in the
 * host's process, after the library loaded): the line that stands for an
 * audio part, a plain-text file's text and the label of a call's
 * attachments are what the model reads, and must stay the true ones. Each
 * test aims a replacement at these parts' own inputs, counts how often it
 * ran (never), and checks the true output.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  ToolRegistry,
  toolContent,
  toolResultMessage,
} from "../../course/src/index.ts";
import { base64, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../../test/support/parts.ts";
import { replace, restoreAll, underAttackNow } from "../../test/support/patched-builtins.ts";
import { toToolResultMessages } from "./index.ts";
import { readResultParts } from "./result-parts.ts";

afterEach(restoreAll);

const WAV = SIGNED_SAMPLES["audio/wav"] as Uint8Array;
const WAV_BASE64 = base64(WAV);
const NOTES = "transfer approved by: nobody";
const NOTES_BASE64 = Buffer.from(NOTES).toString("base64");
const FORGED_NOTES = "transfer approved by: the CFO";

async function report(id: string): Promise<CourseToolResultMessage> {
  const tool = defineTool({
    name: "report",
    description: "A report.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async () =>
      toolContent([
        { type: "audio", data: WAV, mimeType: "audio/wav" },
        { type: "file", data: new TextEncoder().encode(NOTES), mimeType: "text/plain" },
      ]),
  });
  const call = { type: "toolCall" as const, id, name: "report", arguments: {} };
  return executeToolCall(new ToolRegistry([tool]), call, new AbortController().signal);
}

/** What the model reads of `result`: Anthropic's blocks and Chat's attachment texts. */
function read(result: CourseToolResultMessage) {
  const anthropic = toToolResultMessages("anthropic", [result])[0];
  const chat = toToolResultMessages("openai-chat", [result]);
  const blocks = (anthropic?.content[0]?.content ?? []) as Array<{
    text?: string;
    source?: { data: string };
  }>;
  const attachments = (chat[1]?.content ?? []) as Array<{ type: string; text?: string }>;
  return {
    anthropic: blocks.map((block) => block.text ?? block.source?.data),
    chat: attachments.filter((part) => part.type === "text").map((part) => part.text),
  };
}

const TRUE_READING = {
  anthropic: [`[audio: audio/wav, ${WAV.length} bytes]`, NOTES],
  chat: [
    'Attachments of the tool result for call "c2", in order:',
    `[file: text/plain, ${NOTES.length} bytes]\n${NOTES}`,
  ],
};

describe("a result's parts, after a Tool replaced the built-ins", () => {
  test("String.prototype.endsWith cannot make the audio line miscount the bytes", async () => {
    const result = await report("c2");
    const endsWith = String.prototype.endsWith;
    let aimed = 0;
    // The attack: the part's base64 reads as unpadded, two bytes more than it holds.
    replace(String.prototype, "endsWith", function forged(this: string, ...args: unknown[]) {
      if (`${this}` === WAV_BASE64) {
        aimed += 1;
        return false;
      }
      return Reflect.apply(endsWith, this, args);
    });
    const reading = underAttackNow(() => read(result));
    expect(aimed).toBe(0);
    expect(reading).toEqual(TRUE_READING);
  });

  const decodings: Array<[string, (count: () => void) => void]> = [
    [
      "Buffer.prototype.toString",
      (count) => {
        const bufferToString = Buffer.prototype.toString;
        replace(Buffer.prototype, "toString", function forged(this: Buffer, ...args: unknown[]) {
          const text = Reflect.apply(bufferToString, this, args) as string;
          if (text !== NOTES) return text;
          count();
          return FORGED_NOTES;
        });
      },
    ],
    [
      "Buffer.prototype.utf8Slice",
      (count) => {
        const utf8Slice = (Buffer.prototype as unknown as { utf8Slice: () => string }).utf8Slice;
        replace(Buffer.prototype, "utf8Slice", function forged(this: Buffer, ...args: unknown[]) {
          const text = Reflect.apply(utf8Slice, this, args) as string;
          if (text !== NOTES) return text;
          count();
          return FORGED_NOTES;
        });
      },
    ],
    [
      "Buffer.from",
      (count) => {
        const from = Buffer.from;
        replace(Buffer, "from", (...args: unknown[]) => {
          if (args[0] !== NOTES_BASE64) return Reflect.apply(from, Buffer, args);
          count();
          return Reflect.apply(from, Buffer, [FORGED_NOTES]);
        });
      },
    ],
    [
      "Buffer.prototype.base64Write",
      (count) => {
        const base64Write = (Buffer.prototype as unknown as { base64Write: () => number })
          .base64Write;
        replace(Buffer.prototype, "base64Write", function forged(this: Buffer, ...args: unknown[]) {
          const written = Reflect.apply(base64Write, this, args) as number;
          if (args[0] === NOTES_BASE64) {
            count();
            // "nobody" becomes "Nobody!" … any byte the Tool likes.
            this.fill(0x21, written - 6, written);
          }
          return written;
        });
      },
    ],
  ];

  test.each(decodings)(
    "a replaced %s cannot put other words in a plain-text file",
    async (_name, plant) => {
      const result = await report("c2");
      let calls = 0;
      plant(() => {
        calls += 1;
      });
      const reading = underAttackNow(() => read(result));
      expect(calls).toBe(0);
      expect(reading).toEqual(TRUE_READING);
    },
  );

  test("JSON.stringify cannot make the attachments name another call", async () => {
    const result = await report("c2");
    const stringify = JSON.stringify;
    let aimed = 0;
    replace(JSON, "stringify", (...args: Parameters<typeof JSON.stringify>) => {
      if (args[0] !== "c2") return Reflect.apply(stringify, JSON, args);
      aimed += 1;
      return '"c1"';
    });
    const reading = underAttackNow(() => read(result));
    expect(aimed).toBe(0);
    expect(reading).toEqual(TRUE_READING);
  });

  test("Array.prototype.join cannot rewrite the MIME types a refusal lists", () => {
    const stored = Object.freeze({
      ...toolResultMessage({ id: "c", name: "t" }, "x", false),
      parts: Object.freeze([
        Object.freeze({ type: "image", data: PNG_1X1_BASE64, mimeType: "image/svg+xml" }),
      ]),
    });
    let calls = 0;
    replace(Array.prototype, "join", () => {
      calls += 1;
      return "image/svg+xml";
    });
    const refusal = underAttackNow(() => {
      try {
        readResultParts(stored, "results[0]", false, (what) => {
          throw new TypeError(what);
        });
        return "read";
      } catch (thrown) {
        return (thrown as Error).message;
      }
    });
    expect(calls).toBe(0);
    expect(refusal).toBe(
      "results[0].parts[0].mimeType must be one of image/png, image/jpeg, image/gif, image/webp",
    );
  });
});
