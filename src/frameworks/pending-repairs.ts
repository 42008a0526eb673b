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

import { isProxy } from "../../course/src/internal.ts";

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

const encoder = new TextEncoder();

function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let text = "";
  for (const value of values) text += value.toString(16).padStart(2, "0");
  return text;
}

function toBase64Url(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return globalThis.btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const binary = globalThis.atob(`${text.replaceAll("-", "+").replaceAll("_", "/")}=`);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
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
    this.#nonces.set(tool, randomHex(16));
  }

  /** Whether `tool` is a bridged Tool this serves. */
  serves(tool: unknown): boolean {
    return typeof tool === "object" && tool !== null && this.#nonces.has(tool);
  }

  #signingKey(): Promise<CryptoKey> {
    // Drawn once, on first use: a process that never repairs never makes one.
    this.#key ??= globalThis.crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    return this.#key;
  }

  /** What the seal covers: the Tool's nonce and the reason. */
  #sealed(nonce: string, reason: string): Uint8Array<ArrayBuffer> {
    // Copied into a buffer of its own: WebCrypto takes no view of a shared buffer.
    return new Uint8Array(encoder.encode(`${nonce}\n${reason}`));
  }

  /**
   * The stand-in value for a repaired call of `tool`: `{ [REPAIR_KEY]:
   * "<seal>:<reason>" }`; undefined for a tool this does not serve.
   */
  async standIn(tool: unknown, reason: string): Promise<{ [REPAIR_KEY]: string } | undefined> {
    if (typeof tool !== "object" || tool === null) return undefined;
    const nonce = this.#nonces.get(tool);
    if (nonce === undefined) return undefined;
    const key = await this.#signingKey();
    const seal = await globalThis.crypto.subtle.sign("HMAC", key, this.#sealed(nonce, reason));
    return { [REPAIR_KEY]: `${toBase64Url(seal)}:${reason}` };
  }

  /**
   * The argument text a framework gets in place of the model's for a repaired
   * call of `tool` (the stand-in as JSON); undefined for a tool this does not
   * serve.
   */
  async hold(tool: unknown, reason: string): Promise<string | undefined> {
    const stand = await this.standIn(tool, reason);
    return stand === undefined ? undefined : JSON.stringify(stand);
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
    if (typeof input !== "object" || input === null || Array.isArray(input) || isProxy(input)) {
      return undefined;
    }
    // Read once, as a descriptor: a getter is never run.
    const descriptor = Object.getOwnPropertyDescriptor(input, REPAIR_KEY);
    if (descriptor === undefined) return undefined;
    const token = "value" in descriptor ? descriptor.value : undefined;
    return this.#open(tool, token);
  }

  async #open(tool: object, token: unknown): Promise<string> {
    const nonce = this.#nonces.get(tool);
    if (nonce === undefined || typeof token !== "string") return UNHELD_REPAIR_REASON;
    if (token.length <= SEAL_LENGTH || token[SEAL_LENGTH] !== ":") return UNHELD_REPAIR_REASON;
    const seal = fromBase64Url(token.slice(0, SEAL_LENGTH));
    if (seal === undefined) return UNHELD_REPAIR_REASON;
    const reason = token.slice(SEAL_LENGTH + 1);
    const key = await this.#signingKey();
    // verify compares in constant time; a stand-in changed by one character fails it.
    const genuine = await globalThis.crypto.subtle.verify(
      "HMAC",
      key,
      seal,
      this.#sealed(nonce, reason),
    );
    return genuine ? reason : UNHELD_REPAIR_REASON;
  }
}
