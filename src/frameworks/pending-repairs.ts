/**
 * Repaired calls waiting for their Tool: when a framework's hook finds a
 * model's argument text our bounded parser refuses, it hands the framework
 * the call with `{"__toolbound_repair":"<seal>:<reason>"}` as its arguments,
 * and the bridged Tool's `execute` reads the reason back from that stand-in
 * and refuses the call with it, never reading anything else. The stand-in
 * holds the reason only, never arguments: a framework's approval and hooks
 * see the stand-in alone, so no repaired call may run.
 *
 * Nothing is kept between the hook and the Tool. The reason travels in the
 * stand-in itself, sealed with an HMAC under a key drawn when the first
 * repair is made and a nonce drawn for each bridged Tool, so only a stand-in
 * this adapter made for this Tool reads as a repair: a model cannot write a
 * reason of its own into a result that claims to be ours. With nothing held,
 * there is nothing to evict: however many calls of one step are repaired
 * before any of them runs, each gets its own reason, and two runs sharing
 * one tool set cannot disturb each other.
 *
 * Why neither a record by call id nor one by token: ids repeat (two calls of
 * one step may share one, and short ids like `call_0` come back in every run
 * of a local server), and records held by token must be capped, so a step
 * with more repaired calls than the cap lost the first ones' reasons.
 */

import {
  apply,
  getPrototypeOf,
  hasOwn,
  isArray,
  isProxy,
  ownDataValue,
  promiseThen,
  stringCharCodeAt,
  stringSlice,
  weakMapGet,
  weakMapSet,
} from "../../course/src/internal.ts";

/**
 * The argument key a repaired call carries its stand-in under. An arguments
 * object with this key is always answered with a refusal, never validated or
 * run: the key is reserved.
 */
export const REPAIR_KEY = "__toolbound_repair";

/**
 * The reason a call gets when it carries {@link REPAIR_KEY} but not a
 * stand-in this adapter sealed for this Tool (one written by hand, changed,
 * moved from another Tool, or made by another process).
 */
export const UNHELD_REPAIR_REASON = `arguments use the reserved key "${REPAIR_KEY}" without a repair this Tool made (a stand-in written or changed by anyone else is refused, never run)`;

/** The length of a seal: an HMAC-SHA-256 in unpadded base64url. */
const SEAL_LENGTH = 43;
/** The bytes of an HMAC-SHA-256. */
const SEAL_BYTES = 32;

// Stand-ins are sealed and opened on every repaired call, after the step's Tools ran in this
// process: what they use is captured at load (or the core's copy). A Tool that replaced
// `WeakMap.prototype.get`, `crypto.subtle.verify`, `atob` or `RegExp.prototype.test` could pass
// a stand-in it wrote as ours, or refuse ours; one that replaced `Array.isArray` or
// `Object.getOwnPropertyDescriptor` could make a repaired call an ordinary one; and one that
// replaced `JSON.stringify`, `btoa` or `replaceAll` could forge the text a framework passes on.
const NativeUint8Array = Uint8Array;
const jsonStringify = JSON.stringify;
const webCrypto = globalThis.crypto;
const subtle = webCrypto.subtle;
const subtlePrototype = getPrototypeOf(subtle) as SubtleCrypto;
const subtleGenerateKey = subtlePrototype.generateKey;
const subtleSign = subtlePrototype.sign;
const subtleVerify = subtlePrototype.verify;
const getRandomValues = webCrypto.getRandomValues;
const encoder = new TextEncoder();
const textEncode = encoder.encode;

/** Nothing to do with a key drawn: it is awaited where it is used. */
const ignoreKey = (_key: CryptoKey): void => {};

const HEX = "0123456789abcdef";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** `bytes` random bytes as lower-case hex, two digits each, by table (no live `toString` or `padStart`). */
function randomHex(bytes: number): string {
  const values = new NativeUint8Array(bytes);
  apply(getRandomValues, webCrypto, [values]);
  let text = "";
  // By index: `for…of` over a typed array runs the live array iterator's `next`.
  for (let index = 0; index < bytes; index += 1) {
    const value = values[index] as number;
    text += `${HEX[value >> 4]}${HEX[value & 15]}`;
  }
  return text;
}

/**
 * A seal as unpadded base64url, written here: the same text as `btoa` with `+` and `/` replaced
 * and `=` cut, with no live `btoa`, `fromCharCode`, `replaceAll` or `replace` in the way.
 */
function toBase64Url(buffer: ArrayBuffer): string {
  const bytes = new NativeUint8Array(buffer);
  let text = "";
  for (let index = 0; index < SEAL_BYTES; index += 3) {
    const first = bytes[index] as number;
    const second = index + 1 < SEAL_BYTES ? (bytes[index + 1] as number) : 0;
    const third = index + 2 < SEAL_BYTES ? (bytes[index + 2] as number) : 0;
    text += `${BASE64URL[first >> 2]}${BASE64URL[((first & 3) << 4) | (second >> 4)]}`;
    if (index + 1 < SEAL_BYTES) text += BASE64URL[((second & 15) << 2) | (third >> 6)];
    if (index + 2 < SEAL_BYTES) text += BASE64URL[third & 63];
  }
  return text;
}

/** The value of a base64url character, or -1 (what the old `/^[A-Za-z0-9_-]+$/` refused). */
function sextet(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61 + 26;
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 52;
  if (code === 0x2d) return 62;
  return code === 0x5f ? 63 : -1;
}

/**
 * The bytes of a seal's text ({@link SEAL_LENGTH} characters), or undefined for a character
 * outside base64url, or for a last character whose two bits past the last whole byte are not
 * zero: our seals write zeros there, and one seal has one spelling (`atob` dropped them, so
 * four texts read as the same seal).
 */
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  const bytes = new NativeUint8Array(SEAL_BYTES);
  let bits = 0;
  let held = 0;
  let written = 0;
  for (let index = 0; index < SEAL_LENGTH; index += 1) {
    const value = sextet(stringCharCodeAt(text, index));
    if (value < 0) return undefined;
    if (index === SEAL_LENGTH - 1 && (value & 3) !== 0) return undefined;
    held = ((held << 6) | value) & 0x3fff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[written] = (held >> bits) & 0xff;
      written += 1;
    }
  }
  return bytes;
}

/**
 * The repaired calls of the bridged Tools of one framework adapter: the
 * stand-ins it seals for them, and the reasons it reads back.
 *
 * @example
 * const repairs = new PendingRepairs();
 * repairs.serve(bridgedTool);
 * const text = await repairs.hold(bridgedTool, "arguments are not valid JSON at position 8");
 * await repairs.take(bridgedTool, JSON.parse(text)); // "arguments are not valid JSON at position 8"
 */
export class PendingRepairs {
  readonly #nonces = new WeakMap<object, string>();
  #key: Promise<CryptoKey> | undefined;

  /** Makes `tool` one this serves, with a nonce of its own. */
  serve(tool: object): void {
    weakMapSet(this.#nonces, tool, randomHex(16));
  }

  /** Whether `tool` is a bridged Tool this serves. */
  serves(tool: unknown): boolean {
    // A nonce is never undefined: a get answers what a has would, by the captured method.
    return (
      typeof tool === "object" && tool !== null && weakMapGet(this.#nonces, tool) !== undefined
    );
  }

  #signingKey(): Promise<CryptoKey> {
    // Drawn once, on first use: a process that never repairs never makes one.
    if (this.#key === undefined) {
      const drawn = apply(subtleGenerateKey, subtle, [
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign", "verify"],
      ]) as Promise<CryptoKey>;
      this.#key = drawn;
      // A draw that failed is not kept: Node reads the usages through the live array iterator,
      // which a Tool may have broken for a while, and a kept rejection would refuse every
      // repair for the rest of the process.
      promiseThen(drawn, ignoreKey, () => {
        if (this.#key === drawn) this.#key = undefined;
      });
    }
    return this.#key;
  }

  /** What the seal covers: the Tool's nonce and the reason. */
  #sealed(nonce: string, reason: string): Uint8Array<ArrayBuffer> {
    // A buffer of its own (WebCrypto takes no view of a shared one): encode makes a new one.
    return apply(textEncode, encoder, [`${nonce}\n${reason}`]) as Uint8Array<ArrayBuffer>;
  }

  /** The stand-in's token for `tool`, `<seal>:<reason>`; undefined for a tool this does not serve. */
  async #token(tool: unknown, reason: string): Promise<string | undefined> {
    if (typeof tool !== "object" || tool === null) return undefined;
    const nonce = weakMapGet(this.#nonces, tool);
    if (nonce === undefined) return undefined;
    const key = await this.#signingKey();
    const seal = (await apply(subtleSign, subtle, [
      "HMAC",
      key,
      this.#sealed(nonce, reason),
    ])) as ArrayBuffer;
    return `${toBase64Url(seal)}:${reason}`;
  }

  /**
   * The stand-in value for a repaired call of `tool`: `{ [REPAIR_KEY]:
   * "<seal>:<reason>" }`; undefined for a tool this does not serve.
   */
  async standIn(tool: unknown, reason: string): Promise<{ [REPAIR_KEY]: string } | undefined> {
    const token = await this.#token(tool, reason);
    return token === undefined ? undefined : { [REPAIR_KEY]: token };
  }

  /**
   * The argument text a framework gets in place of the model's for a repaired
   * call of `tool` (the stand-in as JSON); undefined for a tool this does not
   * serve.
   */
  async hold(tool: unknown, reason: string): Promise<string | undefined> {
    const token = await this.#token(tool, reason);
    // Written here, the token quoted by the captured stringify: the text JSON.stringify gives
    // the stand-in, with no `toJSON` planted on Object.prototype asked (a string has none).
    return token === undefined ? undefined : `{"${REPAIR_KEY}":${jsonStringify(token)}}`;
  }

  /**
   * The refusal reason for the arguments a framework passed `tool`: undefined
   * (synchronously) for an ordinary call, one without {@link REPAIR_KEY};
   * for one with it, a promise of the reason its stand-in carries when this
   * adapter sealed it for this Tool, or of {@link UNHELD_REPAIR_REASON}.
   *
   * @example
   * const pending = repairs.take(tool, input);
   * const refused = pending === undefined ? undefined : await pending;
   */
  take(tool: object, input: unknown): Promise<string> | undefined {
    // A Proxy is never asked (its traps could run host code): our boundary reads it as arguments.
    if (typeof input !== "object" || input === null || isArray(input) || isProxy(input)) {
      return undefined;
    }
    // Every call asks: most inputs have no such key, and an own-key check allocates nothing.
    if (!hasOwn(input, REPAIR_KEY)) return undefined;
    // Read once, as own data: a getter is never run, nor a `value` planted on Object.prototype
    // taken for an accessor's.
    return this.#open(tool, ownDataValue(input, REPAIR_KEY));
  }

  async #open(tool: object, token: unknown): Promise<string> {
    const nonce = weakMapGet(this.#nonces, tool);
    if (nonce === undefined || typeof token !== "string") return UNHELD_REPAIR_REASON;
    if (token.length <= SEAL_LENGTH || stringCharCodeAt(token, SEAL_LENGTH) !== 0x3a) {
      return UNHELD_REPAIR_REASON;
    }
    const seal = fromBase64Url(token);
    if (seal === undefined) return UNHELD_REPAIR_REASON;
    const reason = stringSlice(token, SEAL_LENGTH + 1);
    const key = await this.#signingKey();
    // verify compares in constant time; a stand-in changed by one character fails it (a seal
    // has one spelling: see fromBase64Url).
    const genuine = await apply(subtleVerify, subtle, [
      "HMAC",
      key,
      seal,
      this.#sealed(nonce, reason),
    ]);
    return genuine === true ? reason : UNHELD_REPAIR_REASON;
  }
}
