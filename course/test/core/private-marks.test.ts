/**
 * The private marks that say "this is our own call snapshot" and "this is a
 * prepared handle, and what it runs": a mark cannot be copied, inherited,
 * reached through a Proxy or forged, and asking for one runs no code of the
 * value asked about.
 */
import { describe, expect, test } from "vitest";
import { snapshotToolCall } from "../../src/call-snapshot.ts";
import { prepareToolCall, runPreparedToolCall } from "../../src/index.ts";
import { createPrivateMark } from "../../src/private-marks.ts";
import { countingHandler } from "./support/hostile.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

const signal = () => new AbortController().signal;

describe("createPrivateMark", () => {
  test("a marked object keeps its mark once frozen, and its value can be replaced", () => {
    const mark = createPrivateMark<string>();
    const target = { id: "a" };
    mark.add(target, "first");
    Object.freeze(target);
    expect(mark.has(target)).toBe(true);
    expect(mark.get(target)).toBe("first");
    mark.replace(target, "second");
    expect(mark.get(target)).toBe("second");
    // The mark is no property: nothing of it shows on the object.
    expect(Reflect.ownKeys(target)).toEqual(["id"]);
  });

  test.each([
    ["a copy", (marked: object) => ({ ...marked })],
    ["an object inheriting from it", (marked: object) => Object.create(marked)],
    ["a primitive", () => "marked"],
    ["null", () => null],
  ])("%s does not carry the mark", (_label, derive) => {
    const mark = createPrivateMark<true>();
    const marked = {};
    mark.add(marked, true);
    expect(mark.has(derive(marked))).toBe(false);
    expect(mark.get(derive(marked))).toBeUndefined();
  });

  test("a Proxy around a marked object carries no mark, and no trap runs", () => {
    const mark = createPrivateMark<true>();
    const marked = {};
    mark.add(marked, true);
    const { handler, traps } = countingHandler();
    const proxy = new Proxy(marked, handler);
    expect(mark.has(proxy)).toBe(false);
    expect(traps()).toBe(0);
  });

  test("two kinds of mark are independent", () => {
    const first = createPrivateMark<true>();
    const second = createPrivateMark<true>();
    const target = {};
    first.add(target, true);
    expect(second.has(target)).toBe(false);
  });
});

describe("call snapshots are known by their mark", () => {
  test("a snapshot is taken as it is; a copy of it is copied again, its getters run once", () => {
    const snapshot = snapshotToolCall(workCall("call-1", { n: 1 }));
    expect(snapshotToolCall(snapshot)).toBe(snapshot);
    let reads = 0;
    const lookalike = {
      ...snapshot,
      get id() {
        reads += 1;
        return "call-2";
      },
    };
    const copy = snapshotToolCall(lookalike);
    // Counted first: the assertions below may read the look-alike themselves.
    expect(reads).toBe(1);
    expect(copy.id).toBe("call-2");
    expect(copy === lookalike).toBe(false);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.arguments)).toBe(true);
  });

  test("an object inheriting from a snapshot is refused: its fields are not its own", () => {
    const snapshot = snapshotToolCall(workCall());
    expect(() => snapshotToolCall(Object.create(snapshot))).toThrow(
      'Tool call must have an own "type" field',
    );
  });
});

describe("a prepared handle carries what it runs", () => {
  test.each([
    ["a copy of a handle", (handle: object) => ({ ...handle })],
    ["an object inheriting from a handle", (handle: object) => Object.create(handle)],
    ["a Proxy around a handle", (handle: object) => new Proxy(handle, {})],
  ])("%s is refused, and the Tool does not run", async (_label, derive) => {
    let runs = 0;
    const registry = workRegistry(() => {
      runs += 1;
      return "ran";
    });
    const prepared = prepareToolCall(registry, workCall(), signal());
    await expect(runPreparedToolCall(derive(prepared) as never)).rejects.toThrow(
      "not a prepared Tool call, or it already ran",
    );
    expect(runs).toBe(0);
    // The genuine handle still runs, once.
    await expect(runPreparedToolCall(prepared)).resolves.toMatchObject({ content: '"ran"' });
    expect(runs).toBe(1);
  });

  test("a handle shows only its two fields and is frozen", () => {
    const prepared = prepareToolCall(
      workRegistry(() => 1),
      workCall(),
      signal(),
    );
    expect(Reflect.ownKeys(prepared)).toEqual(["call", "result"]);
    expect(Object.isFrozen(prepared)).toBe(true);
  });
});
