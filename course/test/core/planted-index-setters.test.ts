/**
 * An index setter planted on Array.prototype (by a Tool, say) sees what the
 * boundary appends to a fresh array by assignment, and can swallow it. The
 * lists that hold other calls or what the host reads are built without such
 * appends: the waiters told of an abort, the argument budget's count, and
 * `registry.names`, a result's content and parts, and the sort's scratch
 * list; the walk's key list can lose keys to it but never reads one back
 * through the prototype. The planted
 * setter here watches and stores (so the runtime's own arrays keep working);
 * one that swallowed instead would leave a waiter untold of the abort.
 */
import { afterEach, describe, expect, test } from "vitest";
import { PNG_1X1 } from "../../../test/support/parts.ts";
import {
  defineTool,
  executeToolCall,
  serializeToolOutput,
  snapshotToolCall,
  ToolRegistry,
  toolContent,
} from "../../src/index.ts";
import { accept, repeatedDeepValueCall, workCall, workRegistry } from "./support/work-tool.ts";

// Sets, not arrays: the setters below must not run for the test's own bookkeeping.
/** Every value the planted setters received. */
const seen = new Set<unknown>();
const planted = new Set<string>();

/**
 * Plants a setter at `indices` of Array.prototype that records each value and
 * then stores it as an own slot, so that the rest of the process (the
 * runtime's own arrays included) goes on working while it watches; values
 * `swallow` picks out are dropped instead.
 */
function plant(
  indices: readonly string[],
  swallow: (value: unknown) => boolean = () => false,
): void {
  for (const index of indices) {
    Object.defineProperty(Array.prototype, index, {
      configurable: true,
      set(this: object, value: unknown) {
        seen.add(value);
        // The attack proper: a value it picks out is dropped, as if never written.
        if (swallow(value)) return;
        Object.defineProperty(this, index, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      },
    });
    planted.add(index);
  }
}

function unplant(): void {
  for (const index of planted)
    delete (Array.prototype as unknown as Record<string, unknown>)[index];
  planted.clear();
}

/** What the setters received that was one of the boundary's waiting calls. */
const waitersSeen = () =>
  [...seen].filter((value) => typeof value === "object" && value !== null && "onAbort" in value);

afterEach(() => {
  unplant();
  seen.clear();
});

const INDICES = ["0", "1", "2"];

describe("an index setter planted on Array.prototype", () => {
  test("the list of indices planted is not empty", () => {
    expect(INDICES.length).toBeGreaterThan(0);
  });

  test("never receives a waiting call when the run aborts, and every call still hears the abort", async () => {
    const controller = new AbortController();
    const toolSignals: AbortSignal[] = [];
    // Each Tool waits until its own signal aborts; the deadline gives each its own controller.
    const registry = workRegistry(
      (_input, context) =>
        new Promise((_resolve, reject) => {
          toolSignals.push(context.signal);
          context.signal.addEventListener("abort", () => reject(context.signal.reason));
        }),
    );
    const calls = [1, 2, 3].map((slot) =>
      executeToolCall(registry, workCall(`call-${slot}`), controller.signal, { timeoutMs: 60_000 }),
    );
    await new Promise((wake) => setTimeout(wake, 0));
    expect(toolSignals).toHaveLength(3);
    const reason = new Error("stop the run");
    plant(INDICES);
    try {
      controller.abort(reason);
    } finally {
      unplant();
    }
    const outcomes = await Promise.allSettled(calls);
    expect(waitersSeen()).toEqual([]);
    expect(outcomes).toEqual([1, 2, 3].map(() => ({ status: "rejected", reason })));
    expect(toolSignals.map((signal) => signal.aborted)).toEqual([true, true, true]);
  });

  test("never receives a registered name, and registry.names answers the names themselves", () => {
    const registry = new ToolRegistry(
      ["alpha", "beta", "gamma"].map((name) =>
        defineTool({
          name,
          description: "Does work.",
          validate: accept,
          execute: async () => "ran",
        }),
      ),
    );
    plant(INDICES);
    let names: readonly string[];
    try {
      names = registry.names;
    } finally {
      unplant();
    }
    expect([...seen].filter((value) => typeof value === "string")).toEqual([]);
    expect(Object.getOwnPropertyNames(names)).toEqual(["0", "1", "2", "length"]);
    expect([...names]).toEqual(["alpha", "beta", "gamma"]);
    expect(Object.isFrozen(names)).toBe(true);
  });

  test("never makes a call's argument text look shorter than the argument budget", async () => {
    let executions = 0;
    const registry = workRegistry(async () => {
      executions += 1;
      return "ran";
    });
    const long = "x".repeat(200);
    // Swallows whatever the argument budget's count would keep: the keys it collects and
    // its frames (objects with a `start`), so that a count kept in arrays would end early.
    plant(
      INDICES,
      (value) =>
        value === "argumentOne" ||
        value === "argumentTwo" ||
        (typeof value === "object" && value !== null && "start" in value),
    );
    let result: Awaited<ReturnType<typeof executeToolCall>>;
    try {
      result = await executeToolCall(
        registry,
        workCall("call-1", { argumentOne: long, argumentTwo: long }),
        new AbortController().signal,
        { maxArgumentCharacters: 100 },
      );
    } finally {
      unplant();
    }
    expect(executions).toBe(0);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("TOOL_ARGUMENTS_INVALID");
    expect([...seen].filter((value) => value === "argumentOne" || value === "argumentTwo")).toEqual(
      [],
    );
  });

  // Five keys: the swallowed key is the last one; six and nine: keys follow it.
  const KEY_COUNTS = [5, 6, 9];

  test("the list of key counts is not empty", () => {
    expect(KEY_COUNTS.length).toBeGreaterThan(0);
  });

  test.each(KEY_COUNTS)(
    "can make the walk drop an output's keys past its four slots, never read one through the prototype (%i keys)",
    (count) => {
      // The walk's key list is a scratch array (out of scope in docs/security-model.md): a
      // setter planted past its four own slots can swallow keys. What it must not do is leave
      // a hole that a getter planted at the same index fills with a key of its choosing.
      const output = Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`k${index}`, index]),
      );
      let getterReads = 0;
      let swallowed = 0;
      Object.defineProperty(Array.prototype, "4", {
        configurable: true,
        get() {
          getterReads += 1;
          return "injected";
        },
        set(value: unknown) {
          swallowed += 1;
          seen.add(value);
        },
      });
      planted.add("4");
      let serialized: ReturnType<typeof serializeToolOutput>;
      try {
        serialized = serializeToolOutput(output);
      } finally {
        unplant();
      }
      expect(getterReads).toBe(0);
      expect(swallowed).toBeGreaterThan(0);
      expect(serialized).toEqual({
        ok: true,
        content: '{"k0":0,"k1":1,"k2":2,"k3":3}',
        truncated: false,
      });
    },
  );

  /** A chain of objects under `keys`, its last key leading back to the container at `backTo`. */
  function closedChain(keys: readonly string[], backTo: number): { root: object; nodes: object[] } {
    const nodes: Record<string, unknown>[] = [{}];
    for (const key of keys.slice(0, -1)) {
      const next: Record<string, unknown> = {};
      (nodes[nodes.length - 1] as Record<string, unknown>)[key] = next;
      nodes.push(next);
    }
    (nodes[nodes.length - 1] as Record<string, unknown>)[keys[keys.length - 1] as string] =
      nodes[backTo];
    return { root: nodes[0] as object, nodes };
  }

  const DEEP_INDICES = ["4", "5", "6", "7", "8", "9"];
  const DEEP_KEYS = ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"];

  test("never receives a container past the fourth level of a path, and a cycle there is found where it closes", () => {
    // Swallows the containers of the chain: a path list filled by assignment would lose the
    // one the cycle leads back to, and find the cycle late or not at all.
    const { root, nodes } = closedChain(DEEP_KEYS, 5);
    const ours = new Set<unknown>(nodes);
    plant(DEEP_INDICES, (value) => ours.has(value));
    let message = "";
    let serialized: ReturnType<typeof serializeToolOutput>;
    try {
      try {
        snapshotToolCall({ type: "toolCall", id: "c", name: "t", arguments: root as never });
      } catch (error) {
        message = (error as Error).message;
      }
      serialized = serializeToolOutput(root);
    } finally {
      unplant();
    }
    expect([...seen].filter((value) => ours.has(value))).toEqual([]);
    expect(message).toBe("Tool call arguments at $.k1.k2.k3.k4.k5.k6.k7.k8: cycles are not JSON");
    expect(serialized).toEqual({
      ok: true,
      content: '{"k1":{"k2":{"k3":{"k4":{"k5":{"k6":{"k7":{"k8":"[Circular]"}}}}}}}}',
      truncated: false,
    });
  });

  test("never receives a key of a refused value's path, and the message names the path as it is", () => {
    // A path kept in an array filled by assignment would hand every key past the fourth level
    // to the setter (and read the getter's answer back into the message).
    let argumentsValue: unknown = Number.NaN;
    let outputValue: unknown = new Map();
    for (const key of [...DEEP_KEYS].reverse()) {
      argumentsValue = { [key]: argumentsValue };
      outputValue = { [key]: outputValue };
    }
    plant(DEEP_INDICES);
    let message = "";
    let serialized: ReturnType<typeof serializeToolOutput>;
    try {
      try {
        snapshotToolCall({
          type: "toolCall",
          id: "c",
          name: "t",
          arguments: argumentsValue as never,
        });
      } catch (error) {
        message = (error as Error).message;
      }
      serialized = serializeToolOutput(outputValue);
    } finally {
      unplant();
    }
    expect([...seen].filter((value) => DEEP_KEYS.includes(value as string))).toEqual([]);
    expect(message).toBe(
      "Tool call arguments at $.k1.k2.k3.k4.k5.k6.k7.k8: numbers must be finite",
    );
    expect(serialized).toEqual({
      ok: false,
      message: "$.k1.k2.k3.k4.k5.k6.k7.k8: Map objects are not supported",
    });
  });
  test("never receives a part of a toolContent result, and swallows none of its content", async () => {
    // Every index a result with five parts and its lines fill, swallowing all it is given.
    plant(["0", "1", "2", "3", "4", "5"], () => true);
    const registry = workRegistry(async () =>
      toolContent([
        { type: "text", text: "before" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
        { type: "text", text: "after" },
        { type: "image", data: PNG_1X1, mimeType: "image/jpeg" },
        { type: "text", text: "last" },
      ]),
    );
    const result = await executeToolCall(registry, workCall(), new AbortController().signal);
    unplant();
    expect(seen.size).toBe(0);
    expect(result.content).toBe(
      [
        "before",
        `[image: image/png, ${PNG_1X1.length} bytes]`,
        "after",
        "[image omitted: declared image/jpeg, but the bytes are image/png]",
        "last",
      ].join("\n"),
    );
    expect(result.parts?.map((part) => part.type)).toEqual([
      "text",
      "image",
      "text",
      "text",
      "text",
    ]);
  });

  test("neither receives nor answers a key while the walk sorts a wide object's keys", () => {
    // Over 32 keys the sort merges through a scratch list; index 0 is one of the key list's
    // own slots, so only the scratch list could reach the prototype there.
    const keys = Array.from(
      { length: 40 },
      (_, index) => `k${String(39 - index).padStart(2, "0")}`,
    );
    const output = Object.fromEntries(keys.map((key) => [key, 1]));
    let getterReads = 0;
    let setterWrites = 0;
    Object.defineProperty(Array.prototype, "0", {
      configurable: true,
      get() {
        getterReads += 1;
        return "injected";
      },
      set() {
        setterWrites += 1;
      },
    });
    planted.add("0");
    let serialized: ReturnType<typeof serializeToolOutput>;
    try {
      serialized = serializeToolOutput(output);
    } finally {
      unplant();
    }
    expect([getterReads, setterWrites]).toEqual([0, 0]);
    const sorted = [...keys].sort().map((key) => `"${key}":1`);
    expect(serialized).toEqual({ ok: true, content: `{${sorted.join(",")}}`, truncated: false });
  });
  test("cannot hide a level of a value the arguments repeat, so the depth limit holds", () => {
    // A value used twice is copied once; its second use is measured by the copy's height,
    // which is counted over lists a swallowing setter at index 0 would otherwise empty.
    const call = repeatedDeepValueCall();
    plant(["0"], (value) => typeof value === "object" && value !== null);
    let refusal: unknown;
    try {
      snapshotToolCall(call);
    } catch (thrown) {
      refusal = thrown;
    } finally {
      unplant();
    }
    expect(seen.size).toBe(0);
    expect((refusal as Error).message).toContain(
      "nesting deeper than 256 is not accepted (a value repeated here nests 201 levels)",
    );
  });
});
