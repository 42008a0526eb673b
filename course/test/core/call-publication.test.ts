/**
 * The copy `executeToolCall` makes of a call is frozen and marked as a
 * snapshot wherever code outside can see it (an observer, the approval gate,
 * a prepared handle, `snapshotToolCall`); where nothing outside sees it, it
 * is left unfrozen, and the caller's object still reaches nothing after it
 * was read once.
 */
import { describe, expect, test } from "vitest";
import type { CallObserver } from "../../src/call-observer.ts";
import { takeToolCall } from "../../src/call-snapshot.ts";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  prepareToolCall,
  snapshotToolCall,
  ToolRegistry,
} from "../../src/index.ts";
import { withCallObserver } from "../../src/internal.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

const live = () => new AbortController().signal;

/** Whether `seen` is one of our frozen snapshots: frozen throughout, and taken back as it is. */
function isOurSnapshot(seen: CourseToolCall | undefined): boolean {
  return (
    seen !== undefined &&
    Object.isFrozen(seen) &&
    Object.isFrozen(seen.arguments) &&
    snapshotToolCall(seen) === seen
  );
}

/** Runs `original` through a registry with an observer; answers the call each hook was given. */
async function observed(original: CourseToolCall) {
  const seen: { executed?: CourseToolCall; ended?: CourseToolCall | undefined } = {};
  const observer: CallObserver<string> = {
    start: () => "state",
    resume: () => {},
    execute: (_state, call, _tool, run) => {
      seen.executed = call;
      run();
    },
    end: (_state, facts) => {
      seen.ended = facts.call;
    },
  };
  await executeToolCall(
    withCallObserver(
      workRegistry(async () => "ran"),
      observer,
    ),
    original,
    live(),
  );
  return seen;
}

describe("a call's copy is frozen where code outside can see it", () => {
  const ways: [string, (original: CourseToolCall) => Promise<CourseToolCall | undefined>][] = [
    [
      "the approval gate",
      async (original) => {
        let seen: CourseToolCall | undefined;
        await executeToolCall(
          workRegistry(async () => "ran"),
          original,
          live(),
          {
            approve: (call) => {
              seen = call;
              return true;
            },
          },
        );
        return seen;
      },
    ],
    [
      "a prepared handle",
      async (original) =>
        prepareToolCall(
          workRegistry(async () => "ran"),
          original,
          live(),
        ).call,
    ],
    ["an observer's execute hook", async (original) => (await observed(original)).executed],
    ["an observer's end facts", async (original) => (await observed(original)).ended],
    ["snapshotToolCall", async (original) => snapshotToolCall(original)],
  ];

  test("the table of ways out is not empty", () => {
    expect(ways.length).toBeGreaterThan(0);
  });

  test.each(ways)("%s sees a frozen snapshot, not the caller's object", async (_way, see) => {
    const original = workCall("call-1", { path: "a.txt" });
    const seen = await see(original);
    expect(seen).not.toBe(original);
    expect(isOurSnapshot(seen)).toBe(true);
    expect(seen).toEqual({
      type: "toolCall",
      id: "call-1",
      name: "work",
      arguments: { path: "a.txt" },
    });
  });
});

describe("a copy nothing outside sees", () => {
  test("is a fresh copy, not frozen and not taken for a snapshot, with its arguments frozen", () => {
    const original = workCall("call-1", { path: "a.txt" });
    const copy = takeToolCall(original, false);
    expect(copy).not.toBe(original);
    expect(copy).toEqual(original);
    expect(Object.isFrozen(copy)).toBe(false);
    expect(Object.isFrozen(copy.arguments)).toBe(true);
    // Not marked: snapshotToolCall copies it again instead of taking it as its own.
    const again = snapshotToolCall(copy);
    expect(again).not.toBe(copy);
    expect(Object.isFrozen(again)).toBe(true);
    // A shown copy is a snapshot like any other; a snapshot is taken back as it is.
    const shown = takeToolCall(original, true);
    expect(isOurSnapshot(shown)).toBe(true);
    expect(takeToolCall(shown, false)).toBe(shown);
  });

  test("the caller's call, rewritten by the validator, changes nothing of the result or what the Tool got", async () => {
    const original = workCall("call-1", { path: "a.txt" });
    const seenInputs: unknown[] = [];
    const registry = new ToolRegistry([
      defineTool({
        name: "work",
        description: "Does work.",
        validate: (input: unknown) => {
          // The attack: the caller's object is rewritten after it was read (id, name and
          // arguments), before the Tool runs and the result is linked.
          const writable = original as { id: string; name: string; arguments: unknown };
          writable.id = "call-forged";
          writable.name = "other";
          writable.arguments = { path: "/etc/passwd" };
          return { ok: true as const, value: input };
        },
        execute: async (input: unknown) => {
          seenInputs.push(input);
          return "ran";
        },
      }),
    ]);
    const result = await executeToolCall(registry, original, live());
    expect(result).toEqual({
      id: "tool-result-call-1",
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "work",
      content: '"ran"',
      isError: false,
    });
    expect(seenInputs).toEqual([{ path: "a.txt" }]);
    expect(Object.isFrozen(seenInputs[0])).toBe(true);
  });

  const endings: [string, string, ToolRegistry][] = [
    ["a Tool that answers", "work", workRegistry(async () => "ran")],
    [
      "a Tool that throws",
      "work",
      workRegistry(async () => {
        throw new Error("broken");
      }),
    ],
    [
      "a validator that refuses",
      "work",
      new ToolRegistry([
        defineTool({
          name: "work",
          description: "Does work.",
          validate: () => ({ ok: false as const, error: "no" }),
          execute: async () => "ran",
        }),
      ]),
    ],
    ["an unknown Tool", "missing", workRegistry(async () => "ran")],
  ];

  test("the table of endings is not empty", () => {
    expect(endings.length).toBeGreaterThan(0);
  });

  test.each(endings)(
    "each field of the caller's call is read once, for %s",
    async (_ending, name, registry) => {
      const reads: string[] = [];
      const original = {};
      const fields = { type: "toolCall", id: "call-1", name, arguments: { path: "a.txt" } };
      for (const [key, value] of Object.entries(fields)) {
        Object.defineProperty(original, key, {
          enumerable: true,
          get: () => {
            reads.push(key);
            return value;
          },
        });
      }
      const result = await executeToolCall(registry, original as CourseToolCall, live());
      expect(result.toolCallId).toBe("call-1");
      expect(result.toolName).toBe(name);
      expect(reads).toEqual(["type", "id", "name", "arguments"]);
    },
  );
});
