/**
 * What the core captures when it loads (the names of refused built-ins, the
 * timer, the relay signal, the sealed identifier pattern) works in a freshly
 * loaded copy of the module: each test loads its own copy, so the capture
 * itself is exercised, not a copy some earlier test loaded.
 */
import { beforeEach, describe, expect, test, vi } from "vitest";

type Core = typeof import("../../src/index.ts");

async function freshCore(): Promise<Core> {
  vi.resetModules();
  return import("../../src/index.ts");
}

function* generator() {
  yield 1;
}

const call = { type: "toolCall" as const, id: "call-1", name: "work", arguments: {} };

function workRegistry(
  core: Core,
  execute: (input: unknown, context: { signal: AbortSignal }) => Promise<unknown>,
) {
  return new core.ToolRegistry([
    core.defineTool({
      name: "work",
      description: "Works.",
      validate: (input) => ({ ok: true, value: input }),
      execute,
    }),
  ]);
}

describe("a freshly loaded core", () => {
  let core: Core;
  beforeEach(async () => {
    core = await freshCore();
  });

  const kinds: ReadonlyArray<readonly [() => unknown, string]> = [
    [() => new Date(0), "Date objects"],
    [() => new Map(), "Map objects"],
    [() => new Set(), "Set objects"],
    [() => new WeakMap(), "WeakMap objects"],
    [() => new WeakSet(), "WeakSet objects"],
    [() => /x/, "RegExp objects"],
    [() => Object(1), "boxed primitives"],
    [() => Promise.resolve(1), "Promise objects"],
    [() => new Error("x"), "Error objects"],
    [() => new Uint8Array(1), "typed arrays and DataViews"],
    [() => new ArrayBuffer(1), "ArrayBuffers"],
    [() => generator(), "generator objects"],
    [() => new Map().keys(), "Map iterators"],
    [() => new Set().values(), "Set iterators"],
  ];

  test("names every refused built-in kind", () => {
    expect(kinds.length).toBe(14);
    const messages = kinds.map(([make]) => core.serializeToolOutput([make()]));
    expect(messages).toEqual(
      kinds.map(([, kind]) => ({ ok: false, message: `$[0]: ${kind} are not supported` })),
    );
  });

  test("keeps its deadline timer: a Tool that never settles times out", async () => {
    const registry = workRegistry(core, () => new Promise(() => {}));
    const result = await core.executeToolCall(registry, call, new AbortController().signal, {
      timeoutMs: 5,
    });
    expect(JSON.parse(result.content).error.code).toBe("TOOL_TIMEOUT");
  });

  test("keeps its relay signal: a Tool that silences the abort event cannot make later calls uncancellable", async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const registry = workRegistry(core, (_input, { signal }) => {
      started.push("started");
      signal.addEventListener("abort", (event) => event.stopImmediatePropagation());
      return new Promise(() => {});
    });
    const first = core.executeToolCall(registry, call, controller.signal);
    const second = core.executeToolCall(registry, { ...call, id: "call-2" }, controller.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["started", "started"]);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(first).rejects.toBe(reason);
    await expect(second).rejects.toBe(reason);
  });

  test("keeps its output-budget constants, markers and registry options", async () => {
    expect(core.OUTPUT_BUDGET_RANGES.maxCharacters).toEqual([1_024, 10_000_000]);
    expect(Object.isFrozen(core.OUTPUT_BUDGET_RANGES)).toBe(true);
    expect(core.SPILL_CHARACTERS_RANGE).toEqual([1_024, 50_000_000]);
    expect(core.DEFAULT_MAX_SPILL_CHARACTERS).toBe(1_000_000);
    expect(core.MAX_SPILL_REFERENCE_CHARACTERS).toBe(200);
    const cut = core.serializeToolOutput([1, 2, 3], { outputBudget: { maxNodes: 2 } });
    expect(cut).toEqual({
      ok: true,
      content: "[1,\n[Tool output truncated: values limit 2 reached; the array has 3 items]",
      truncated: true,
    });
    const registry = new core.ToolRegistry(
      [
        core.defineTool({
          name: "work",
          description: "Works.",
          validate: (input) => ({ ok: true, value: input }),
          execute: async () => "w".repeat(5_000),
        }),
      ],
      { outputBudget: { maxCharacters: 10_000 } },
    );
    const result = await core.executeToolCall(registry, call, new AbortController().signal);
    expect(result.content).toBe(`"${"w".repeat(5_000)}"`);
  });

  test("keeps its spill warning's name", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const registry = workRegistry(core, async () => "v".repeat(5_000));
      await core.executeToolCall(registry, call, new AbortController().signal, {
        spill: () => {
          throw new Error("spill failed");
        },
      });
      for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => warning.name)).toEqual(["ToolOutputSpillWarning"]);
  });

  test("keeps its part MIME types, by kind", () => {
    expect(core.TOOL_CONTENT_MIME_TYPES).toEqual({
      image: ["image/png", "image/jpeg", "image/gif", "image/webp"],
      audio: ["audio/wav", "audio/mpeg", "audio/ogg", "audio/flac"],
      file: ["application/pdf", "text/plain"],
    });
  });

  test.each([
    ["image/bmp", "image/bmp"],
    ["x-a.b+c/y-1", "x-a.b+c/y-1"],
    // Not lower-case from its first character to its last: not repeated to the model.
    ["Image/bmp", "its MIME type"],
    ["image/bmpX", "its MIME type"],
    [`${"a".repeat(31)}/${"b".repeat(31)}`, `${"a".repeat(31)}/${"b".repeat(31)}`],
    [`${"a".repeat(32)}/png`, "its MIME type"],
    [`png/${"b".repeat(32)}`, "its MIME type"],
  ])("keeps its pattern of MIME types a line may repeat: %s", async (mimeType, shown) => {
    const registry = workRegistry(core, async () =>
      core.toolContent([{ type: "image", data: new Uint8Array([1]), mimeType }]),
    );
    const result = await core.executeToolCall(registry, call, new AbortController().signal);
    expect(result.content).toBe(`[image omitted: ${shown} is not a supported image type]`);
  });

  test("keeps its integer division: part lines are bounded by maxCharacters", async () => {
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const registry = workRegistry(core, async () =>
      core.toolContent(
        Array.from({ length: 10 }, () => ({
          type: "image" as const,
          data: Uint8Array.from(png),
          mimeType: "image/png",
        })),
      ),
    );
    const result = await core.executeToolCall(registry, call, new AbortController().signal, {
      outputBudget: { maxCharacters: 1_024 },
    });
    expect(result.parts).toHaveLength(5);
    expect(result.content.split("\n").at(-1)).toBe(
      "[6 more parts omitted: no room for more part lines in 1024 characters]",
    );
  });

  test("keeps its observer warning's name", async () => {
    const internal = await import("../../src/internal.ts");
    expect(internal.CALL_OBSERVER_WARNING).toBe("ToolCallObserverWarning");
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const observed = internal.withCallObserver(
        workRegistry(core, async () => 1),
        {
          start: () => ({}),
          resume() {},
          execute: (_state, _call, _tool, run) => run(),
          end: () => {
            throw new Error("end broke");
          },
        },
      );
      await core.executeToolCall(observed, call, new AbortController().signal);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => warning.name)).toEqual(["ToolCallObserverWarning"]);
  });

  test("keeps its sealed identifier pattern: a patched RegExp exec cannot change a path", () => {
    const exec = vi.spyOn(RegExp.prototype, "exec").mockImplementation(() => null);
    try {
      const proxy = new Proxy({}, {});
      expect(core.serializeToolOutput({ plain: proxy })).toEqual({
        ok: false,
        message: "$.plain: Proxy objects are not supported",
      });
      expect(core.serializeToolOutput({ "odd key": proxy })).toEqual({
        ok: false,
        message: '$["odd key"]: Proxy objects are not supported',
      });
      expect(exec).not.toHaveBeenCalled();
    } finally {
      exec.mockRestore();
    }
  });
});

describe("a core loaded where Node's native base64 coder is missing", () => {
  test("codes parts in script: the same strict base64, the same refusals", async () => {
    const prototype = Buffer.prototype as unknown as Record<string, unknown>;
    const slice = Object.getOwnPropertyDescriptor(prototype, "base64Slice");
    const write = Object.getOwnPropertyDescriptor(prototype, "base64Write");
    delete prototype.base64Slice;
    delete prototype.base64Write;
    let core: Core;
    let intrinsics: typeof import("../../src/intrinsics.ts");
    try {
      core = await freshCore();
      intrinsics = await import("../../src/intrinsics.ts");
    } finally {
      if (slice !== undefined) Object.defineProperty(prototype, "base64Slice", slice);
      if (write !== undefined) Object.defineProperty(prototype, "base64Write", write);
    }
    expect(intrinsics.nativeBase64).toBeUndefined();
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const registry = workRegistry(core, async () =>
      core.toolContent([
        { type: "image", data: Uint8Array.from(Buffer.from(png, "base64")), mimeType: "image/png" },
        { type: "image", data: png, mimeType: "image/png" },
        { type: "image", data: `${png.slice(0, 40)} ${png.slice(41)}`, mimeType: "image/png" },
      ]),
    );
    const result = await core.executeToolCall(registry, call, new AbortController().signal);
    expect(result.parts?.slice(0, 2)).toEqual([
      { type: "image", data: png, mimeType: "image/png" },
      { type: "image", data: png, mimeType: "image/png" },
    ]);
    expect(result.content.split("\n")[2]).toBe(
      "[image omitted: its base64 data is invalid: character 41 is not in the base64 alphabet]",
    );
  });
});
