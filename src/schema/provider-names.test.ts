import { describe, expect, test } from "vitest";
import {
  assertToolName,
  PROVIDER_NAME_RULES,
  type ProviderFormat,
  SchemaToolError,
} from "./index.ts";

function nameError(name: string, format: ProviderFormat): SchemaToolError | undefined {
  try {
    assertToolName(name, format);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaToolError);
    return error as SchemaToolError;
  }
  return undefined;
}

describe("provider name rules", () => {
  test.each<[ProviderFormat, string, boolean]>([
    ["openai-chat", "a".repeat(64), true],
    ["openai-chat", "a".repeat(65), false],
    ["openai-responses", "read_file-2", true],
    ["openai-responses", "read.file", false],
    ["openai-chat", "", false],
    ["openai-chat", "read file", false],
    ["openai-chat", "naïve", false],
    ["openai-chat", "read\n", false],
    ["anthropic", "a".repeat(128), true],
    ["anthropic", "a".repeat(129), false],
    ["anthropic", "fs.read", false],
    ["gemini", "a".repeat(64), true],
    ["gemini", "a".repeat(65), false],
    ["gemini", "_private", true],
    ["gemini", "ns:fs.read-file", true],
    ["gemini", "1st", false],
    ["gemini", "-dash", false],
    ["mcp", "a".repeat(128), true],
    ["mcp", "a".repeat(129), false],
    ["mcp", "fs.read_file-2", true],
    ["mcp", "1st", true],
    ["mcp", "ns:read", false],
    ["mcp", "fs/read", false],
    ["mcp", "", false],
  ])("%s accepts %j: %s", (format, name, accepted) => {
    expect(nameError(name, format) === undefined).toBe(accepted);
  });

  test("the error names the Tool and the rule", () => {
    const error = nameError("read file", "openai-chat");
    expect(error?.code).toBe("INVALID_TOOL_NAME");
    expect(error?.toolName).toBe("read file");
    expect(error?.message).toBe(
      'Tool "read file": name breaks the OpenAI rule ^[a-zA-Z0-9_-]{1,64}$ (1 to 64 characters, each a letter, digit, underscore or hyphen)',
    );
  });

  test("a hostile name is quoted and cut in the message", () => {
    const error = nameError(`x"\n${"y".repeat(500)}`, "mcp");
    expect(error?.message.startsWith('Tool "x\\"\\nyyy')).toBe(true);
    expect(error?.message.length).toBeLessThan(250);
  });

  // Each once crashed with "Cannot read properties of undefined", or (an
  // inherited key, no pattern) accepted every name.
  test.each<[string, unknown, string]>([
    ["an unknown format", "cohere", '"cohere"'],
    ["an inherited key", "constructor", '"constructor"'],
    ["another inherited key", "__proto__", '"__proto__"'],
    ["a format in the wrong case", "OpenAI-Chat", '"OpenAI-Chat"'],
    ["a missing format", undefined, "undefined"],
    ["null", null, "null"],
    ["a rule object", PROVIDER_NAME_RULES.mcp, "object"],
  ])("%s as the format is INVALID_PROVIDER_REQUEST naming the formats", (_label, format, got) => {
    const error = nameError("read_file", format as ProviderFormat);
    expect(error?.code).toBe("INVALID_PROVIDER_REQUEST");
    expect(error?.message).toBe(
      `assertToolName format must be one of openai-chat, openai-responses, anthropic, gemini, mcp; found ${got}`,
    );
  });

  test("a hostile format is quoted and cut in the message", () => {
    const error = nameError("read_file", `x"\n${"y".repeat(500)}` as ProviderFormat);
    expect(error?.message).toContain('found "x\\"\\nyyy');
    expect(error?.message.length).toBeLessThan(250);
  });

  // A RegExp test turns its argument into a string: `undefined` would pass as "undefined".
  test.each<[string, unknown, string]>([
    ["undefined", undefined, "undefined"],
    ["a number", 42, "number"],
    ["an array holding a valid name", ["read_file"], "object"],
    ["null", null, "null"],
  ])("a name that is %s is INVALID_TOOL_NAME, not a pass", (_label, name, got) => {
    const error = nameError(name as string, "mcp");
    expect(error?.code).toBe("INVALID_TOOL_NAME");
    expect(error?.toolName).toBeUndefined();
    expect(error?.message).toBe(`Tool name must be a string to meet the MCP rule; found ${got}`);
  });

  test("the rules are frozen", () => {
    expect(Object.isFrozen(PROVIDER_NAME_RULES)).toBe(true);
    expect(Object.isFrozen(PROVIDER_NAME_RULES.gemini)).toBe(true);
  });
});
