/**
 * `toolbound call --max-output-characters <n> --truncate <strategy> --format
 * <format>`, through the built binary: the flags reach every call, win over
 * the tools module's own options field by field, and a bad value is a usage
 * error. Without `--format`, a string result's content is its own text.
 */
import { describe, expect, test } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
} from "../../course/src/index.ts";
import { EXAMPLES, lines, run, useBuiltFixtures } from "../../test/support/cli.ts";

const fixture = useBuiltFixtures();

/** 20,000 characters of text from the example `repeat` Tool. */
const TWENTY_KB_CALL = '{"name":"repeat","arguments":{"text":"0123456789","times":2000}}';
const TWENTY_KB = "0123456789".repeat(2_000);
const LOG_CALL = '{"name":"log"}';
const LAST_LINE = "line 5000";
const LOG = Array.from({ length: 5_000 }, (_, index) => `line ${index + 1}`).join("\n");

/** Runs `toolbound call` and answers the content of its only result line. */
async function content(args: readonly string[], input = ""): Promise<string> {
  const { code, stdout, stderr } = await run(["call", ...args], input);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(lines(stdout)).toHaveLength(1);
  return JSON.parse(stdout).content as string;
}

/** A cut text fills its cap, to within the one character a marker's longer count may need. */
function expectFilled(text: string, cap: number): void {
  expect([...text].length).toBeLessThanOrEqual(cap);
  expect([...text].length).toBeGreaterThan(cap - 2);
}

describe.concurrent("the flags reach the call", { timeout: 60_000 }, () => {
  test("without them a 20 KB output is cut at the course's cap, as text, saying what was kept", async () => {
    const text = await content([EXAMPLES, TWENTY_KB_CALL]);
    expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text).toMatch(
      /^0123456789.*\n\[Tool output truncated: 4041 of 20000 characters kept\]$/s,
    );
  });

  test("--format json: the course's JSON text and marker, byte for byte", async () => {
    const text = await content([EXAMPLES, "--format", "json", TWENTY_KB_CALL]);
    expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text.startsWith('"0123456789')).toBe(true);
    expect(text.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
  });

  test("--max-output-characters 50000: a 20 KB output arrives whole", async () => {
    const text = await content([EXAMPLES, "--max-output-characters", "50000", TWENTY_KB_CALL]);
    expect(text === TWENTY_KB).toBe(true);
  });

  test("--truncate tail: a long log arrives as its tail, the marker first", async () => {
    const text = await content([fixture("log.mjs"), "--truncate", "tail", LOG_CALL]);
    expectFilled(text, COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text).toMatch(/^\[Tool output truncated: \d+ of 48892 characters kept\]\n/);
    expect(text.endsWith(LAST_LINE)).toBe(true);
  });

  test("both flags, before the module, apply to every JSON Lines call", async () => {
    const { code, stdout } = await run(
      ["call", "--max-output-characters=20000", "--truncate=head-and-tail", fixture("log.mjs")],
      `${TWENTY_KB_CALL}\n${LOG_CALL}\n`,
    );
    expect(code).toBe(0);
    const [big, log] = lines(stdout).map((line) => JSON.parse(line).content as string);
    expect(big).toBe(TWENTY_KB);
    expect(log?.startsWith("line 1\nline 2")).toBe(true);
    expect(log?.endsWith(LAST_LINE)).toBe(true);
    expect(log).toMatch(/\n\[Tool output truncated: \d+ of 48892 characters kept\]\n/);
    expectFilled(log ?? "", 20_000);
  });

  test("a module's registry options apply without flags", async () => {
    const text = await content([fixture("log-registry.mjs"), LOG_CALL]);
    expectFilled(text, 2_000);
    expect(text.startsWith("[Tool output truncated: ")).toBe(true);
  });

  test("--max-output-characters wins over the module's budget; its tail strategy stays", async () => {
    const text = await content([
      fixture("log-registry.mjs"),
      "--max-output-characters",
      "10000",
      LOG_CALL,
    ]);
    expectFilled(text, 10_000);
    expect(text.startsWith("[Tool output truncated: ")).toBe(true);
    expect(text.endsWith(LAST_LINE)).toBe(true);
  });

  test("--truncate head wins over the module's tail; its budget stays", async () => {
    const text = await content([fixture("log-registry.mjs"), "--truncate", "head", LOG_CALL]);
    expectFilled(text, 2_000);
    expect(text.startsWith("line 1\n")).toBe(true);
    expect(text).toMatch(/\n\[Tool output truncated: \d+ of 48892 characters kept\]$/);
  });

  test("accepts the floor, --max-output-characters 1024", async () => {
    const text = await content([fixture("log.mjs"), "--max-output-characters", "1024", LOG_CALL]);
    expectFilled(text, 1_024);
    expect(text).toMatch(/\n\[Tool output truncated: \d+ of 48892 characters kept\]$/);
  });

  test("accepts the ceiling, --max-output-characters 10000000: the whole log arrives", async () => {
    const text = await content([
      fixture("log.mjs"),
      "--max-output-characters",
      "10000000",
      LOG_CALL,
    ]);
    expect(text === LOG).toBe(true);
  });
});

describe.concurrent("parts in the JSON lines", { timeout: 60_000 }, () => {
  test("a Tool's toolContent prints its parts (base64) on its line, and the lie as a line", async () => {
    const { code, stdout, stderr } = await run(["call", fixture("media.mjs"), '{"name":"chart"}']);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.content).toBe(
      "Rendered.\n[image: image/png, 70 bytes]\n" +
        "[file omitted: declared application/pdf, but the bytes are image/png]",
    );
    expect(result.parts).toEqual([
      { type: "text", text: "Rendered." },
      { type: "image", data: expect.stringMatching(/^iVBORw0KGgo/), mimeType: "image/png" },
      {
        type: "text",
        text: "[file omitted: declared application/pdf, but the bytes are image/png]",
      },
    ]);
  });
});

describe.concurrent("bad flag values are usage errors", { timeout: 60_000 }, () => {
  const maxRule = (value: string): RegExp =>
    new RegExp(
      `^toolbound: option '--max-output-characters <n>' argument '${value}' is invalid\\. ` +
        "It must be a whole number of characters from 1024 to 10000000\\.$",
    );
  test.each([
    ["below the floor", ["--max-output-characters", "1023"], maxRule("1023")],
    ["above the ceiling", ["--max-output-characters", "10000001"], maxRule("10000001")],
    ["not a whole number", ["--max-output-characters", "50k"], maxRule("50k")],
    ["an exponent", ["--max-output-characters=1e6"], maxRule("1e6")],
    [
      "a missing value",
      ["--max-output-characters"],
      /^toolbound: option '--max-output-characters <n>' argument missing$/,
    ],
    [
      "an unknown format",
      ["--format", "yaml"],
      /^toolbound: option '--format <format>' argument 'yaml' is invalid\. Allowed choices are json, text\.$/,
    ],
    [
      "an unknown strategy",
      ["--truncate", "middle"],
      /^toolbound: option '--truncate <strategy>' argument 'middle' is invalid\. Allowed choices are head, tail, head-and-tail\.$/,
    ],
  ])(
    "%s: one line on stderr naming the flag and the rule, nothing on stdout, exit 1",
    async (_label, flags, message) => {
      const { code, stdout, stderr } = await run(["call", EXAMPLES, TWENTY_KB_CALL, ...flags]);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(lines(stderr)).toHaveLength(1);
      expect(lines(stderr)[0]).toMatch(message);
    },
  );
});

describe.concurrent("help", { timeout: 60_000 }, () => {
  test.each([
    ["call", true],
    ["mcp", true],
    ["list", false],
  ])("toolbound %s --help lists the output flags: %s", async (command, listed) => {
    const { code, stdout } = await run([command, "--help"]);
    expect(code).toBe(0);
    expect(stdout.includes("--max-output-characters <n>")).toBe(listed);
    expect(stdout.includes("--truncate <strategy>")).toBe(listed);
    // `list` has a --format of its own, for provider shapes.
    expect(stdout.includes('(choices: "json", "text")')).toBe(listed);
    if (listed) expect(stdout).toContain('(choices: "head", "tail", "head-and-tail")');
  });
});
