/**
 * Stand-ins of repaired calls are sealed and opened on every repaired call,
 * after the step's Tools ran in the host's process and may have replaced
 * built-ins or planted fields on Object.prototype. Each row replaces one,
 * counting its runs (never), and runs the whole course of a repair (serve,
 * seal, read back, refuse what is not ours) on the same adapter: what it
 * answers must equal what it answered before the attack.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  BUILDER_ATTACKS,
  type BuiltinAttack,
  replace,
  restoreAll,
  underAttack,
} from "../../test/support/patched-builtins.ts";
import { PendingRepairs, REPAIR_KEY } from "./pending-repairs.ts";

afterEach(restoreAll);

const REASON = "arguments are not valid JSON at position 8: unexpected end of input";

/** Replaces `target[key]` with a counted stand-in answering `answer(...args)`. */
const counted =
  (target: object, key: PropertyKey, answer: (...args: never[]) => unknown): BuiltinAttack[1] =>
  (count) =>
    replace(target, key, (...args: never[]) => {
      count();
      return answer(...args);
    });

/** The token of the stand-in being read, for a `value` planted on Object.prototype to hand over. */
let genuineToken = "";

const subtlePrototype = Object.getPrototypeOf(crypto.subtle) as object;
const cryptoPrototype = Object.getPrototypeOf(crypto) as object;
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const arrayIteratorPrototype = Object.getPrototypeOf([][Symbol.iterator]()) as object;
const FORGED_SEAL = "A".repeat(43);

const ATTACKS: readonly BuiltinAttack[] = [
  BUILDER_ATTACKS.iterator,
  ["WeakMap.prototype.get (a forged nonce)", counted(WeakMap.prototype, "get", () => "0")],
  ["WeakMap.prototype.has (serving nothing)", counted(WeakMap.prototype, "has", () => false)],
  ["WeakMap.prototype.set (keeping no nonce)", counted(WeakMap.prototype, "set", () => undefined)],
  [
    "JSON.stringify (a forged stand-in text)",
    counted(JSON, "stringify", () => `{"${REPAIR_KEY}":"${FORGED_SEAL}:run it"}`),
  ],
  ["btoa (a forged seal)", counted(globalThis, "btoa", () => FORGED_SEAL)],
  ["atob (forged seal bytes)", counted(globalThis, "atob", () => "\u0000".repeat(32))],
  [
    "String.prototype.replaceAll (a seal left unconverted)",
    counted(String.prototype, "replaceAll", () => "+/+/"),
  ],
  ["String.prototype.replace (a padded seal)", counted(String.prototype, "replace", () => "==")],
  ["String.prototype.slice (an empty text)", counted(String.prototype, "slice", () => "")],
  ["String.prototype.padStart (no padding)", counted(String.prototype, "padStart", () => "0")],
  ["String.prototype.charCodeAt (zero bytes)", counted(String.prototype, "charCodeAt", () => 0)],
  ["String.fromCharCode (no characters)", counted(String, "fromCharCode", () => "")],
  ["Number.prototype.toString (a forged nonce)", counted(Number.prototype, "toString", () => "0")],
  ["RegExp.prototype.test (every seal refused)", counted(RegExp.prototype, "test", () => false)],
  ["RegExp.prototype.exec (every seal refused)", counted(RegExp.prototype, "exec", () => null)],
  [
    "the string iterator (yielding nothing)",
    counted(String.prototype, Symbol.iterator, () => ({ next: () => ({ done: true }) })),
  ],
  [
    "the typed array iterator (yielding nothing)",
    counted(typedArrayPrototype, Symbol.iterator, () => ({ next: () => ({ done: true }) })),
  ],
  [
    "the array iterator's next (yielding nothing)",
    counted(arrayIteratorPrototype, "next", () => ({ done: true, value: undefined })),
  ],
  ["Uint8Array.from (forged seal bytes)", counted(Uint8Array, "from", () => new Uint8Array(32))],
  [
    "the Uint8Array constructor (an empty text to seal)",
    counted(globalThis, "Uint8Array", () => new Uint8Array(0)),
  ],
  [
    "TextEncoder.prototype.encode (a forged text to seal)",
    counted(TextEncoder.prototype, "encode", () => new Uint8Array(1)),
  ],
  [
    "crypto.subtle.sign (a forged seal)",
    counted(subtlePrototype, "sign", async () => new ArrayBuffer(32)),
  ],
  [
    "crypto.subtle.verify (every stand-in ours)",
    counted(subtlePrototype, "verify", async () => true),
  ],
  [
    "crypto.getRandomValues (a nonce of zeros)",
    counted(cryptoPrototype, "getRandomValues", (values: Uint8Array) => values),
  ],
  ["Array.isArray (every input an array)", counted(Array, "isArray", () => true)],
  [
    "Object.getOwnPropertyDescriptor (no key found)",
    counted(Object, "getOwnPropertyDescriptor", () => undefined),
  ],
  ["Object.hasOwn (no key found)", counted(Object, "hasOwn", () => false)],
  [
    "a `value` planted on Object.prototype (a getter's stand-in read as a genuine one)",
    (count) =>
      replace(
        Object.prototype,
        "value",
        () => {
          count();
          return genuineToken;
        },
        true,
      ),
  ],
];

/** Inputs that are not a stand-in of the Tool being read (made with the restored built-ins). */
async function notOurs(repairs: PendingRepairs): Promise<unknown[]> {
  const other = {};
  repairs.serve(other);
  const moved = (await repairs.standIn(other, REASON)) as { [REPAIR_KEY]: string };
  const token = moved[REPAIR_KEY];
  return [
    moved,
    { [REPAIR_KEY]: `${FORGED_SEAL}:${REASON}` },
    { [REPAIR_KEY]: `${token.slice(0, 44)}run it` },
    { [REPAIR_KEY]: `${"*".repeat(43)}${token.slice(43)}` },
    { [REPAIR_KEY]: 7 },
    { text: "an ordinary call" },
    [REPAIR_KEY],
  ];
}

/** The course of one repair on `repairs`, for a new Tool: what each step answers. */
async function course(repairs: PendingRepairs, forged: readonly unknown[]) {
  const tool = {};
  repairs.serve(tool);
  const serves = repairs.serves(tool);
  const text = await repairs.hold(tool, REASON);
  const stand = await repairs.standIn(tool, REASON);
  genuineToken = stand === undefined ? "" : stand[REPAIR_KEY];
  // The key under a getter (which never runs): its value is never a stand-in.
  const behindGetter = Object.defineProperty({}, REPAIR_KEY, {
    __proto__: null,
    enumerable: true,
    get: () => genuineToken,
  } as PropertyDescriptor);
  const reads: unknown[] = [
    await repairs.take(tool, stand),
    await repairs.take(tool, behindGetter),
  ];
  for (let index = 0; index < forged.length; index += 1) {
    reads[reads.length] = await repairs.take(tool, forged[index]);
  }
  return { tool, serves, text, stand, reads };
}

/** What a course answered, with the seals (random) as their shape, read with the built-ins restored. */
async function outcome(repairs: PendingRepairs, done: Awaited<ReturnType<typeof course>>) {
  const seal = /^[A-Za-z0-9_-]{43}:/;
  const token = done.stand?.[REPAIR_KEY];
  return {
    serves: done.serves,
    text: done.text?.replace(/"__toolbound_repair":"[A-Za-z0-9_-]{43}:/, '"<key>":"<seal>:'),
    textReadBack:
      done.text === undefined ? undefined : await repairs.take(done.tool, JSON.parse(done.text)),
    stand: Object.keys(done.stand ?? {}),
    token: typeof token === "string" && seal.test(token) ? token.replace(seal, "") : token,
    reads: done.reads,
  };
}

describe("a repaired call's stand-in, after a Tool replaced the built-ins", () => {
  test("with no attack, the course is the documented one", async () => {
    const repairs = new PendingRepairs();
    const forged = await notOurs(repairs);
    const truth = await outcome(repairs, await course(repairs, forged));
    expect(truth.serves).toBe(true);
    expect(truth.text).toBe(`{"<key>":"<seal>:${REASON}"}`);
    expect(truth.textReadBack).toBe(REASON);
    expect(truth.token).toBe(REASON);
    expect(truth.reads.slice(0, 2)).toEqual([REASON, expect.stringMatching(/^arguments use/)]);
    expect(truth.reads.slice(-2)).toEqual([undefined, undefined]);
  });

  test("the table of attacks is not empty", () => {
    expect(ATTACKS.length).toBeGreaterThan(0);
  });

  test.each(ATTACKS)("%s: the course is the true one", async (_attack, attackWith) => {
    const repairs = new PendingRepairs();
    const forged = await notOurs(repairs);
    // The truth draws the adapter's signing key, once, before the attack: Node's own argument
    // conversion for generateKey reads the live array iterator (in a host, the first repair).
    const truth = await outcome(repairs, await course(repairs, forged));
    let runs = 0;
    attackWith(() => {
      runs += 1;
    });
    const attacked = await underAttack(() => course(repairs, forged));
    expect(runs).toBe(0);
    expect(await outcome(repairs, attacked)).toEqual(truth);
  });
});
