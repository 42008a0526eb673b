/**
 * A durable round's events reach their listener as `executeToolCalls`
 * delivers them: in emission order, never re-entered, and a listener's throw
 * or rejection reported once, never breaking the round.
 */
import { afterEach, describe, expect, test } from "vitest";
import { toolResultMessage } from "../../course/src/index.ts";
import { ROUND_LISTENER_WARNING, type ToolRoundEvent } from "../rounds/index.ts";
import { finishedEvent, RoundDelivery, startedEvent } from "./round-delivery.ts";

const call = { type: "toolCall" as const, id: "a", name: "work", arguments: {} };
const started = startedEvent(0, call);
const finished = finishedEvent(0, call, toolResultMessage(call, '"ok"', false));
const label = (event: ToolRoundEvent) => `${event.type} ${event.call.id}`;
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("RoundDelivery", () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === ROUND_LISTENER_WARNING) warnings.push(warning);
  };
  afterEach(() => {
    process.off("warning", onWarning);
    warnings.length = 0;
  });

  test("an event emitted by the listener itself is queued: the listener is never re-entered", () => {
    const seen: string[] = [];
    let depth = 0;
    let deepest = 0;
    const delivery: RoundDelivery = new RoundDelivery((event) => {
      depth += 1;
      deepest = Math.max(deepest, depth);
      seen.push(label(event));
      if (event === started) delivery.emit(finished);
      depth -= 1;
    }, undefined);
    delivery.emit(started);
    expect(seen).toEqual(["tool.started a", "tool.finished a"]);
    expect(deepest).toBe(1);
    expect(Object.isFrozen(started) && Object.isFrozen(finished)).toBe(true);
  });

  test("throws and rejections are reported once each through onEventError", async () => {
    const rejection = new Error("async listener failed");
    const thrown = new Error("listener failed");
    const reported: Array<[unknown, string]> = [];
    const delivery = new RoundDelivery(
      (event) => {
        if (event === started) throw thrown;
        return Promise.reject(rejection);
      },
      (error, event) => void reported.push([error, label(event)]),
    );
    delivery.emit(started);
    delivery.emit(finished);
    await turn();
    expect(reported).toEqual([
      [thrown, "tool.started a"],
      [rejection, "tool.finished a"],
    ]);
  });

  test("without onEventError, or when it throws, a process warning carries the error", async () => {
    process.on("warning", onWarning);
    const thrown = new Error("listener failed");
    const reporterError = new Error("reporter failed");
    new RoundDelivery(() => {
      throw thrown;
    }, undefined).emit(started);
    new RoundDelivery(
      () => {
        throw thrown;
      },
      () => {
        throw reporterError;
      },
    ).emit(started);
    for (let index = 0; index < 3 && warnings.length < 2; index += 1) await turn();
    expect(warnings.map((warning) => warning.cause)).toEqual([thrown, reporterError]);
  });
});
