/**
 * Cycles, wherever they close: the argument copy refuses one naming the place
 * where it closes, the output walk writes `"[Circular]"` there, and both find
 * it on the first repeat, whether it leads back to the root (kept apart from
 * the list of containers below it), to a container just below the root, or
 * to one past the four levels the list starts with. A cycle found a level
 * late, or not at all, shows in the message or the text.
 */
import { describe, expect, test } from "vitest";
import { serializeToolOutput, snapshotToolCall } from "../../src/index.ts";
import { refusal } from "./support/hostile.ts";

type Node = Record<string, unknown>;

/** A chain of objects under `keys` from a fresh root; answers every container, the root first. */
function chain(keys: readonly string[]): Node[] {
  const nodes: Node[] = [{}];
  for (const key of keys) {
    const next: Node = {};
    (nodes[nodes.length - 1] as Node)[key] = next;
    nodes.push(next);
  }
  return nodes;
}

/** A chain under `keys` whose last key leads back to the container at `backTo` (0: the root). */
function closed(keys: readonly string[], backTo: number): Node {
  const nodes = chain(keys.slice(0, -1));
  (nodes[nodes.length - 1] as Node)[keys[keys.length - 1] as string] = nodes[backTo];
  return nodes[0] as Node;
}

/** `{ list: [list] }`: an array that holds itself. */
function arrayCycle(): Node {
  const list: unknown[] = [];
  list[0] = list;
  return { list };
}

const keys = ["k1", "k2", "k3", "k4", "k5", "k6"];
const cases: [string, () => Node, string, string][] = [
  ["the root, from just below it", () => closed(["self"], 0), "$.self", '{"self":"[Circular]"}'],
  [
    "the root, from three levels down",
    () => closed(["a", "b", "c"], 0),
    "$.a.b.c",
    '{"a":{"b":{"c":"[Circular]"}}}',
  ],
  [
    "the container just below the root, from three levels down",
    () => closed(["a", "b", "c"], 1),
    "$.a.b.c",
    '{"a":{"b":{"c":"[Circular]"}}}',
  ],
  [
    "a container two levels down, from six levels down (past the list's first four slots)",
    () => closed(keys, 2),
    "$.k1.k2.k3.k4.k5.k6",
    '{"k1":{"k2":{"k3":{"k4":{"k5":{"k6":"[Circular]"}}}}}}',
  ],
  [
    "a container five levels down, from six levels down",
    () => closed(keys, 5),
    "$.k1.k2.k3.k4.k5.k6",
    '{"k1":{"k2":{"k3":{"k4":{"k5":{"k6":"[Circular]"}}}}}}',
  ],
  ["an array, from its own slot", arrayCycle, "$.list[0]", '{"list":["[Circular]"]}'],
];

describe("a cycle is found where it closes", () => {
  test("the cycle table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("arguments back to %s are refused there", (_name, make, path) => {
    const error = refusal(() =>
      snapshotToolCall({ type: "toolCall", id: "c", name: "t", arguments: make() }),
    );
    expect(error.message).toBe(`Tool call arguments at ${path}: cycles are not JSON`);
  });

  test.each(cases)(
    "output back to %s is written as [Circular] there",
    (_name, make, _path, text) => {
      expect(serializeToolOutput(make())).toEqual({ ok: true, content: text, truncated: false });
    },
  );
});
