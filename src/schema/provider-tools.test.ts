import { toJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Type } from "typebox";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import * as z from "zod";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { thrownBy } from "../../test/support/schema.ts";
import { type ProviderFormat, schemaTool, toProviderTools } from "./index.ts";
import { fromTypeBox } from "./typebox.ts";

const execute = async (input: unknown) => input;
const valibotSchema = v.object({ query: v.string(), limit: v.optional(v.number()) });

/** The same arguments { query: string, limit?: number } in each library. */
const registry = new ToolRegistry([
  schemaTool({
    name: "zod_search",
    description: "Search with zod.",
    schema: z.object({ query: z.string(), limit: z.number().optional() }),
    execute,
  }),
  schemaTool({
    name: "valibot_search",
    description: "Search with valibot.",
    schema: valibotSchema,
    parameters: toJsonSchema(valibotSchema),
    execute,
  }),
  schemaTool({
    name: "arktype_search",
    description: "Search with arktype.",
    schema: type({ query: "string", "limit?": "number" }),
    execute,
  }),
  schemaTool({
    name: "typebox_search",
    description: "Search with TypeBox.",
    schema: fromTypeBox(Type.Object({ query: Type.String(), limit: Type.Optional(Type.Number()) })),
    execute,
  }),
  defineTool({
    name: "now",
    description: "The time.",
    validate: () => ({ ok: true, value: {} }),
    execute: async () => ({ now: 0 }),
  }),
]);

const SEARCH = {
  type: "object",
  properties: { query: { type: "string" }, limit: { type: "number" } },
  required: ["query"],
} as const;
// TypeBox writes `required` before `properties`; the order of keys is kept as written.
const TYPEBOX_SEARCH = {
  type: "object",
  required: ["query"],
  properties: { query: { type: "string" }, limit: { type: "number" } },
} as const;
const EMPTY = { type: "object", properties: {} } as const;
const schemas = [SEARCH, SEARCH, SEARCH, TYPEBOX_SEARCH, EMPTY] as const;
const names = ["zod_search", "valibot_search", "arktype_search", "typebox_search", "now"] as const;
const descriptions = [
  "Search with zod.",
  "Search with valibot.",
  "Search with arktype.",
  "Search with TypeBox.",
  "The time.",
] as const;

const expected: Record<ProviderFormat, unknown[]> = {
  "openai-chat": names.map((name, index) => ({
    type: "function",
    function: { name, description: descriptions[index], parameters: schemas[index] },
  })),
  "openai-responses": names.map((name, index) => ({
    type: "function",
    name,
    description: descriptions[index],
    parameters: schemas[index],
    strict: false,
  })),
  anthropic: names.map((name, index) => ({
    name,
    description: descriptions[index],
    input_schema: schemas[index],
  })),
  gemini: [
    ...names.slice(0, 4).map((name, index) => ({
      name,
      description: descriptions[index],
      parameters: {
        type: "OBJECT",
        ...(index === 3 ? { required: ["query"] } : {}),
        properties: { query: { type: "STRING" }, limit: { type: "NUMBER" } },
        ...(index === 3 ? {} : { required: ["query"] }),
      },
    })),
    // Gemini wants parameters left out for a Tool without any.
    { name: "now", description: "The time." },
  ],
  mcp: names.map((name, index) => ({
    name,
    description: descriptions[index],
    inputSchema: schemas[index],
  })),
};

const formats = Object.keys(expected) as ProviderFormat[];

describe("toProviderTools", () => {
  test("covers every format", () => {
    expect(formats).toEqual(["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"]);
  });

  test.each(formats)("%s: each Tool in the provider's shape, in registry order", (format) => {
    const tools = toProviderTools(registry, format);
    expect(tools).toEqual(expected[format]);
    expect(JSON.stringify(tools.map((tool) => Object.keys(tool)))).toBe(
      JSON.stringify(expected[format].map((tool) => Object.keys(tool as object))),
    );
  });

  test.each(formats)("%s: the result is deep-frozen", (format) => {
    const tools = toProviderTools(registry, format);
    const unfrozen: string[] = [];
    const visit = (value: unknown, path: string): void => {
      if (typeof value !== "object" || value === null) return;
      if (!Object.isFrozen(value)) unfrozen.push(path);
      for (const [key, child] of Object.entries(value)) visit(child, `${path}.${key}`);
    };
    visit(tools, "$");
    expect(tools.length).toBeGreaterThan(0);
    expect(unfrozen).toEqual([]);
  });

  test("strict mode for OpenAI chat: rewritten schemas and strict: true", () => {
    const [zodTool, , , , now] = toProviderTools(registry, "openai-chat", { strict: true });
    expect(zodTool).toEqual({
      type: "function",
      function: {
        name: "zod_search",
        description: "Search with zod.",
        parameters: {
          type: "object",
          properties: { query: { type: "string" }, limit: { type: ["number", "null"] } },
          required: ["query", "limit"],
          additionalProperties: false,
        },
        strict: true,
      },
    });
    expect(now?.function.parameters).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  test("strict mode for OpenAI responses: strict: true on every Tool", () => {
    const tools = toProviderTools(registry, "openai-responses", { strict: true });
    expect(tools.map((tool) => tool.strict)).toEqual([true, true, true, true, true]);
    expect(tools[3]?.parameters).toEqual({
      type: "object",
      required: ["query", "limit"],
      properties: { query: { type: "string" }, limit: { type: ["number", "null"] } },
      additionalProperties: false,
    });
  });

  test("strict mode names the Tool and the construct that prevents it", () => {
    const loose = new ToolRegistry([
      schemaTool({
        name: "loose",
        description: "Loose.",
        schema: z.looseObject({ a: z.string() }),
        execute,
      }),
    ]);
    expect(() => toProviderTools(loose, "openai-responses", { strict: true })).toThrow(
      'Tool "loose": OpenAI strict mode cannot express a schema for additionalProperties (map-like objects) (at #)',
    );
    // Without strict mode the same Tool exports as it is.
    expect(toProviderTools(loose, "openai-responses")[0]?.parameters).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      additionalProperties: {},
    });
  });

  test("an empty registry gives an empty frozen list", () => {
    const tools = toProviderTools(new ToolRegistry(), "mcp");
    expect(tools).toEqual([]);
    expect(Object.isFrozen(tools)).toBe(true);
  });
});

describe("toProviderTools refuses", () => {
  test.each<[string, () => unknown, string]>([
    [
      "a registry look-alike",
      () => toProviderTools({ names: [] } as never, "mcp"),
      "needs a ToolRegistry",
    ],
    [
      "an object made from ToolRegistry.prototype",
      () => toProviderTools(Object.create(ToolRegistry.prototype) as ToolRegistry, "mcp"),
      "needs a ToolRegistry",
    ],
    [
      "an unknown format",
      () => toProviderTools(registry, "cohere" as never),
      "format must be one of",
    ],
    [
      "an inherited format name",
      () => toProviderTools(registry, "toString" as never),
      "format must be one of",
    ],
    [
      "strict mode for Anthropic",
      () => toProviderTools(registry, "anthropic", { strict: true } as never),
      "applies to the OpenAI formats, not anthropic",
    ],
    [
      "a strict option that is not a boolean",
      () => toProviderTools(registry, "openai-chat", { strict: "yes" } as never),
      "strict must be a boolean",
    ],
    [
      "options that are not an object",
      () => toProviderTools(registry, "mcp", 1 as never),
      "must be an object",
    ],
  ])("INVALID_PROVIDER_REQUEST for %s", (_label, run, text) => {
    const error = thrownBy(run);
    expect(error.code).toBe("INVALID_PROVIDER_REQUEST");
    expect(error.message).toContain(text);
  });

  test.each(formats)("%s: a name that breaks the rule names the Tool and the rule", (format) => {
    const bad = new ToolRegistry([
      defineTool({
        name: "read file",
        description: "Read.",
        validate: () => ({ ok: true, value: {} }),
        execute,
      }),
    ]);
    const error = thrownBy(() => toProviderTools(bad, format));
    expect(error.code).toBe("INVALID_TOOL_NAME");
    expect(error.toolName).toBe("read file");
    expect(error.message).toMatch(
      /^Tool "read file": name breaks the (OpenAI|Anthropic|Gemini|MCP) rule \^/,
    );
  });

  test.each(formats)("%s: a root that is not an object is refused", (format) => {
    const arrayRoot = new ToolRegistry([
      defineTool({
        name: "list",
        description: "List.",
        validate: () => ({ ok: true, value: {} }),
        execute,
        parameters: { anyOf: [{ type: "object" }, { type: "object" }] },
      }),
    ]);
    const error = thrownBy(() => toProviderTools(arrayRoot, format));
    expect(error.code).toBe("UNSUPPORTED_SCHEMA_CONSTRUCT");
    expect(error.message).toBe(
      'Tool "list": parameters must have type "object" at the root (arguments are always a JSON object)',
    );
  });
});
