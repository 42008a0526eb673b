/**
 * `toolContent(parts)`: a malformed list is a TypeError naming the part and
 * field; fields are read as own data, never through a getter or a trap;
 * bytes are copied when the value is built; every binary part is checked
 * against the signature of the type it declares.
 */
import { describe, expect, test } from "vitest";
import {
  base64,
  MPEG_FRAME,
  PNG_1X1,
  PNG_1X1_BASE64,
  SIGNED_SAMPLES,
} from "../../../test/support/parts.ts";
import {
  TOOL_CONTENT_MAX_PARTS,
  TOOL_CONTENT_MIME_TYPES,
  type ToolContentPart,
  toolContent,
} from "../../src/index.ts";
import { builtToolContent } from "../../src/tool-content.ts";

/** The verdict the boundary keeps for the one binary part of `part`. */
function problemOf(part: ToolContentPart): string | undefined {
  const [built] = builtToolContent(toolContent([part])) ?? [];
  if (built === undefined || built.type === "text") throw new Error("no binary part");
  return built.problem;
}

const KINDS = Object.entries(TOOL_CONTENT_MIME_TYPES).flatMap(([type, mimeTypes]) =>
  mimeTypes.map((mimeType) => [type as "image" | "audio" | "file", mimeType] as const),
);

describe("the value", () => {
  test("is frozen, shows a summary of each part without bytes, and is recognised by its brand", () => {
    const value = toolContent([
      { type: "text", text: "chart:" },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
      {
        type: "file",
        data: "JVBERi0xLjcKJcK1CjEgMCBvYmoK",
        mimeType: "application/pdf",
        name: "a.pdf",
      },
    ]);
    expect(Object.isFrozen(value) && Object.isFrozen(value.parts)).toBe(true);
    expect(value.parts).toEqual([
      { type: "text", text: "chart:" },
      { type: "image", mimeType: "image/png", byteLength: 70 },
      { type: "file", mimeType: "application/pdf", byteLength: 21, name: "a.pdf" },
    ]);
    expect(builtToolContent(value)).toHaveLength(3);
    // A copy with the same fields is data, not content.
    expect(builtToolContent({ ...value })).toBeUndefined();
    expect(builtToolContent(new Proxy(value, {}))).toBeUndefined();
  });

  test("an empty list is an empty value", () => {
    expect(toolContent([]).parts).toEqual([]);
  });
});

describe("a malformed list is a TypeError naming what was wrong", () => {
  const many = Array.from({ length: TOOL_CONTENT_MAX_PARTS + 1 }, () => ({
    type: "text" as const,
    text: "",
  }));
  test.each([
    ["not an array", { 0: { type: "text", text: "x" } }, "parts must be an array (not a Proxy)"],
    ["a Proxy of an array", new Proxy([], {}), "parts must be an array (not a Proxy)"],
    ["too many parts", many, "parts has 1001 entries; at most 1000 are accepted"],
    [
      "a hole",
      Object.assign(new Array(2), { 1: { type: "text", text: "x" } }),
      "parts[0] must be an object (not a Proxy)",
    ],
    ["a string part", ["hello"], "parts[0] must be an object (not a Proxy)"],
    ["a Proxy part", [new Proxy({}, {})], "parts[0] must be an object (not a Proxy)"],
    [
      "an unknown type",
      [{ type: "video" }],
      'parts[0].type must be "text", "image", "audio" or "file"',
    ],
    ["text that is not a string", [{ type: "text", text: 1 }], "parts[0].text must be a string"],
    [
      "data of another kind",
      [{ type: "image", data: [137, 80], mimeType: "image/png" }],
      "parts[0].data must be a Uint8Array or a base64 string",
    ],
    [
      "an ArrayBuffer as data",
      [{ type: "image", data: PNG_1X1.buffer, mimeType: "image/png" }],
      "parts[0].data must be a Uint8Array or a base64 string",
    ],
    [
      "a Proxy of a Uint8Array as data",
      [{ type: "image", data: new Proxy(PNG_1X1, {}), mimeType: "image/png" }],
      "parts[0].data must be a Uint8Array or a base64 string",
    ],
    ["no MIME type", [{ type: "image", data: PNG_1X1 }], "parts[0].mimeType must be a string"],
    [
      "a name on an image",
      [{ type: "image", data: PNG_1X1, mimeType: "image/png", name: "x.png" }],
      "parts[0].name is only for file parts",
    ],
    [
      "a name with a line feed",
      [{ type: "file", data: "aGk=", mimeType: "text/plain", name: "a\nb" }],
      "parts[0].name must not hold control characters, line separators, direction controls or brackets",
    ],
    [
      "a name with a bracket",
      [{ type: "file", data: "aGk=", mimeType: "text/plain", name: "a]" }],
      "parts[0].name must not hold control characters",
    ],
    [
      "a name with a direction override",
      [{ type: "file", data: "aGk=", mimeType: "text/plain", name: "a\u202eb" }],
      "parts[0].name must not hold control characters",
    ],
    [
      "a blank name",
      [{ type: "file", data: "aGk=", mimeType: "text/plain", name: "  " }],
      "parts[0].name must not be blank",
    ],
    [
      "a name of 65 characters",
      [{ type: "file", data: "aGk=", mimeType: "text/plain", name: "n".repeat(65) }],
      "parts[0].name must have 1 to 64 characters",
    ],
    [
      "a name with a lone surrogate",
      [{ type: "file", data: "aGk=", mimeType: "text/plain", name: "a\ud800" }],
      "parts[0].name must not hold a lone surrogate",
    ],
  ])("%s", (_label, parts, message) => {
    expect(() => toolContent(parts as never)).toThrow(TypeError);
    expect(() => toolContent(parts as never)).toThrow(`toolContent: ${message}`);
  });

  test("a name of exactly 64 characters, with astral characters, is accepted", () => {
    const name = `${"n".repeat(62)}😀`;
    expect(name.length).toBe(64);
    const value = toolContent([{ type: "file", data: "aGk=", mimeType: "text/plain", name }]);
    expect(value.parts[0]).toMatchObject({ name });
  });
});

describe("nothing of the caller's runs", () => {
  test("a getter on a part or on the list is refused without running", () => {
    let reads = 0;
    const part = {
      type: "image",
      mimeType: "image/png",
      get data() {
        reads += 1;
        return PNG_1X1;
      },
    };
    expect(() => toolContent([part as never])).toThrow(
      "toolContent: parts[0].data must be a data field, not an accessor",
    );
    const list: unknown[] = [];
    Object.defineProperty(list, 0, {
      get() {
        reads += 1;
        return { type: "text", text: "x" };
      },
      enumerable: true,
    });
    expect(() => toolContent(list as never)).toThrow("toolContent: parts.0 must be a data field");
    expect(reads).toBe(0);
  });

  test("a Uint8Array subclass with hostile getters is copied by its slots: none of them runs", () => {
    let touches = 0;
    class Hostile extends Uint8Array {
      override get length(): number {
        touches += 1;
        return 1;
      }
      override get byteLength(): number {
        touches += 1;
        return 1;
      }
    }
    Object.defineProperty(Hostile, Symbol.species, {
      get() {
        touches += 1;
        throw new Error("species");
      },
    });
    const data = new Hostile(PNG_1X1.length);
    data.set(PNG_1X1);
    const value = toolContent([{ type: "image", data, mimeType: "image/png" }]);
    expect(value.parts[0]).toMatchObject({ byteLength: 70 });
    expect(touches).toBe(0);
  });

  test("a Proxy list or part runs no trap", () => {
    let traps = 0;
    const handler: ProxyHandler<object> = new Proxy(
      {},
      {
        get: () => () => {
          traps += 1;
          return undefined;
        },
      },
    );
    expect(() => toolContent(new Proxy([], handler) as never)).toThrow(TypeError);
    expect(() => toolContent([new Proxy({}, handler)] as never)).toThrow(TypeError);
    expect(traps).toBe(0);
  });
});

describe("bytes are copied when the value is built", () => {
  test("a later change to the caller's buffer changes nothing", () => {
    const bytes = PNG_1X1.slice();
    const value = toolContent([{ type: "image", data: bytes, mimeType: "image/png" }]);
    bytes.fill(0);
    const [part] = builtToolContent(value) ?? [];
    expect(part).toMatchObject({ problem: undefined, byteLength: 70 });
    expect((part as { bytes: Uint8Array }).bytes).toEqual(PNG_1X1);
  });

  test("a view into a larger buffer copies only its own bytes", () => {
    const buffer = new Uint8Array(200).fill(0xaa);
    buffer.set(PNG_1X1, 50);
    const view = buffer.subarray(50, 50 + PNG_1X1.length);
    const [part] =
      builtToolContent(toolContent([{ type: "image", data: view, mimeType: "image/png" }])) ?? [];
    expect((part as { bytes: Uint8Array }).bytes).toEqual(PNG_1X1);
    expect((part as { bytes: Uint8Array }).bytes.buffer.byteLength).toBe(70);
  });

  test("a SharedArrayBuffer-backed view is copied into memory of its own", () => {
    const shared = new Uint8Array(new SharedArrayBuffer(100), 10, PNG_1X1.length);
    shared.set(PNG_1X1);
    const [part] =
      builtToolContent(toolContent([{ type: "image", data: shared, mimeType: "image/png" }])) ?? [];
    shared.fill(1);
    const copy = (part as { bytes: Uint8Array }).bytes;
    expect(copy).toEqual(PNG_1X1);
    expect(copy.buffer).toBeInstanceOf(ArrayBuffer);
  });

  test("a Buffer is a Uint8Array", () => {
    const value = toolContent([
      { type: "image", data: Buffer.from(PNG_1X1), mimeType: "image/png" },
    ]);
    expect(value.parts[0]).toMatchObject({ byteLength: 70 });
  });
});

describe("every signature", () => {
  test("the samples cover every supported type", () => {
    expect(KINDS.length).toBe(10);
    expect(Object.keys(SIGNED_SAMPLES).sort()).toEqual(KINDS.map(([, mime]) => mime).sort());
  });

  test.each(KINDS)(
    "a %s declared %s passes with its own bytes, as bytes and as base64",
    (type, mimeType) => {
      const bytes = SIGNED_SAMPLES[mimeType] as Uint8Array;
      expect(problemOf({ type, data: bytes, mimeType } as ToolContentPart)).toBeUndefined();
      expect(problemOf({ type, data: base64(bytes), mimeType } as ToolContentPart)).toBeUndefined();
    },
  );

  test("an MP3 that starts with a bare frame header passes", () => {
    expect(problemOf({ type: "audio", data: MPEG_FRAME, mimeType: "audio/mpeg" })).toBeUndefined();
  });

  test.each(KINDS)(
    "a %s declared %s is refused with another type's bytes, naming both",
    (type, mimeType) => {
      const other = mimeType === "image/png" ? "application/pdf" : "image/png";
      const problem = problemOf({
        type,
        data: SIGNED_SAMPLES[other] as Uint8Array,
        mimeType,
      } as ToolContentPart);
      expect(problem).toBe(`declared ${mimeType}, but the bytes are ${other}`);
    },
  );

  test.each([
    [
      "bytes of no known format",
      "image/png",
      Uint8Array.from([1, 2, 3, 4]),
      "declared image/png, but the bytes are not image/png",
    ],
    [
      "a PNG cut in its signature",
      "image/png",
      PNG_1X1.subarray(0, 7),
      "declared image/png, but the bytes are not image/png",
    ],
    [
      "text that is not UTF-8",
      "text/plain",
      Uint8Array.from([0x61, 0xc3, 0x28]),
      "declared text/plain, but the bytes are not UTF-8",
    ],
    [
      "text with a NUL byte",
      "text/plain",
      Uint8Array.from([0x61, 0, 0x62]),
      "declared text/plain, but the bytes hold a NUL byte",
    ],
    ["an empty part", "image/png", new Uint8Array(0), "it is empty"],
  ])("%s is refused", (_label, mimeType, data, reason) => {
    const type = mimeType.startsWith("image") ? "image" : "file";
    expect(problemOf({ type, data, mimeType } as ToolContentPart)).toBe(reason);
  });

  test.each([
    ["image", "image/svg+xml", "image/svg+xml is not a supported image type"],
    ["image", "application/pdf", "application/pdf is not a supported image type"],
    ["audio", "audio/mp3", "audio/mp3 is not a supported audio type"],
    ["file", "Text/Plain", "its MIME type is not a supported file type"],
    ["file", "x".repeat(100), "its MIME type is not a supported file type"],
  ] as const)(
    "a %s declared %j is refused, naming the type only when it is plain",
    (type, mimeType, reason) => {
      expect(problemOf({ type, data: PNG_1X1, mimeType } as ToolContentPart)).toBe(reason);
    },
  );

  test.each([
    [
      "truncated",
      PNG_1X1_BASE64.slice(0, -1),
      "its base64 data is invalid: its length, 95, is not a multiple of 4",
    ],
    [
      "padded twice over",
      `${PNG_1X1_BASE64}==`,
      "its base64 data is invalid: its length, 98, is not a multiple of 4",
    ],
    [
      "with a line break",
      `${PNG_1X1_BASE64.slice(0, 40)}\n${PNG_1X1_BASE64.slice(40, -1)}`,
      "its base64 data is invalid: character 41 is not in the base64 alphabet",
    ],
  ])("base64 that is %s is refused with its reason", (_label, data, reason) => {
    expect(problemOf({ type: "image", data, mimeType: "image/png" })).toBe(reason);
  });

  test("an empty base64 string is an empty part", () => {
    expect(problemOf({ type: "image", data: "", mimeType: "image/png" })).toBe("it is empty");
  });
});
