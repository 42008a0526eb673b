import { describe, expect, test, vi } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  NonRecoverableToolError,
  ToolRegistry,
  toolContent,
} from "../../course/src/index.ts";
import { PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../../test/support/parts.ts";

interface ToolOptions {
  readonly name: string;
  readonly description: string;
  readonly parameters: object;
  readonly strict: boolean;
  readonly errorFunction: unknown;
  readonly execute: (input: unknown, context?: unknown, details?: object) => Promise<string>;
}

// A stand-in for the SDK's tool(): records its options and names the tool as the SDK does.
const made = vi.hoisted(() => ({ options: [] as unknown[], loads: 0 }));
vi.mock("./openai-agents-module.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./openai-agents-module.ts")>()),
  loadOpenAIAgents: async () => {
    made.loads += 1;
    return {
      tool: (options: ToolOptions) => {
        made.options.push(options);
        return { ...options, type: "function", name: options.name.replace(/[^a-zA-Z0-9]/g, "_") };
      },
    };
  },
}));

const { OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA, toOpenAIAgentsTools } = await import("./index.ts");
const loadsAtImport = made.loads;

const noteParameters = {
  type: "object",
  properties: { path: { type: "string" }, note: { type: "string" } },
  required: ["path"],
} as const;

function noteTool(
  name = "annotate",
  execute = vi.fn(async (input: object) => input),
  parameters?: object,
) {
  return defineTool({
    name,
    description: "Annotate a file.",
    validate: (input) => {
      const { path, note } = input as { path?: unknown; note?: unknown };
      if (typeof path !== "string") return { ok: false, error: "path must be a string" };
      if (note !== undefined && typeof note !== "string")
        return { ok: false, error: "note must be a string" };
      return { ok: true, value: input as object };
    },
    execute,
    ...(parameters === undefined
      ? { parameters: noteParameters }
      : { parameters: parameters as never }),
  });
}

async function only(
  registry: ToolRegistry,
  callOptions?: object,
  options?: object,
): Promise<ToolOptions> {
  const tools = (await toOpenAIAgentsTools(
    registry,
    callOptions,
    options,
  )) as unknown as ToolOptions[];
  expect(tools).toHaveLength(1);
  return tools[0] as ToolOptions;
}

const details = (callId: string, signal?: AbortSignal) => ({
  toolCall: { type: "function_call", callId, name: "annotate", arguments: "{}" },
  ...(signal === undefined ? {} : { signal }),
});

describe("toOpenAIAgentsTools", () => {
  test("importing the entry loads nothing of the SDK", () => {
    expect(loadsAtImport).toBe(0);
  });

  test("makes each Tool with the SDK's tool(): our description, a mutable copy of our schema, non-strict, no error function", async () => {
    const bare = defineTool({
      name: "now",
      description: "The time.",
      validate: () => ({ ok: true, value: {} }),
      execute: async () => "noon",
    });
    const before = made.options.length;
    const tools = await toOpenAIAgentsTools(new ToolRegistry([noteTool(), bare]));
    const options = made.options.slice(before) as ToolOptions[];
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual(["annotate", "now"]);
    expect(
      options.map(({ name, description, parameters, strict, errorFunction }) => ({
        name,
        description,
        parameters,
        strict,
        errorFunction,
      })),
    ).toEqual([
      {
        name: "annotate",
        description: "Annotate a file.",
        parameters: noteParameters,
        strict: false,
        errorFunction: null,
      },
      {
        name: "now",
        description: "The time.",
        parameters: OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA,
        strict: false,
        errorFunction: null,
      },
    ]);
    expect(options.some((one) => Object.isFrozen(one.parameters))).toBe(false);
  });

  test("resolves with the SDK's structured outputs for toolContent: audio as its line, an unnamed file named", async () => {
    const wav = SIGNED_SAMPLES["audio/wav"] as Uint8Array;
    const text = SIGNED_SAMPLES["text/plain"] as Uint8Array;
    const tool = await only(
      new ToolRegistry([
        noteTool(
          "annotate",
          vi.fn(
            async (): Promise<object> =>
              toolContent([
                { type: "image", data: PNG_1X1, mimeType: "image/png" },
                { type: "audio", data: wav, mimeType: "audio/wav" },
                { type: "file", data: text, mimeType: "text/plain" },
              ]),
          ),
        ),
      ]),
    );
    expect(await tool.execute({ path: "a" }, undefined, details("call-1"))).toEqual([
      { type: "image", image: { data: PNG_1X1_BASE64, mediaType: "image/png" } },
      { type: "text", text: `[audio: audio/wav, ${wav.length} bytes]` },
      {
        type: "file",
        file: {
          data: Buffer.from(text).toString("base64"),
          mediaType: "text/plain",
          filename: "part-3.txt",
        },
      },
    ]);
  });

  test("writes text by default; a registry's own format or callOptions win", async () => {
    const lines = vi.fn(async (): Promise<object> => "a\nb" as unknown as object);
    const registry = new ToolRegistry([noteTool("annotate", lines)]);
    expect(await (await only(registry)).execute({ path: "a" }, undefined, details("c1"))).toBe(
      "a\nb",
    );
    const json = await only(registry, { format: "json" });
    expect(await json.execute({ path: "a" }, undefined, details("c2"))).toBe('"a\\u000ab"');
    const own = new ToolRegistry([noteTool("annotate", lines)], { format: "json" });
    expect(await (await only(own)).execute({ path: "a" }, undefined, details("c3"))).toBe(
      '"a\\u000ab"',
    );
  });

  test("resolves with our content for a success and for an error result alike", async () => {
    const execute = vi.fn(async (input: object) => input);
    const tool = await only(new ToolRegistry([noteTool("annotate", execute)]));
    expect(await tool.execute({ path: "a" }, undefined, details("call-1"))).toBe('{"path":"a"}');
    expect(await tool.execute({ path: 7 }, undefined, details("call-2"))).toBe(
      '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"path must be a string"}}',
    );
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("runs with the SDK's call id and signal, and a fresh signal when it passes none", async () => {
    const seen: { toolCallId: string; signal: AbortSignal }[] = [];
    const execute = vi.fn(
      async (input: object, context: { toolCallId: string; signal: AbortSignal }) => {
        seen.push(context);
        return input;
      },
    );
    const tool = await only(new ToolRegistry([noteTool("annotate", execute as never)]));
    const controller = new AbortController();
    await tool.execute({ path: "a" }, undefined, details("call-1", controller.signal));
    await tool.execute({ path: "a" }, undefined, details("call-2"));
    expect(seen.map((one) => one.toolCallId)).toEqual(["call-1", "call-2"]);
    expect(seen[0]?.signal).toBe(controller.signal);
    expect(seen[1]?.signal).toBeInstanceOf(AbortSignal);
    expect(seen[1]?.signal.aborted).toBe(false);
  });

  test("rejects with the signal's reason when cancelled, and with a registered NonRecoverableToolError", async () => {
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    const fatal = new NonRecoverableToolError("ledger is corrupt");
    const execute = vi.fn(async (input: { path: string }) => {
      if (input.path === "fatal") throw fatal;
      controller.abort(reason);
      return new Promise<never>(() => {});
    });
    const tool = await only(new ToolRegistry([noteTool("annotate", execute as never)]));
    await expect(
      tool.execute({ path: "slow" }, undefined, details("call-1", controller.signal)),
    ).rejects.toBe(reason);
    await expect(tool.execute({ path: "fatal" }, undefined, details("call-2"))).rejects.toBe(fatal);
  });

  test("rejects a call without the SDK's call details as a malformed call", async () => {
    const tool = await only(new ToolRegistry([noteTool()]));
    await expect(tool.execute({ path: "a" })).rejects.toMatchObject({ code: "INVALID_TOOL_CALL" });
  });

  test("reads the SDK's call details once each", async () => {
    const reads: string[] = [];
    const counted = {
      get toolCall() {
        reads.push("toolCall");
        return { callId: "call-1" };
      },
      get signal() {
        reads.push("signal");
        return undefined;
      },
    };
    const tool = await only(new ToolRegistry([noteTool()]));
    await tool.execute({ path: "a" }, undefined, counted);
    expect(reads.sort()).toEqual(["signal", "toolCall"]);
  });

  test("strict: the rewritten schema, marked strict, and the model's nulls for left-out fields dropped", async () => {
    const execute = vi.fn(async (input: object) => input);
    const tool = await only(new ToolRegistry([noteTool("annotate", execute)]), undefined, {
      strict: true,
    });
    expect(tool.strict).toBe(true);
    expect(tool.parameters).toEqual({
      type: "object",
      properties: { path: { type: "string" }, note: { type: ["string", "null"] } },
      required: ["path", "note"],
      additionalProperties: false,
    });
    expect(await tool.execute({ path: "a", note: null }, undefined, details("call-1"))).toBe(
      '{"path":"a"}',
    );
    expect(execute.mock.calls[0]?.[0]).toEqual({ path: "a" });
  });

  test("strict asked for but the schema cannot be rewritten: non-strict, the schema as it is, nulls left alone", async () => {
    const open = { ...noteParameters, additionalProperties: true };
    const tool = await only(new ToolRegistry([noteTool("annotate", undefined, open)]), undefined, {
      strict: true,
    });
    expect(tool.strict).toBe(false);
    expect(tool.parameters).toEqual(open);
    expect(await tool.execute({ path: "a", note: null }, undefined, details("call-1"))).toContain(
      "note must be a string",
    );
  });

  test("strict asked for but a null strict mode invites could not be dropped: non-strict", async () => {
    // `note` is optional inside an anyOf member: strict mode would make it required and nullable,
    // and the drop before validation does not follow anyOf, so the model's null would be refused.
    const nested = {
      type: "object",
      properties: {
        target: {
          anyOf: [
            {
              type: "object",
              properties: { path: { type: "string" }, note: { type: "string" } },
              required: ["path"],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ["target"],
      additionalProperties: false,
    };
    const tool = await only(
      new ToolRegistry([noteTool("annotate", undefined, nested)]),
      undefined,
      {
        strict: true,
      },
    );
    expect(tool.strict).toBe(false);
    expect(tool.parameters).toEqual(nested);
  });

  test("applies the per-call options to every call", async () => {
    const execute = vi.fn(async (input: object) => input);
    const approve = vi.fn((call: CourseToolCall) => call.id !== "call-denied");
    const tool = await only(new ToolRegistry([noteTool("annotate", execute)]), { approve });
    expect(await tool.execute({ path: "a" }, undefined, details("call-denied"))).toContain(
      "TOOL_APPROVAL_DENIED",
    );
    await tool.execute({ path: "a" }, undefined, details("call-ok"));
    expect(approve).toHaveBeenCalledTimes(2);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("refuses two Tools the SDK would give one name", async () => {
    const registry = new ToolRegistry([noteTool("a-b"), noteTool("a_b")]);
    await expect(toOpenAIAgentsTools(registry)).rejects.toThrow(
      'Tools "a-b" and "a_b" would both be named "a_b" in OpenAI Agents; rename one',
    );
  });

  test.each([
    [
      "a registry lookalike",
      { names: [], get: () => undefined },
      undefined,
      "toOpenAIAgentsTools needs a ToolRegistry",
    ],
    [
      "options that are not an object",
      new ToolRegistry(),
      1,
      "toOpenAIAgentsTools options must be an object",
    ],
    [
      "a strict that is not a boolean",
      new ToolRegistry(),
      { strict: "yes" },
      "toOpenAIAgentsTools option strict must be a boolean",
    ],
  ])(
    "refuses %s with a TypeError, before loading the SDK",
    async (_label, registry, options, message) => {
      const before = made.loads;
      await expect(
        toOpenAIAgentsTools(registry as never, undefined, options as never),
      ).rejects.toThrow(new TypeError(message));
      expect(made.loads).toBe(before);
    },
  );

  test("keeps the Tool set of the moment it was called", async () => {
    const registry = new ToolRegistry([noteTool("first")]);
    const pending = toOpenAIAgentsTools(registry);
    registry.register(noteTool("late"));
    expect((await pending).map((tool: { name: string }) => tool.name)).toEqual(["first"]);
  });
});
