/**
 * reportProgress and sendLogMessage: what reaches the client, what is
 * dropped (outside a call, after it, below the client's level, progress
 * that does not increase), and what a Tool author's mistake gets.
 */
import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { cutText } from "./bounded-text.ts";
import {
  MAX_NOTICE_CHARACTERS,
  reportProgress,
  sendLogMessage,
  withRequestNotices,
} from "./request-notices.ts";

/** A request whose notifications are collected; `fail` makes every send reject. */
function channel(progressToken?: string | number, fail = false) {
  const sent: ServerNotification[] = [];
  return {
    sent,
    extra: {
      ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
      sendNotification: async (notification: ServerNotification) => {
        if (fail) throw new Error("the client went away");
        sent.push(notification);
      },
    },
  };
}

describe("reportProgress", () => {
  test("inside a call whose client sent a progress token, each increase is sent", async () => {
    const { sent, extra } = channel("token-1");
    await withRequestNotices(
      extra,
      () => undefined,
      async () => {
        expect(await reportProgress({ progress: 1, total: 3, message: "one" })).toBe(true);
        expect(await reportProgress({ progress: 2 })).toBe(true);
      },
    );
    expect(sent).toEqual([
      {
        method: "notifications/progress",
        params: { progressToken: "token-1", progress: 1, total: 3, message: "one" },
      },
      { method: "notifications/progress", params: { progressToken: "token-1", progress: 2 } },
    ]);
  });

  test.each([
    ["the same value again", 1],
    ["a smaller value", 0.5],
  ])("%s is dropped: MCP's progress must increase", async (_what, again) => {
    const { sent, extra } = channel(7);
    await withRequestNotices(
      extra,
      () => undefined,
      async () => {
        await reportProgress({ progress: 1 });
        expect(await reportProgress({ progress: again })).toBe(false);
      },
    );
    expect(sent).toHaveLength(1);
  });

  test("nothing is sent outside an MCP call, without a token, after the call, or to a client that is gone", async () => {
    expect(await reportProgress({ progress: 1 })).toBe(false);
    const noToken = channel();
    await withRequestNotices(
      noToken.extra,
      () => undefined,
      async () => {
        expect(await reportProgress({ progress: 1 })).toBe(false);
      },
    );
    const late = channel("t");
    let later: () => Promise<boolean> = async () => true;
    await withRequestNotices(
      late.extra,
      () => undefined,
      async () => {
        later = () => reportProgress({ progress: 5 });
      },
    );
    expect(await later()).toBe(false);
    const gone = channel("t", true);
    await withRequestNotices(
      gone.extra,
      () => undefined,
      async () => {
        expect(await reportProgress({ progress: 1 })).toBe(false);
      },
    );
    expect([...noToken.sent, ...late.sent]).toEqual([]);
  });

  test("a long message is cut to MAX_NOTICE_CHARACTERS with a marker", async () => {
    const { sent, extra } = channel("t");
    await withRequestNotices(
      extra,
      () => undefined,
      () => reportProgress({ progress: 1, message: "m".repeat(100_000) }),
    );
    const params = sent[0]?.params as { message: string };
    expect([...params.message]).toHaveLength(MAX_NOTICE_CHARACTERS);
    expect(params.message.endsWith("… [100000 characters, cut]")).toBe(true);
  });

  test.each([
    ["a non-finite progress", { progress: Number.NaN }, "progress must be a finite number"],
    [
      "an infinite total",
      { progress: 1, total: Number.POSITIVE_INFINITY },
      "total must be a finite number",
    ],
    ["a negative total", { progress: 1, total: -1 }, "total must not be negative"],
    ["a message that is not a string", { progress: 1, message: 42 }, "message must be a string"],
    ["no update", null, "reportProgress needs { progress, total?, message? }"],
  ])(
    "%s is a TypeError thrown at once, never a rejection nobody awaits",
    (_what, update, message) => {
      // A Tool that does not await its report (`void reportProgress(…)`) must not leave an
      // unhandled rejection behind, which by default ends the process.
      expect(() => reportProgress(update as never)).toThrow(new TypeError(message));
    },
  );
});

describe("sendLogMessage", () => {
  test("sends at or above the client's level, and nothing below it", async () => {
    const { sent, extra } = channel();
    await withRequestNotices(
      extra,
      () => "warning",
      async () => {
        expect(await sendLogMessage("info", "quiet")).toBe(false);
        expect(await sendLogMessage("warning", "loud")).toBe(true);
        expect(await sendLogMessage("critical", "louder")).toBe(true);
      },
    );
    expect(sent.map((notification) => notification.params)).toEqual([
      { level: "warning", logger: "toolbound", data: "loud" },
      { level: "critical", logger: "toolbound", data: "louder" },
    ]);
  });

  test("a client that set no level gets every level", async () => {
    const { sent, extra } = channel();
    await withRequestNotices(
      extra,
      () => undefined,
      () => sendLogMessage("debug", "detail"),
    );
    expect(sent).toHaveLength(1);
  });

  test.each([
    [
      "an unknown level",
      "loud",
      "x",
      /^level must be one of debug, info, notice, warning, error, critical, alert, emergency$/,
    ],
    ["a message that is not a string", "info", { text: "x" }, /^message must be a string$/],
  ])("%s is a TypeError thrown at once", (_what, level, message, error) => {
    expect(() => sendLogMessage(level as never, message as never)).toThrow(error);
  });
});

describe("cutText", () => {
  test.each([
    ["under the limit", "abc", 5, "abc"],
    ["at the limit", "abcde", 5, "abcde"],
    ["over it", "abcdefghij", 8, "abcd[10]"],
    ["pairs, never split", "😀😀😀😀😀😀😀", 6, "😀😀[14]"],
  ])("%s", (_what, text, max, expected) => {
    const cut = cutText(text, max, (total) => `[${total}]`);
    expect(cut).toBe(expected);
    expect([...cut].length).toBeLessThanOrEqual(max);
  });
});
