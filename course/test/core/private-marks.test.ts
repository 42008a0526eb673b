/**
 * The private marks that say "this is our own call snapshot (and why its
 * arguments were refused)", "these are a definition's output fields" and
 * "this is a prepared handle, and what it runs": a mark cannot be copied,
 * inherited, reached through a Proxy or forged, asking for one runs no code
 * of the value asked about, and each kind answers only for its own objects.
 */
import { describe, expect, test } from "vitest";
import { invalidArgumentsReason, snapshotToolCall } from "../../src/call-snapshot.ts";
import { toolOutputFields } from "../../src/definitions.ts";
import {
  defineTool,
  prepareToolCall,
  runPreparedToolCall,
  toolCallWithInvalidArguments,
} from "../../src/index.ts";
import { isMarkable, MarkHost } from "../../src/private-marks.ts";
import { countingHandler } from "./support/hostile.ts";
import { accept, workCall, workRegistry } from "./support/work-tool.ts";

const signal = () => new AbortController().signal;

/** A kind of mark as the modules write theirs. */
class TestMark extends MarkHost {
  #value: string;

  constructor(target: object, value: string) {
    super(target);
    this.#value = value;
  }

  static read(value: unknown): string | undefined {
    return isMarkable(value) && #value in value ? value.#value : undefined;
  }

  static replace(target: TestMark, value: string): void {
    target.#value = value;
  }
}

/** Another kind, to show kinds are independent. */
class OtherMark extends MarkHost {
  readonly #seen = true;

  static has(value: unknown): boolean {
    return isMarkable(value) && #seen in value;
  }
}

describe("MarkHost", () => {
  test("a marked object keeps its mark once frozen, and its value can be replaced", () => {
    const target = { id: "a" };
    new TestMark(target, "first");
    Object.freeze(target);
    expect(TestMark.read(target)).toBe("first");
    TestMark.replace(target as unknown as TestMark, "second");
    expect(TestMark.read(target)).toBe("second");
    // The mark is no property: nothing of it shows on the object.
    expect(Reflect.ownKeys(target)).toEqual(["id"]);
  });

  test.each([
    ["a copy", (marked: object) => ({ ...marked })],
    ["an object inheriting from it", (marked: object) => Object.create(marked)],
    ["a primitive", () => "marked"],
    ["null", () => null],
  ])("%s does not carry the mark", (_label, derive) => {
    const marked = {};
    new TestMark(marked, "mark");
    expect(TestMark.read(derive(marked))).toBeUndefined();
  });

  test("a Proxy around a marked object carries no mark, and no trap runs", () => {
    const marked = {};
    new TestMark(marked, "mark");
    const { handler, traps } = countingHandler();
    expect(TestMark.read(new Proxy(marked, handler))).toBeUndefined();
    expect(traps()).toBe(0);
  });

  test("two kinds of mark are independent", () => {
    const target = {};
    new TestMark(target, "mark");
    expect(OtherMark.has(target)).toBe(false);
    new OtherMark(target);
    expect(OtherMark.has(target)).toBe(true);
    expect(TestMark.read(target)).toBe("mark");
  });

  test.each([
    ["a string", "text", false],
    ["a number", 1, false],
    ["undefined", undefined, false],
    ["null", null, false],
    ["an object", {}, true],
    ["a function", () => 1, true],
  ])("isMarkable: %s is %s", (_label, value, markable) => {
    expect(isMarkable(value)).toBe(markable);
  });
});

describe("each module's mark answers only for its own objects", () => {
  const definition = {
    name: "work",
    description: "Work.",
    validate: accept,
    execute: async () => 1,
  };

  test("a definition snapshot carries output fields; a call snapshot and a copy do not", () => {
    const tool = defineTool({ ...definition, truncate: "tail" });
    expect(toolOutputFields(tool)).toEqual({
      outputBudget: undefined,
      truncate: "tail",
      format: undefined,
    });
    expect(toolOutputFields({ ...tool } as never)).toBeUndefined();
    expect(toolOutputFields(snapshotToolCall(workCall()) as never)).toBeUndefined();
  });

  test("a definition without output fields keeps none: its calls skip resolving them", () => {
    expect(toolOutputFields(defineTool(definition))).toBeUndefined();
    expect(toolOutputFields(defineTool({ ...definition, format: "text" }))).toEqual({
      outputBudget: undefined,
      truncate: undefined,
      format: "text",
    });
  });

  test("a refused-arguments call carries its reason; a definition and a handle do not", () => {
    const call = toolCallWithInvalidArguments(workCall(), "arguments are not valid JSON");
    expect(invalidArgumentsReason(call)).toBe("arguments are not valid JSON");
    expect(invalidArgumentsReason(snapshotToolCall(workCall()))).toBeUndefined();
    expect(invalidArgumentsReason(defineTool(definition))).toBeUndefined();
    const handle = prepareToolCall(
      workRegistry(() => 1),
      workCall(),
      signal(),
    );
    expect(invalidArgumentsReason(handle)).toBeUndefined();
  });

  test("no kind's question runs a trap of a Proxy", () => {
    const { handler, traps } = countingHandler();
    const proxy = new Proxy(snapshotToolCall(workCall()), handler);
    expect(invalidArgumentsReason(proxy)).toBeUndefined();
    expect(toolOutputFields(proxy as never)).toBeUndefined();
    expect(traps()).toBe(0);
  });

  test("a call snapshot or a definition is no prepared handle", async () => {
    await expect(runPreparedToolCall(snapshotToolCall(workCall()) as never)).rejects.toThrow(
      "not a prepared Tool call, or it already ran",
    );
    await expect(runPreparedToolCall(defineTool(definition) as never)).rejects.toThrow(
      "not a prepared Tool call, or it already ran",
    );
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
