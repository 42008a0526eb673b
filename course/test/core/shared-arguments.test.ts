/**
 * Arguments that reuse one object: JSON text cannot build them, host or
 * adapter code can. The snapshot copies a shared object once and reuses the
 * copy, and the depth limit is counted where the object appears each time, so
 * reuse cannot carry arguments past `COURSE_TOOL_ARGUMENTS_MAX_DEPTH`; the
 * argument budget measures such arguments without recursion, so no shape
 * overflows the stack.
 */
import { describe, expect, test, vi } from "vitest";
import { jsonTextExceeds } from "../../src/call-options.ts";
import {
  COURSE_TOOL_ARGUMENTS_MAX_DEPTH,
  type CourseJsonValue,
  type CourseToolCall,
  defineTool,
  executeToolCall,
  ToolContractError,
  ToolRegistry,
} from "../../src/index.ts";

/** `inner` inside `levels` arrays: [[[inner]]]. */
function nest(inner: unknown, levels: number): unknown {
  let value = inner;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
}

/** How many levels of objects and arrays `value` nests, itself included; iterative, shared parts measured once. */
function heightOf(value: unknown): number {
  const heights = new Map<object, number>();
  const pending: { node: object; children: unknown[]; next: number; tallest: number }[] = [];
  const open = (node: unknown): number | undefined => {
    if (typeof node !== "object" || node === null) return 0;
    const known = heights.get(node);
    if (known !== undefined) return known;
    pending.push({ node, children: Object.values(node), next: 0, tallest: 0 });
    return undefined;
  };
  const root = open(value);
  if (root !== undefined) return root;
  for (;;) {
    const frame = pending[pending.length - 1] as (typeof pending)[number];
    if (frame.next === frame.children.length) {
      pending.pop();
      const height = frame.tallest + 1;
      heights.set(frame.node, height);
      const parent = pending[pending.length - 1];
      if (parent === undefined) return height;
      parent.tallest = Math.max(parent.tallest, height);
      continue;
    }
    const child = frame.children[frame.next];
    frame.next += 1;
    const height = open(child);
    if (height !== undefined) frame.tallest = Math.max(frame.tallest, height);
  }
}

/** A "work" Tool whose validator records the height of what it was given. */
function probe() {
  const seen: number[] = [];
  const execute = vi.fn(async () => "ran");
  const registry = new ToolRegistry([
    defineTool({
      name: "work",
      description: "Does work.",
      validate: (input) => {
        seen.push(heightOf(input));
        return { ok: true, value: input };
      },
      execute,
    }),
  ]);
  return { registry, seen, execute };
}

const callWith = (args: unknown): CourseToolCall =>
  ({ type: "toolCall", id: "call-1", name: "work", arguments: args }) as CourseToolCall;

const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );

/**
 * The attack of the review: `s1` to `s<count>` each wrap the one before in
 * `wrap` arrays, so each appears first near the top (its fresh part only
 * `wrap` deep) and again, already copied, at the bottom of the next one: the
 * last nests `count * wrap` levels.
 */
function layeredChain(count: number, wrap: number): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let shared: unknown = {};
  for (let layer = 1; layer <= count; layer += 1) {
    shared = nest(shared, wrap);
    args[`s${layer}`] = shared;
  }
  return args;
}

describe("a shared object is depth-checked where it appears, not only where it was first copied", () => {
  test("the review's 40,000-deep shared chain is INVALID_TOOL_CALL, with no validator run and no RangeError", async () => {
    const args = layeredChain(400, 100);
    expect(heightOf(args)).toBe(40_002);
    const { registry, seen, execute } = probe();
    const thrown = await rejectionOf(
      executeToolCall(registry, callWith(args), new AbortController().signal, {
        maxArgumentCharacters: 1_000_000,
      }),
    );
    expect(thrown).toBeInstanceOf(ToolContractError);
    expect((thrown as ToolContractError).code).toBe("INVALID_TOOL_CALL");
    expect((thrown as Error).message).toContain(
      `nesting deeper than ${COURSE_TOOL_ARGUMENTS_MAX_DEPTH} is not accepted (a value repeated here nests 201 levels)`,
    );
    // Refused at the third layer: s3 reuses s2 (201 levels) below 100 fresh arrays.
    expect((thrown as Error).message).toContain(`$.s3${"[0]".repeat(100)}:`);
    expect(seen).toEqual([]);
    expect(execute).not.toHaveBeenCalled();
  });

  // `first` is copied at level 1; `second` wraps the same object in `wrap` arrays, so the
  // copy is reused at level 1 + wrap and its deepest level is wrap + height: 255 is the last.
  test.each([
    [200, 55, true],
    [200, 56, false],
    [1, 254, true],
    [1, 255, false],
    [255, 0, true],
    [256, 0, false],
  ])(
    "an object of height %i shared again under %i arrays: accepted %s",
    async (height, wrap, accepted) => {
      const shared = nest({}, height - 1);
      const args = { first: shared, second: nest(shared, wrap) };
      const { registry, seen } = probe();
      const outcome = await rejectionOf(
        executeToolCall(registry, callWith(args), new AbortController().signal),
      );
      if (accepted) {
        expect(outcome).toBeUndefined();
        // The validator saw every level of the arguments, the root included, and no more than the limit.
        expect(seen).toEqual([heightOf(args)]);
        expect(seen[0]).toBeLessThanOrEqual(COURSE_TOOL_ARGUMENTS_MAX_DEPTH);
      } else {
        expect((outcome as ToolContractError).code).toBe("INVALID_TOOL_CALL");
        expect((outcome as Error).message).toContain("nesting deeper than 256 is not accepted");
        expect(seen).toEqual([]);
      }
    },
  );

  test("the same object fresh at those depths meets the same limit: reuse changes nothing", async () => {
    for (const [levels, accepted] of [
      [256, true],
      [257, false],
    ] as const) {
      const { registry, seen } = probe();
      const outcome = await rejectionOf(
        executeToolCall(
          registry,
          callWith({ only: nest({}, levels - 2) }),
          new AbortController().signal,
        ),
      );
      expect(outcome === undefined).toBe(accepted);
      expect(seen.length).toBe(accepted ? 1 : 0);
    }
  });

  test("a shared object reused shallower than it was first copied is accepted, and stays shared", async () => {
    const shared = nest({ leaf: 1 }, 100);
    const args = { deep: nest(shared, 150), shallow: shared };
    let input: { deep: unknown; shallow: unknown } | undefined;
    const registry = new ToolRegistry([
      defineTool({
        name: "work",
        description: "Does work.",
        validate: (value) => {
          input = value as typeof input;
          return { ok: true, value };
        },
        execute: async () => "ran",
      }),
    ]);
    await executeToolCall(registry, callWith(args), new AbortController().signal);
    expect(input?.shallow).toBe(nestedAt(input?.deep, 150));
  });

  test("a reuse that reaches deeper than the first copy's own subtree raises the enclosing height", async () => {
    // `tall` is reused inside `holder`, whose own first copy is then reused under 100 more arrays.
    const tall = nest({}, 150);
    const holder = { a: [tall] };
    const args = { tall, holder, again: nest(holder, 102) };
    const { registry, seen } = probe();
    const outcome = await rejectionOf(
      executeToolCall(registry, callWith(args), new AbortController().signal),
    );
    // holder nests 153 levels (it, its array, then tall's 151); under 102 arrays below the root that makes 256.
    expect(heightOf(args)).toBe(256);
    expect(outcome).toBeUndefined();
    expect(seen).toEqual([256]);
    const deeper = { tall, holder, again: nest(holder, 103) };
    const refused = await rejectionOf(
      executeToolCall(probe().registry, callWith(deeper), new AbortController().signal),
    );
    expect((refused as ToolContractError).code).toBe("INVALID_TOOL_CALL");
    expect((refused as Error).message).toContain("(a value repeated here nests 153 levels)");
  });
});

function nestedAt(value: unknown, levels: number): unknown {
  let current = value;
  for (let level = 0; level < levels; level += 1) current = (current as unknown[])[0];
  return current;
}

describe("a reused copy's height counts every child, in any order", () => {
  /** Arguments that hold `shared` near the top, then again under `wrap` arrays. */
  const reusedUnder = (shared: unknown, wrap: number, before: Record<string, unknown> = {}) => ({
    ...before,
    first: shared,
    second: nest(shared, wrap),
  });

  async function outcome(args: unknown) {
    const { registry, seen } = probe();
    const thrown = await rejectionOf(
      executeToolCall(registry, callWith(args), new AbortController().signal),
    );
    return { accepted: thrown === undefined, seen };
  }

  test.each([
    // shared nests 102 levels whatever the order of its children: under 160 arrays, 262 in all.
    ["its tallest child first, shorter ones after", () => ({ tall: nest({}, 100), a: {}, b: [] })],
    ["its tallest child last", () => ({ a: {}, b: [], tall: nest({}, 100) })],
    ["its tallest child between two short ones", () => ({ a: {}, tall: nest({}, 100), b: {} })],
  ])("%s: refused where its deepest level would pass the limit", async (_label, make) => {
    const shared = make();
    expect(heightOf(shared)).toBe(102);
    expect((await outcome(reusedUnder(shared, 160))).accepted).toBe(false);
    expect((await outcome(reusedUnder(shared, 153))).accepted).toBe(true);
  });

  test("a short child already measured does not lower the height of one measured later", async () => {
    // x is reused (and measured, 1 level) before holder is; holder's tall child still counts.
    const x = {};
    const holder = { a: {}, tall: nest({}, 100), b: {}, x };
    const args = { x, again: x, holder, moreHolder: nest(holder, 160) };
    expect((await outcome(args)).accepted).toBe(false);
  });

  test("a null value nests nothing: a shared object holding null is 1 level", async () => {
    const shared = { a: null, b: [null] };
    // It nests 2 levels (its array); reused under 253 arrays its deepest level is the 256th.
    expect((await outcome(reusedUnder(shared, 253))).accepted).toBe(true);
    expect((await outcome(reusedUnder({ a: null }, 254))).accepted).toBe(true);
    expect((await outcome(reusedUnder({ a: null }, 255))).accepted).toBe(false);
  });
});

describe("shared parts cost their size, not their paths", () => {
  test("a DAG of 40 doublings (2^40 paths) is snapshotted and depth-checked at once, sharing kept", async () => {
    let node: Record<string, unknown> = { leaf: "x" };
    for (let level = 0; level < 40; level += 1) node = { a: node, b: node };
    let seen: { a: unknown; b: unknown } | undefined;
    const registry = new ToolRegistry([
      defineTool({
        name: "work",
        description: "Does work.",
        validate: (value) => {
          seen = value as typeof seen;
          return { ok: true, value };
        },
        execute: async () => "ran",
      }),
    ]);
    await executeToolCall(registry, callWith(node), new AbortController().signal);
    expect(seen?.a).toBe(seen?.b);
  });

  test("an object planted on Object.prototype is not part of a shared copy's height", async () => {
    const shared = { leaf: 1 };
    const planted = nest({}, 300);
    Object.defineProperty(Object.prototype, "planted", {
      value: planted,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      const { registry, seen } = probe();
      const outcome = await rejectionOf(
        executeToolCall(
          registry,
          callWith({ first: shared, second: nest(shared, 250) }),
          new AbortController().signal,
        ),
      );
      expect(outcome).toBeUndefined();
      expect(seen).toHaveLength(1);
    } finally {
      delete (Object.prototype as { planted?: unknown }).planted;
    }
  });
});

describe("the argument budget measures any shape without recursion", () => {
  test("a 100,000-deep frozen chain is measured, not a RangeError", () => {
    let value: CourseJsonValue = [];
    for (let level = 0; level < 100_000; level += 1) value = Object.freeze([value]);
    // 100,001 brackets open and as many close.
    expect(jsonTextExceeds(value, 200_002)).toBe(false);
    expect(jsonTextExceeds(value, 200_001)).toBe(true);
  });

  test("shared parts are measured once: a DAG whose text is 2^40 times its size is answered at once", () => {
    let node: CourseJsonValue = Object.freeze({ leaf: "x" });
    for (let level = 0; level < 40; level += 1) node = Object.freeze({ a: node, b: node });
    // {"leaf":"x"} is 12 characters; each level writes {"a":…,"b":…}, 11 more around two copies.
    const length = 12 * 2 ** 40 + 11 * (2 ** 40 - 1);
    expect(jsonTextExceeds(node, Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(jsonTextExceeds(node, length)).toBe(false);
    expect(jsonTextExceeds(node, length - 1)).toBe(true);
  });

  test("a small DAG counts exactly what JSON.stringify writes, at the limit and one below", () => {
    const shared = Object.freeze(["a", Object.freeze({ k: null })]);
    const value = Object.freeze({ x: shared, y: Object.freeze([shared, shared, true]), z: -0.5 });
    const length = JSON.stringify(value).length;
    expect(jsonTextExceeds(value, length)).toBe(false);
    expect(jsonTextExceeds(value, length - 1)).toBe(true);
  });

  test.each([
    ["null", null],
    ["a string", 'a"b'],
    ["a number", 12.5],
    ["true", true],
    ["false", false],
  ] as const)("%s alone counts its JSON text", (_label, value) => {
    const length = JSON.stringify(value).length;
    expect(jsonTextExceeds(value, length)).toBe(false);
    expect(jsonTextExceeds(value, length - 1)).toBe(true);
  });
});
