import { expect, test } from "vitest";
import {
  type AnyCourseTool,
  defineTool,
  executeToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { abortListeners, exposeGc, settleHeap, soakCall } from "./support.ts";

const CALLS = 200;

/** Starts `CALLS` calls to Tools that never settle; returns weak handles to what they hold. */
function startHangingCalls(signal: AbortSignal): {
  handles: WeakRef<object>[];
  outcomes: Promise<unknown>[];
} {
  const handles: WeakRef<object>[] = [];
  const tool = defineTool({
    name: "hang",
    description: "Hold a large buffer and never settle.",
    validate: (input) => ({ ok: true, value: input }),
    execute: (input, context) => {
      const buffer = new Uint8Array(64 * 1024);
      const promise = new Promise<never>(() => {
        // The never-settling promise's executor keeps these reachable only through itself.
        void buffer;
      });
      handles.push(new WeakRef(buffer), new WeakRef(promise), new WeakRef(context));
      handles.push(new WeakRef(input as object));
      return promise;
    },
  });
  const registry = new ToolRegistry([tool as AnyCourseTool]);
  const outcomes = Array.from({ length: CALLS }, (_, index) =>
    executeToolCall(
      registry,
      soakCall("hang", index, { index, payload: "x".repeat(64) }),
      signal,
    ).then(
      () => "resolved",
      (reason: unknown) => reason,
    ),
  );
  return { handles, outcomes };
}

test("Tools that never settle keep nothing alive once their calls are cancelled on a long-lived signal", async () => {
  const gc = exposeGc();
  const run = new AbortController();
  const { handles, outcomes } = startHangingCalls(run.signal);
  expect(handles).toHaveLength(CALLS * 4);
  const reason = new Error("cancelled");
  run.abort(reason);
  const settled = await Promise.all(outcomes);
  expect(settled.every((value) => value === reason)).toBe(true);
  outcomes.length = 0;
  await settleHeap(gc);
  const alive = handles.filter((handle) => handle.deref() !== undefined).length;
  expect(alive).toBe(0);
  expect(abortListeners(run.signal)).toBe(0);
}, 120_000);

test("a registry and signal that outlive cancelled never-settling calls are the only things left reachable", async () => {
  const gc = exposeGc();
  const run = new AbortController();
  const { handles } = startHangingCalls(run.signal);
  run.abort(new Error("cancelled"));
  // The outcome promises are dropped at once: nothing from the calls may be kept.
  await settleHeap(gc);
  expect(handles.filter((handle) => handle.deref() !== undefined)).toHaveLength(0);
  expect(run.signal.aborted).toBe(true);
}, 120_000);
