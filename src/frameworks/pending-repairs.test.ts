/**
 * Sealed stand-ins of repaired calls: the reason travels in the stand-in, and
 * reads back only for the Tool it was sealed for, from the adapter that
 * sealed it, unchanged. Nothing is held, so nothing can be evicted.
 */
import { describe, expect, test } from "vitest";
import { replace, restoreAll } from "../../test/support/patched-builtins.ts";
import { PendingRepairs, REPAIR_KEY, UNHELD_REPAIR_REASON } from "./pending-repairs.ts";

function served() {
  const repairs = new PendingRepairs();
  const tool = {};
  repairs.serve(tool);
  return { repairs, tool };
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const REASON = "arguments are not valid JSON at position 8: unexpected end of input";

describe("a stand-in", () => {
  test("carries the reason under a seal, and reads back as that reason", async () => {
    const { repairs, tool } = served();
    const text = (await repairs.hold(tool, REASON)) as string;
    const stand = JSON.parse(text) as Record<string, string>;
    expect(Object.keys(stand)).toEqual([REPAIR_KEY]);
    expect(stand[REPAIR_KEY]).toMatch(/^[A-Za-z0-9_-]{43}:/);
    expect(stand[REPAIR_KEY]?.endsWith(`:${REASON}`)).toBe(true);
    await expect(repairs.take(tool, stand)).resolves.toBe(REASON);
    // Read again, it answers again: nothing was taken out of a store.
    await expect(repairs.take(tool, stand)).resolves.toBe(REASON);
  });

  test("5,000 of them for one Tool each keep their own reason", async () => {
    const { repairs, tool } = served();
    const stands = [];
    for (let index = 0; index < 5_000; index += 1)
      stands.push(await repairs.standIn(tool, `r${index}`));
    const reasons = await Promise.all(stands.map((stand) => repairs.take(tool, stand)));
    expect(reasons).toEqual(stands.map((_, index) => `r${index}`));
  });

  test.each([
    ["the reason changed", (token: string) => `${token.slice(0, 44)}run it`],
    ["the seal changed", (token: string) => `${token[0] === "A" ? "B" : "A"}${token.slice(1)}`],
    ["no colon after the seal", (token: string) => `${token.slice(0, 43)}-${token.slice(44)}`],
    ["a seal that is not base64url", (token: string) => `${"*".repeat(43)}${token.slice(43)}`],
    ["only a seal", (token: string) => token.slice(0, 43)],
    // 43 characters carry two bits past the seal's 32 bytes, always zero in ours: set, the text
    // reads as the same bytes, and a seal has one spelling.
    [
      "the seal's last character spelled another way",
      (token: string) =>
        `${token.slice(0, 42)}${BASE64URL[BASE64URL.indexOf(token[42] as string) | 1]}${token.slice(43)}`,
    ],
    ["an old random token", () => "00000000-0000-4000-8000-000000000000"],
  ])("%s: not ours, refused as such", async (_label, change) => {
    const { repairs, tool } = served();
    const stand = (await repairs.standIn(tool, REASON)) as Record<string, string>;
    const token = stand[REPAIR_KEY] as string;
    await expect(repairs.take(tool, { [REPAIR_KEY]: change(token) })).resolves.toBe(
      UNHELD_REPAIR_REASON,
    );
  });

  test("sealed for one Tool, it is not another's; sealed by one adapter, not another's", async () => {
    const { repairs, tool } = served();
    const other = {};
    repairs.serve(other);
    const stand = await repairs.standIn(tool, REASON);
    await expect(repairs.take(other, stand)).resolves.toBe(UNHELD_REPAIR_REASON);
    const elsewhere = new PendingRepairs();
    elsewhere.serve(tool);
    await expect(elsewhere.take(tool, stand)).resolves.toBe(UNHELD_REPAIR_REASON);
  });

  test("a tool it does not serve gets no stand-in", async () => {
    const repairs = new PendingRepairs();
    await expect(repairs.hold({}, REASON)).resolves.toBeUndefined();
    await expect(repairs.hold(null, REASON)).resolves.toBeUndefined();
    expect(repairs.serves({})).toBe(false);
  });
});

describe("what take reads", () => {
  test.each([
    ["an ordinary object", { text: "hi" }],
    ["an array", [REPAIR_KEY]],
    ["a string", REPAIR_KEY],
    ["null", null],
    [
      "a Proxy, whose traps never run",
      new Proxy(
        {},
        {
          getOwnPropertyDescriptor: () => {
            throw new Error("trap ran");
          },
        },
      ),
    ],
  ])("%s is an ordinary call: undefined, at once", (_label, input) => {
    const { repairs, tool } = served();
    expect(repairs.take(tool, input)).toBeUndefined();
  });

  test("the key under a getter, which never runs, or holding no string, is refused", async () => {
    const { repairs, tool } = served();
    let reads = 0;
    const withGetter = Object.defineProperty({}, REPAIR_KEY, {
      enumerable: true,
      get: () => {
        reads += 1;
        return "x";
      },
    });
    await expect(repairs.take(tool, withGetter)).resolves.toBe(UNHELD_REPAIR_REASON);
    await expect(repairs.take(tool, { [REPAIR_KEY]: 7 })).resolves.toBe(UNHELD_REPAIR_REASON);
    expect(reads).toBe(0);
  });
});

test("a key that could not be drawn is drawn again at the next repair", async () => {
  const { repairs, tool } = served();
  // Node reads the key's usages through the live array iterator: one a Tool broke fails the draw.
  replace(Array.prototype, Symbol.iterator, function* broken() {});
  let first: unknown;
  try {
    first = await repairs.standIn(tool, REASON).catch((error: unknown) => error);
  } finally {
    restoreAll();
  }
  expect(first).toBeInstanceOf(Error);
  const stand = await repairs.standIn(tool, REASON);
  await expect(repairs.take(tool, stand)).resolves.toBe(REASON);
});
