/**
 * Pins the runtime export names of `toolbound/providers`, and shows that the
 * entry point loads no provider SDK: it reads their shapes as data.
 */
import { expect, test, vi } from "vitest";

const { attempts, missing } = vi.hoisted(() => {
  const attempts: string[] = [];
  const missing = (name: string) => () => {
    attempts.push(name);
    throw new Error(`Cannot find package '${name}'`);
  };
  return { attempts, missing };
});
vi.mock("openai", missing("openai"));
vi.mock("@anthropic-ai/sdk", missing("@anthropic-ai/sdk"));
vi.mock("@google/genai", missing("@google/genai"));

const PROVIDERS_EXPORTS = [
  "PROVIDER_ARGUMENTS_MAX_CHARACTERS",
  "PROVIDER_ARGUMENTS_MAX_DEPTH",
  "PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS",
  "parseToolArguments",
  "readToolCalls",
  "toProviderTools",
  "toToolResultMessages",
].sort();

test("toolbound/providers exports exactly the pinned runtime names, and loads no SDK", async () => {
  expect(PROVIDERS_EXPORTS.length).toBeGreaterThan(0);
  const providers = await import("./index.ts");
  expect(Object.keys(providers).sort()).toEqual(PROVIDERS_EXPORTS);
  expect(attempts).toEqual([]);
});

test("toProviderTools is the very function toolbound/schema exports", async () => {
  const providers = await import("./index.ts");
  const schema = await import("../schema/index.ts");
  expect(providers.toProviderTools).toBe(schema.toProviderTools);
});
