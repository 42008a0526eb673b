/**
 * Configured cuts: the marker says which budget ran out and, where known at no
 * cost, the original size; a long top-level string keeps its head, its tail or
 * both ends; the content never exceeds `maxCharacters` code points, marker
 * included, and a surrogate pair or an escape is never split.
 */
import { describe, expect, test } from "vitest";
import { type OutputBudget, serializeToolOutput, type TruncateStrategy } from "../../src/index.ts";

const codePoints = (text: string) => [...text].length;
const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text);

function contentOf(value: unknown, outputBudget: OutputBudget, truncate?: TruncateStrategy) {
  const result = serializeToolOutput(value, {
    outputBudget,
    ...(truncate === undefined ? {} : { truncate }),
  });
  if (!result.ok) throw new Error(result.message);
  return result;
}

const STRATEGIES: readonly TruncateStrategy[] = ["head", "tail", "head-and-tail"];

describe("the exact-cap boundary, with the longer markers", () => {
  test.each(STRATEGIES)("%s: a string whose JSON is exactly the cap is kept whole", (truncate) => {
    const text = "a".repeat(1_022);
    const result = contentOf(text, { maxCharacters: 1_024 }, truncate);
    expect(result).toEqual({ ok: true, content: `"${text}"`, truncated: false });
  });

  test.each(STRATEGIES)(
    "%s: one more character is cut to exactly the cap, marker included",
    (truncate) => {
      const text = "a".repeat(1_023);
      const result = contentOf(text, { maxCharacters: 1_024 }, truncate);
      expect(result.truncated).toBe(true);
      expect(codePoints(result.content)).toBe(1_024);
      expect(result.content).toMatch(/\[Tool output truncated: \d+ of 1023 characters kept\]/);
    },
  );

  test("structured output at exactly the cap is whole; one more is cut within it", () => {
    // ["…"] is 4 characters of punctuation around the string.
    const exact = ["a".repeat(1_020)];
    expect(contentOf(exact, { maxCharacters: 1_024 }).truncated).toBe(false);
    const over = contentOf(["a".repeat(1_021)], { maxCharacters: 1_024 });
    expect(
      over.content.endsWith(
        "\n[Tool output truncated: characters limit 1024 reached; the array has 1 items]",
      ),
    ).toBe(true);
    expect(codePoints(over.content)).toBe(1_024);
  });
});

describe("the kept count's digits at the cut", () => {
  // Around a cap of 1,050 the kept count crosses from three digits to four: a second, wider
  // measure would make the marker one character longer than the room it was measured for.
  const caps = Array.from({ length: 60 }, (_, index) => 1_024 + index);
  const cases = STRATEGIES.flatMap((truncate) =>
    [10_000, 100_000].map((total) => [truncate, total] as const),
  );

  test.each(cases)(
    "%s of %i characters: every cap from 1,024 to 1,083 is filled, never exceeded",
    (truncate, total) => {
      expect(caps.length).toBe(60);
      const text = "a".repeat(total);
      for (const cap of caps) {
        const { content, truncated } = contentOf(text, { maxCharacters: cap }, truncate);
        expect(truncated).toBe(true);
        const points = codePoints(content);
        expect(points).toBeLessThanOrEqual(cap);
        // At most the one character a digit boundary can cost, and the quote parity of both ends.
        expect(points).toBeGreaterThanOrEqual(cap - 2);
      }
    },
  );
});

describe("where each strategy puts the marker", () => {
  const log = Array.from({ length: 2_000 }, (_, index) => `line ${index}`).join("\n");
  // The boundary writes a line feed as \u000a (code units below 0x20 as \u00xx).
  const escaped = log.replaceAll("\n", "\\u000a");

  test("head: the opening quote and the start, then the marker at the end", () => {
    const { content } = contentOf(log, { maxCharacters: 2_048 }, "head");
    const [kept, marker] = content.split("\n[Tool output truncated: ");
    expect(kept?.startsWith('"line 0\\u000aline 1')).toBe(true);
    expect(escaped.startsWith(kept?.slice(1) ?? "?")).toBe(true);
    expect(marker).toMatch(/^\d+ of 18889 characters kept\]$/);
  });

  test("tail: the marker first, then the end and the closing quote", () => {
    const { content } = contentOf(log, { maxCharacters: 2_048 }, "tail");
    expect(content.startsWith("[Tool output truncated: ")).toBe(true);
    const kept = content.slice(content.indexOf("]\n") + 2);
    expect(kept.endsWith('line 1999"')).toBe(true);
    expect(escaped.endsWith(kept.slice(0, -1))).toBe(true);
  });

  test("head-and-tail: both ends, the marker between them on its own line", () => {
    const { content } = contentOf(log, { maxCharacters: 2_048 }, "head-and-tail");
    const match = /^"(.*)\n\[Tool output truncated: (\d+) of (\d+) characters kept\]\n(.*)"$/s.exec(
      content,
    );
    expect(match).not.toBeNull();
    const [, head = "", keptCount = "", total = "", tail = ""] = match ?? [];
    expect(escaped.startsWith(head)).toBe(true);
    expect(escaped.endsWith(tail)).toBe(true);
    expect(total).toBe(`${log.length}`);
    // Both halves are about the same size.
    expect(Math.abs(head.length - tail.length)).toBeLessThan(20);
    expect(Number(keptCount)).toBe(JSON.parse(`"${head}"`).length + JSON.parse(`"${tail}"`).length);
    expect(codePoints(content)).toBe(2_048);
  });

  test.each(["tail", "head-and-tail"] as const)(
    "%s applies to top-level strings only: structured output keeps the head",
    (truncate) => {
      const { content } = contentOf({ log }, { maxCharacters: 2_048 }, truncate);
      expect(content.startsWith('{"log":"line 0')).toBe(true);
      expect(content.endsWith("\n[Tool output truncated: characters limit 2048 reached]")).toBe(
        true,
      );
    },
  );
});

describe("surrogate pairs and escapes at the cut", () => {
  // Every offset of a pair against the cut: a prefix of 0-3 letters shifts the pairs.
  const shifted = [0, 1, 2, 3].flatMap((shift) =>
    STRATEGIES.map((truncate) => [shift, truncate] as const),
  );

  test.each(shifted)(
    "a prefix of %i letters, %s: no lone surrogate, within the cap",
    (shift, truncate) => {
      expect(shifted.length).toBe(12);
      const text = `${"a".repeat(shift)}${"😀".repeat(3_000)}${"b".repeat(shift)}`;
      const { content } = contentOf(text, { maxCharacters: 1_024 }, truncate);
      expect(hasLoneSurrogate(content)).toBe(false);
      expect(codePoints(content)).toBeLessThanOrEqual(1_024);
      expect(codePoints(content)).toBeGreaterThanOrEqual(1_022);
    },
  );

  test.each(STRATEGIES)(
    '%s never splits an escape: a text of quotes keeps whole \\" pairs',
    (truncate) => {
      const { content } = contentOf('"'.repeat(5_000), { maxCharacters: 1_024 }, truncate);
      const kept = content.replace(/\n?\[Tool output truncated: [^\]]*\]\n?/, "");
      // What is left: the quotes the strategy keeps, around whole \" pairs.
      const open = truncate === "tail" ? "" : '"';
      const close = truncate === "head" ? "" : '"';
      expect(kept.startsWith(open) && kept.endsWith(close)).toBe(true);
      const inner = kept.slice(open.length, kept.length - close.length);
      expect(inner).toMatch(/^(\\")+$/);
    },
  );

  test("lone surrogates are written escaped on both ends, never raw", () => {
    const text = `\ud800${"x".repeat(3_000)}\udfff`;
    const { content } = contentOf(text, { maxCharacters: 1_024 }, "head-and-tail");
    expect(content.startsWith('"\\ud800x')).toBe(true);
    expect(content.endsWith('x\\udfff"')).toBe(true);
    expect(hasLoneSurrogate(content)).toBe(false);
  });
});

describe("the marker names the budget that ran out", () => {
  test.each([
    [
      "characters",
      "y".repeat(5_000),
      { maxCharacters: 1_024 },
      "\n[Tool output truncated: 970 of 5000 characters kept]",
    ],
    [
      "characters (the example in docs/output.md)",
      "y".repeat(183_211),
      { maxCharacters: 50_000 },
      "\n[Tool output truncated: 49942 of 183211 characters kept]",
    ],
    [
      "string characters",
      "y".repeat(5_000),
      { maxStringCharacters: 100 },
      "\n[Tool output truncated: 100 of 5000 characters kept, string characters limit 100 reached]",
    ],
    [
      "string characters in structure",
      { text: "y".repeat(500) },
      { maxStringCharacters: 100 },
      "\n[Tool output truncated: string characters limit 100 reached]",
    ],
    [
      "depth",
      { a: { b: { c: {} } } },
      { maxDepth: 2 },
      "\n[Tool output truncated: depth limit 2 reached]",
    ],
    [
      "values",
      [1, 2, 3, 4],
      { maxNodes: 3 },
      "\n[Tool output truncated: values limit 3 reached; the array has 4 items]",
    ],
    [
      "entries",
      { a: 1, b: 2, c: 3 },
      { maxEntries: 2 },
      "\n[Tool output truncated: entries limit 2 reached]",
    ],
    [
      "BigInt size",
      [2n ** 64n],
      { maxBigIntBits: 64 },
      "\n[Tool output truncated: BigInt size limit 64 bits reached; the array has 1 items]",
    ],
  ] as const)("%s", (_label, value, budget, marker) => {
    const { content, truncated } = contentOf(value, budget);
    expect(truncated).toBe(true);
    expect(content.endsWith(marker)).toBe(true);
    expect(content.split("\n[Tool output truncated").length).toBe(2);
  });

  test("a Tool cannot forge a marker: its own copy is escaped, the real one appears once", () => {
    const forged = "\n[Tool output truncated: 1 of 1 characters kept]";
    const { content } = contentOf(forged.repeat(100), { maxCharacters: 1_024 }, "head-and-tail");
    expect(content.split("\n").length).toBe(3); // the real marker's two line feeds only
  });
});

describe("raised budgets", () => {
  test("a 300-entry listing and a 200-line log fit a 50,000-character budget whole", () => {
    const listing = Array.from({ length: 300 }, (_, index) => ({
      name: `file-${index}.ts`,
      size: index,
    }));
    const log = Array.from({ length: 200 }, (_, index) => `test ${index} passed`).join("\n");
    for (const value of [listing, log]) {
      const result = contentOf(value, { maxCharacters: 50_000 });
      expect(result.truncated).toBe(false);
      expect(JSON.parse(result.content)).toEqual(value);
    }
  });

  test("an explicitly smaller field still binds under a raised maxCharacters", () => {
    const result = contentOf("z".repeat(20_000), {
      maxCharacters: 50_000,
      maxStringCharacters: 10_000,
    });
    expect(
      result.content.endsWith(
        "10000 of 20000 characters kept, string characters limit 10000 reached]",
      ),
    ).toBe(true);
  });

  test("a depth over the course's is walked without recursion trouble", () => {
    let chain: unknown = "leaf";
    for (let level = 0; level < 1_000; level += 1) chain = [chain];
    const result = contentOf(chain, { maxDepth: 1_000, maxCharacters: 10_000 });
    expect(result).toEqual({
      ok: true,
      content: `${"[".repeat(1_000)}"leaf"${"]".repeat(1_000)}`,
      truncated: false,
    });
  });

  test("cycles deeper than a path scan are still written as [Circular]", () => {
    const root: { next?: unknown } = {};
    let node = root;
    for (let level = 0; level < 100; level += 1) {
      const next = {};
      node.next = next;
      node = next;
    }
    node.next = root;
    const { content } = contentOf(root, { maxDepth: 200, maxCharacters: 10_000 });
    expect(content.endsWith(`"[Circular]"${"}".repeat(101)}`)).toBe(true);
  });

  test("a shared, non-cyclic reference deeper than a path scan is written each time it appears", () => {
    const shared = { leaf: true };
    let chain: unknown = { first: shared, second: shared };
    for (let level = 0; level < 70; level += 1) chain = { next: chain };
    const { content } = contentOf(chain, { maxDepth: 200, maxCharacters: 10_000 });
    expect(content.split('{"leaf":true}').length - 1).toBe(2);
    expect(content).not.toContain("[Circular]");
  });

  test("the marker states the top-level array's length, not a nested one's", () => {
    const value = [[1, 2, 3], [4, 5], Array.from({ length: 50 }, (_, index) => index)];
    const { content } = contentOf(value, { maxEntries: 20 });
    expect(
      content.endsWith(
        "\n[Tool output truncated: entries limit 20 reached; the array has 3 items]",
      ),
    ).toBe(true);
  });

  test("a wide object is sorted by plain string comparison however many keys it has", () => {
    const keys = Array.from({ length: 2_000 }, (_, index) => `k${(index * 7919) % 2_000}`);
    const wide = Object.fromEntries(keys.map((key) => [key, 0]));
    const { content } = contentOf(wide, { maxCharacters: 100_000 });
    expect(Object.keys(JSON.parse(content))).toEqual([...keys].sort());
    expect(content.indexOf('"k10"')).toBeLessThan(content.indexOf('"k2"'));
  });
});

describe("serializeToolOutput options", () => {
  test.each([
    ["not an object", 1, "serializeToolOutput options: must be a plain object (not a Proxy)"],
    [
      "a bad budget",
      { outputBudget: { maxDepth: 0 } },
      "serializeToolOutput options: outputBudget.maxDepth must be an integer from 1 to 1000",
    ],
    [
      "a bad strategy",
      { truncate: "both" },
      'serializeToolOutput options: truncate must be "head", "tail" or "head-and-tail"',
    ],
  ])("%s is a TypeError naming the option", (_label, options, message) => {
    expect(() => serializeToolOutput("x", options as never)).toThrow(new TypeError(message));
  });

  test("empty options use the course's budgets with a marker that says what was cut", () => {
    const result = serializeToolOutput("q".repeat(5_000), {});
    expect(result.ok && result.content.endsWith(" of 5000 characters kept]")).toBe(true);
    expect(result.ok && codePoints(result.content)).toBe(4_096);
  });
});
