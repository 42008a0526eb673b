/**
 * The `./openai-agents` entry as a whole: its pinned export names, that
 * importing it loads nothing of the SDK, and where the SDK is loaded from.
 */
import { describe, expect, test, vi } from "vitest";
import { importOpenAIAgents } from "./openai-agents-module.ts";

const ENTRY_EXPORTS = [
  "OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA",
  "repairOpenAIAgentsModel",
  "toOpenAIAgentsTools",
];

describe("toolbound/openai-agents", () => {
  test("exports exactly the pinned runtime names", async () => {
    expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
    expect(Object.keys(await import("./index.ts")).sort()).toEqual(ENTRY_EXPORTS);
  });

  test("loads tool() from the first source that loads, and no further one", async () => {
    const tool = () => ({});
    const missing = vi.fn(() => Promise.reject(new Error("Cannot find package")));
    const present = vi.fn(async () => ({ tool }));
    const never = vi.fn(async () => ({ tool: () => ({}) }));
    const loaded = await importOpenAIAgents([
      ["@openai/agents-core", missing],
      ["@openai/agents", present],
      ["third", never],
    ]);
    expect(loaded.tool).toBe(tool);
    expect([missing, present, never].map((load) => load.mock.calls.length)).toEqual([1, 1, 0]);
  });

  test("names the missing peer when no source loads, keeping every failure", async () => {
    const failures = [new Error("no core"), new Error("no agents")];
    const failure = await importOpenAIAgents([
      ["@openai/agents-core", () => Promise.reject(failures[0])],
      ["@openai/agents", () => Promise.reject(failures[1])],
    ]).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      "toolbound/openai-agents needs OpenAI Agents JS: install the optional peer @openai/agents-core (or @openai/agents) 0.20 beside toolbound",
    );
    expect(((failure as Error).cause as AggregateError).errors).toEqual(failures);
  });

  test("refuses a source without tool(), naming it", async () => {
    await expect(importOpenAIAgents([["@openai/agents-core", async () => ({})]])).rejects.toThrow(
      "the installed @openai/agents-core has no tool(): toolbound/openai-agents needs 0.20",
    );
  });
});
