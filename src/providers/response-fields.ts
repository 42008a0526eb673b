/**
 * One-read access to a provider's response object. Responses come from SDKs
 * (plain objects, or class instances whose helpers are prototype getters, like
 * `@google/genai`'s `functionCalls`), or from host code that may be wrong: own
 * fields are read once each, inherited fields count as absent and their
 * getters never run, and a Proxy is refused before any of its traps can run.
 * Every refusal is a TypeError naming the format, the path and what was found.
 */

import {
  ArrayPrototype,
  isArray,
  isNonBlankString,
  isProxy,
  MISSING,
  NativeTypeError,
  readOwnValue,
} from "../../course/src/internal.ts";
import { describeFound } from "./describe-found.ts";
import { addData } from "./own-data.ts";
import type { RoundTripFormat } from "./round-trip-formats.ts";

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
  field(target: object, key: string, path: string): unknown {
    let value: unknown;
    try {
      value = readOwnValue(target, key);
    } catch (thrown) {
      return this.fail(`${path}.${key}`, "readable", undefined, thrown);
    }
    return value === MISSING ? undefined : value;
  }

  /**
   * The elements of an array, read by index through own fields (never through
   * its iterator or methods, which the array or its prototype may override).
   */
  elements(value: unknown, path: string, expected = "an array"): unknown[] {
    if (!this.isList(value)) return this.fail(path, expected, value);
    const length = this.field(value, "length", path) as number;
    const copy: unknown[] = [];
    for (let index = 0; index < length; index += 1) {
      addData(copy, ArrayPrototype, index, this.field(value, `${index}`, path));
    }
    return copy;
  }

  /** A non-blank string field (an id or a name). */
  text(target: object, key: string, path: string): string {
    const value = this.field(target, key, path);
    if (!isNonBlankString(value)) this.fail(`${path}.${key}`, "a non-blank string", value);
    return value;
  }
}
