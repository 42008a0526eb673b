/**
 * One-read access to a provider's response object. Responses come from SDKs
 * (plain objects, or class instances whose helpers are prototype getters, like
 * `@google/genai`'s `functionCalls`), or from host code that may be wrong: own
 * fields are read once each, inherited fields count as absent and their
 * getters never run, and a Proxy is refused before any of its traps can run.
 * Every refusal is a TypeError naming the format, the path and what was found.
 */

import {
  isArray,
  isNonBlankString,
  isProxy,
  MISSING,
  NativeTypeError,
  readOwnValue,
} from "../../course/src/internal.ts";
import { describeFound } from "./describe-found.ts";
import { type InventedIdPrefix, inventedId } from "./invented-ids.ts";
import type { RoundTripFormat } from "./round-trip-formats.ts";

/**
 * The most items one array of a response may hold (choices, candidates, tool
 * calls, output items, content blocks, parts): 100,000, far beyond what any
 * model turn carries. A longer array is refused before any item is read.
 */
export const MAX_RESPONSE_ITEMS = 100_000;

/** An array of a response, read one slot at a time (see {@link ResponseReader.elements}). */
export interface ResponseList {
  readonly length: number;
  /** The slot's own value (an own getter runs once per ask), or undefined for a hole. */
  at(index: number): unknown;
}

/** A list with no items. */
export const NO_ITEMS: ResponseList = Object.freeze({ length: 0, at: () => undefined });

/** Reads one response of one format; `fail` builds the TypeError every refusal throws. */
export class ResponseReader {
  constructor(readonly format: RoundTripFormat) {}

  /** Throws the TypeError for a response that is not of this format. */
  refuse(what: string, cause?: unknown): never {
    const message = `readToolCalls("${this.format}"): ${what}`;
    throw cause === undefined
      ? new NativeTypeError(message)
      : new NativeTypeError(message, { cause });
  }

  fail(path: string, expected: string, found: unknown, cause?: unknown): never {
    return this.refuse(`${path} must be ${expected}; found ${describeFound(found)}`, cause);
  }

  /** True for an object whose fields may be read: not null, not an array, not a Proxy. */
  isRecord(value: unknown): value is object {
    return typeof value === "object" && value !== null && !isProxy(value) && !isArray(value);
  }

  /** True for an array that may be read by index: not a Proxy. */
  isList(value: unknown): value is readonly unknown[] {
    return typeof value === "object" && value !== null && !isProxy(value) && isArray(value);
  }

  /** `value` as an object whose fields may be read, or the TypeError naming `path`. */
  record(value: unknown, path: string, expected = "an object"): object {
    if (!this.isRecord(value)) this.fail(path, expected, value);
    return value;
  }

  /**
   * An own field, read once (an own getter runs once; a getter that throws is
   * the host's mistake and becomes a TypeError with the thrown value as
   * `cause`). An absent or inherited field is undefined.
   */
  field(target: object, key: string | number, path: string): unknown {
    let value: unknown;
    try {
      value = readOwnValue(target, key);
    } catch (thrown) {
      const at = typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`;
      return this.fail(at, "readable", undefined, thrown);
    }
    return value === MISSING ? undefined : value;
  }

  /**
   * The elements of an array, read by index through own fields (never through
   * its iterator or methods, which the array or its prototype may override),
   * each when it is asked for: nothing is copied, so a caller that refuses a
   * slot reads none after it. The count is checked first: an array longer
   * than {@link MAX_RESPONSE_ITEMS} is refused before any slot is read, so a
   * `length` of fifty million costs what a short array costs.
   */
  elements(value: unknown, path: string, expected = "an array"): ResponseList {
    if (!this.isList(value)) return this.fail(path, expected, value);
    // An array's own length is a data field: reading it runs nothing.
    const length = this.field(value, "length", path) as number;
    if (length > MAX_RESPONSE_ITEMS) {
      this.refuse(
        `${path} holds ${length} items, more than the ${MAX_RESPONSE_ITEMS} one response can hold`,
      );
    }
    return { length, at: (index) => this.field(value, index, path) };
  }

  /**
   * A call's id: the provider's own string, or, when it sent none (the field
   * absent, null, empty or only white space), one made up for the call at
   * `index` (see `invented-ids.ts`) so that one call without an id does not
   * lose the whole turn. Anything but a string is the host's mistake.
   */
  callId(
    target: object,
    key: string,
    path: string,
    prefix: InventedIdPrefix,
    index: number,
  ): string {
    const value = this.field(target, key, path);
    if (value === undefined || value === null || value === "") return inventedId(prefix, index);
    if (typeof value !== "string")
      return this.fail(`${path}.${key}`, "a string when present", value);
    return isNonBlankString(value) ? value : inventedId(prefix, index);
  }

  /** A non-blank string field (an id or a name). */
  text(target: object, key: string, path: string): string {
    const value = this.field(target, key, path);
    if (!isNonBlankString(value)) this.fail(`${path}.${key}`, "a non-blank string", value);
    return value;
  }
}
