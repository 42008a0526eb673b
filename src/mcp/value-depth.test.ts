/**
 * Deep values against schemas that refer to themselves: Ajv's code for a
 * `$ref` is a function call, so such a schema recurses once per level of the
 * value, and `uniqueItems` writes out each item whole. A server's structured
 * content is bounded to MAX_CHECKED_DEPTH levels before Ajv runs on it
 * (before, 10,000 levels ran the engine out of stack), and a check that runs
 * out of stack anyway (chains of `$ref`s at every level) is answered in words,
 * with the fault where it lies.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { type AnyCourseTool, executeToolCall, ToolRegistry } from "../../course/src/index.ts";
import { type ListedTool, useScriptedServers } from "../../test/support/mcp-client.ts";
import { countSteps } from "../../test/support/step-counter.ts";
import { fromMcpClient } from "./index.ts";
import {
  compileArgumentCheck,
  compileOutputCheck,
  compileValueCheck,
  loadAjv,
} from "./json-schema-check.ts";
import { MAX_CHECKED_DEPTH, nestsDeeperThan } from "./value-depth.ts";

const scripted = useScriptedServers();
const signal = new AbortController().signal;
const ajv = await loadAjv();

afterEach(() => {
  vi.restoreAllMocks();
});

/** `{ next: { next: … {} } }`, `levels` objects deep. */
function chain(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level += 1) value = { next: value };
  return value;
}

/** A schema that applies itself at every `next`. */
const RECURSIVE = { type: "object", properties: { next: { $ref: "#" } } };

/** A schema whose every level passes through `links` definitions, each applying the next. */
function linked(links: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let link = 0; link < links; link += 1) {
    $defs[`d${link}`] =
      link === links - 1
        ? { type: "object", properties: { next: { $ref: "#/$defs/d0" } } }
        : { type: "object", allOf: [{ $ref: `#/$defs/d${link + 1}` }] };
  }
  return { $defs, $ref: "#/$defs/d0" };
}

/**
 * Calls a Tool `lookup` whose result is `structuredContent`; `steps` (a step
 * counter) is read once the Tools are defined, so that `checked` counts the
 * call's checks alone.
 */
async function callLookup(
  outputSchema: object,
  structuredContent: Record<string, unknown>,
  steps: () => number = () => 0,
) {
  const tool: ListedTool = {
    name: "lookup",
    inputSchema: { type: "object" },
    outputSchema: outputSchema as ListedTool["outputSchema"],
  };
  const { client } = await scripted([tool], async () => ({ content: [], structuredContent }));
  const { tools } = await fromMcpClient(client);
  const defined = steps();
  const result = await executeToolCall(
    new ToolRegistry(tools as readonly AnyCourseTool[]),
    { type: "toolCall", id: "c1", name: "lookup", arguments: {} },
    signal,
  );
  return { isError: result.isError, content: result.content, checked: steps() - defined };
}

describe("nestsDeeperThan", () => {
  test.each([
    ["a primitive", "text", 0, false],
    ["null", null, 0, false],
    ["an empty object at bound 0", {}, 0, true],
    ["an empty object at bound 1", {}, 1, false],
    ["an object in an object at bound 1", { a: {} }, 1, true],
    ["arrays count as levels", [1, [2]], 2, false],
    ["arrays past the bound", [[[]]], 2, true],
    ["a chain exactly at the bound", chain(MAX_CHECKED_DEPTH), MAX_CHECKED_DEPTH, false],
    ["a chain one past the bound", chain(MAX_CHECKED_DEPTH + 1), MAX_CHECKED_DEPTH, true],
  ])("%s", (_what, value, limit, expected) => {
    expect(nestsDeeperThan(value, limit)).toBe(expected);
  });

  test("takes no more containers than it is given, however wide the value", () => {
    // A thousand fields, the deep chain last: measuring stops before it reaches the chain.
    const wide: Record<string, unknown> = {};
    for (let index = 0; index < 1_000; index += 1) wide[`k${index}`] = { index };
    wide.last = chain(MAX_CHECKED_DEPTH + 10);
    const hasOwn = vi.spyOn(Object, "hasOwn");
    expect(nestsDeeperThan(wide, MAX_CHECKED_DEPTH, 20)).toBe(false);
    // The root counts as one; the 19 fields taken after it are each checked once.
    expect(hasOwn).toHaveBeenCalledTimes(19);
    expect(nestsDeeperThan(wide, MAX_CHECKED_DEPTH, 2_000)).toBe(true);
  });

  test("an array is read by index, within the same count", () => {
    const list: unknown[] = Array.from({ length: 100_000 }, (_, index) => ({ index }));
    list.push(chain(MAX_CHECKED_DEPTH + 10));
    const hasOwn = vi.spyOn(Object, "hasOwn");
    expect(nestsDeeperThan(list, MAX_CHECKED_DEPTH, 50)).toBe(false);
    expect(hasOwn).not.toHaveBeenCalled();
    expect(nestsDeeperThan(list, MAX_CHECKED_DEPTH, 200_000)).toBe(true);
  });

  test("attack: a value that holds itself stops one level past the bound", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    const hasOwn = vi.spyOn(Object, "hasOwn");
    expect(nestsDeeperThan(loop, MAX_CHECKED_DEPTH)).toBe(true);
    // Each of the levels within the bound is read once; the one past it is not read.
    expect(hasOwn).toHaveBeenCalledTimes(MAX_CHECKED_DEPTH);
  });
});

describe("structured content against an output schema that refers to itself", () => {
  test(`attack: 10,000 levels are refused before Ajv applies the schema once`, async () => {
    const steps = countSteps([ajv.draft2020]);
    const answer = await callLookup(RECURSIVE, chain(10_000), steps);
    expect(answer.isError).toBe(true);
    expect(JSON.parse(answer.content)).toEqual({
      error: {
        code: "TOOL_EXECUTION_FAILED",
        message: `the server's structured content nests over ${MAX_CHECKED_DEPTH} levels deep, too deep to check against the Tool's output schema`,
      },
    });
    // The arguments' check ({ type: "object" }) took one step; the output's none.
    expect(answer.checked).toBe(1);
  });

  test(`${MAX_CHECKED_DEPTH} levels are checked, a step for each, and the content is the output`, async () => {
    const steps = countSteps([ajv.draft2020]);
    const answer = await callLookup(RECURSIVE, chain(MAX_CHECKED_DEPTH), steps);
    expect(answer.isError).toBe(false);
    // The serializer's own depth budget (32) cuts what the model reads.
    expect(answer.content.startsWith('{"next":{"next":')).toBe(true);
    // The arguments' step, then the schema's root at each level and the $ref under it.
    expect(answer.checked).toBeGreaterThan(MAX_CHECKED_DEPTH);
  });

  test("a schema without $ref checks deep content without the bound: Ajv goes as deep as the schema", async () => {
    const steps = countSteps([ajv.draft2020]);
    const answer = await callLookup({ type: "object" }, chain(10_000), steps);
    expect(answer.isError).toBe(false);
    expect(answer.content.startsWith('{"next":{"next":')).toBe(true);
    // One step for the arguments, one for the content's root: nothing below it is visited.
    expect(answer.checked).toBe(2);
  });
});

describe("structured content against uniqueItems", () => {
  test("attack: items nested 5,000 deep are refused before each is written out", async () => {
    let item: unknown[] = [];
    for (let level = 1; level < 5_000; level += 1) item = [item];
    const answer = await callLookup(
      { type: "object", properties: { a: { type: "array", uniqueItems: true } } },
      { a: [item, 1] },
    );
    expect(answer.isError).toBe(true);
    expect(JSON.parse(answer.content)).toEqual({
      error: {
        code: "TOOL_EXECUTION_FAILED",
        message: `the server's structured content nests over ${MAX_CHECKED_DEPTH} levels deep, too deep to check against the Tool's output schema`,
      },
    });
  });
});

describe("a stack that runs out", () => {
  const deep = chain(MAX_CHECKED_DEPTH - 1);
  const schema = linked(60);

  test("arguments: the Tool's input schema is at fault (it throws, the validation fails)", () => {
    const compiled = compileArgumentCheck(ajv, schema, undefined);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(() => compiled.check(deep)).toThrow(
      "the Tool's input schema cannot check these arguments: its check runs out of the engine's stack",
    );
  });

  test.each([
    [
      "structured content",
      compileOutputCheck,
      "the server's structured content cannot be checked against the Tool's output schema: its check runs out of the engine's stack",
    ],
    [
      "the SDK validator's data",
      compileValueCheck,
      "it cannot be checked: its check runs out of the engine's stack",
    ],
  ])("%s: answered with why", (_what, compile, message) => {
    const compiled = compile(ajv, schema, undefined);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(compiled.check(deep)).toBe(message);
  });

  test("arguments are not measured again: the core refuses them past the same depth", () => {
    const compiled = compileArgumentCheck(ajv, RECURSIVE, undefined);
    if (!compiled.ok) throw new Error(compiled.reason);
    const hasOwn = vi.spyOn(Object, "hasOwn");
    // 300 levels: past the bound, but a check one $ref deep per level runs them.
    expect(compiled.check(chain(300))).toBeUndefined();
    expect(hasOwn).not.toHaveBeenCalled();
  });

  test("data past the bound, through the SDK validator's check", () => {
    const compiled = compileValueCheck(ajv, RECURSIVE, undefined);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(compiled.check(chain(MAX_CHECKED_DEPTH + 1))).toBe(
      `it nests over ${MAX_CHECKED_DEPTH} levels deep, too deep to check`,
    );
  });
});
