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

  test("the rules are frozen", () => {
    expect(Object.isFrozen(PROVIDER_NAME_RULES)).toBe(true);
    expect(Object.isFrozen(PROVIDER_NAME_RULES.gemini)).toBe(true);
  });
});
