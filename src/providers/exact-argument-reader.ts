/**
 * The exact reader of a model's argument text: strict JSON read one UTF-16
 * code unit at a time, with every rule of `parseArgumentText` checked where it
 * applies, so that a refusal names the rule and the position of the first
 * fault. Nesting is limited and walked without recursion, and what it builds
 * is frozen plain data.
 *
 * Why hand-written: the library this project would otherwise reach for
 * (`secure-json-parse`) guards `__proto__` and `constructor` keys but calls
 * `JSON.parse` underneath, so it bounds neither length nor depth (a
 * 100,000-deep array is a RangeError), keeps duplicate keys silently (last
 * wins) and accepts lone surrogates. A reviver over `JSON.parse` cannot fix
 * depth either. No maintained parser we know of does all of it, so this file
 * does, with every rule written down and tested. Ordinary text takes the
 * engine's path first (`engine-arguments.ts`); this reader decides whatever
 * that path cannot vouch for, every refusal included.
 */

import {
  ArrayPrototype,
  freeze,
  hasOwn,
  numberIsFinite,
  ObjectPrototype,
  stringCharCodeAt,
  stringSlice,
} from "../../course/src/internal.ts";
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  DIGIT_0,
  DOT,
  hexValue,
  isDigit,
  MINUS,
  OPEN_BRACE,
  OPEN_BRACKET,
  PLUS,
  QUOTE,
  simpleEscape,
} from "./json-characters.ts";
import { isBeyondExactRange, numberExactness, scanNumber } from "./number-exactness.ts";
import { addData } from "./own-data.ts";

// Captured once: patched globals must not decide what a number or a string is.
const toNumber = Number;
const fromCharCode = String.fromCharCode;
const NativeArray = Array;

/** Thrown inside the reader only, and always caught by `parseArgumentText`. */
export class Refusal {
  constructor(readonly reason: string) {}
}

/**
 * One open container. An object is filled as its members are read (so a
 * repeated key is seen at once), keyed by `key`, the one awaiting a value. An
 * array's elements wait on the parser's shared element stack from `base`, and
 * the array is made when it closes, at exactly its length: an array grown one
 * element at a time keeps spare capacity (17 slots for one element), which is
 * how a text of nested arrays used to cost many times what `JSON.parse` costs.
 */
interface Frame {
  readonly object: { [key: string]: unknown } | undefined;
  readonly base: number;
  key: string;
}

class ArgumentParser {
  index = 0;
  // The elements of the open arrays, innermost last; `top` is the first free slot.
  readonly elements: unknown[] = [];
  top = 0;

  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  refuse(position: number, what: string): never {
    throw new Refusal(`arguments are not valid JSON at position ${position}: ${what}`);
  }

  /** The code unit at `index`; NaN past the end, which matches no character below. */
  peek(): number {
    return stringCharCodeAt(this.text, this.index);
  }

  skipWhitespace(): void {
    for (;;) {
      const unit = this.peek();
      if (unit !== 0x20 && unit !== 0x0a && unit !== 0x0d && unit !== 0x09) return;
      this.index += 1;
    }
  }

  /** Refuses at the current position: the end of input, or a character that cannot start `expected`. */
  unexpected(expected: string): never {
    if (this.index >= this.text.length) return this.refuse(this.index, "unexpected end of input");
    return this.refuse(this.index, expected);
  }

  /**
   * Parses the whole text as one JSON value, iteratively: open containers are
   * kept on an explicit stack whose height is the nesting depth, so no input
   * can exhaust the call stack. Every container is frozen when it closes, so
   * the whole value is frozen plain data when the text ends.
   */
  parseDocument(): unknown {
    const stack: Frame[] = [];
    let value: unknown;
    for (;;) {
      this.skipWhitespace();
      const unit = this.peek();
      let opened: Frame | undefined;
      if (unit === OPEN_BRACE || unit === OPEN_BRACKET) {
        if (stack.length >= this.maxDepth) {
          throw new Refusal(
            `arguments nest deeper than ${this.maxDepth} levels at position ${this.index}`,
          );
        }
        this.index += 1;
        this.skipWhitespace();
        if (unit === OPEN_BRACKET) {
          if (this.peek() === CLOSE_BRACKET) {
            this.index += 1;
            value = freeze([]);
          } else opened = { object: undefined, base: this.top, key: "" };
        } else if (this.peek() === CLOSE_BRACE) {
          this.index += 1;
          value = freeze({});
        } else {
          const target: { [key: string]: unknown } = {};
          opened = { object: target, base: this.top, key: this.propertyName(target) };
        }
      } else value = this.primitive(unit);
      if (opened !== undefined) {
        // Defined, not pushed (see addData): a planted index setter must not swallow a frame.
        addData(stack, ArrayPrototype, stack.length, opened);
        continue;
      }
      // A value is complete: store it in the open containers, closing each one it completes.
      for (;;) {
        // An empty stack is not indexed: `stack[-1]` is read through Array.prototype, where a
        // getter planted at "-1" could answer a frame of its making.
        const frame = stack.length === 0 ? undefined : stack[stack.length - 1];
        if (frame === undefined) {
          this.skipWhitespace();
          if (this.index < this.text.length) {
            this.refuse(this.index, "unexpected text after the JSON value");
          }
          return value;
        }
        const object = frame.object;
        if (object === undefined) {
          addData(this.elements, ArrayPrototype, this.top, value);
          this.top += 1;
        } else addData(object, ObjectPrototype, frame.key, value);
        this.skipWhitespace();
        const next = this.peek();
        if (next === COMMA) {
          this.index += 1;
          if (object !== undefined) {
            this.skipWhitespace();
            frame.key = this.propertyName(object);
          }
          break;
        }
        if (next === (object === undefined ? CLOSE_BRACKET : CLOSE_BRACE)) {
          this.index += 1;
          stack.length -= 1;
          value = freeze(object === undefined ? this.closeArray(frame.base) : object);
          continue;
        }
        this.unexpected(
          object === undefined
            ? "expected ',' or ']' after an array element"
            : "expected ',' or '}' after a property value",
        );
      }
    }
  }

  /** The array of the elements from `base` to the top of the element stack, which it empties. */
  closeArray(base: number): unknown[] {
    const length = this.top - base;
    const list: unknown[] = new NativeArray(length);
    const elements = this.elements;
    for (let index = 0; index < length; index += 1) {
      addData(list, ArrayPrototype, index, elements[base + index]);
      // Released at once: a closed array's elements must not stay reachable from here.
      elements[base + index] = undefined;
    }
    this.top = base;
    return list;
  }

  /** Reads `"key":` and refuses a key the object already has. */
  propertyName(target: { [key: string]: unknown }): string {
    const start = this.index;
    if (this.peek() !== QUOTE) this.unexpected("expected a property name in double quotes");
    const key = this.string();
    // Duplicate keys are refused, not resolved: two readers of the same text
    // (a log, an approval prompt, this parser) must never see different arguments.
    if (hasOwn(target, key)) {
      throw new Refusal(`arguments repeat an object key at position ${start}`);
    }
    this.skipWhitespace();
    if (this.peek() !== COLON) this.unexpected("expected ':' after a property name");
    this.index += 1;
    return key;
  }

  primitive(unit: number): unknown {
    if (unit === QUOTE) return this.string();
    if (unit === MINUS || isDigit(unit)) return this.number();
    if (unit === 0x74) return this.literal("true", true);
    if (unit === 0x66) return this.literal("false", false);
    if (unit === 0x6e) return this.literal("null", null);
    return this.unexpected("unexpected character");
  }

  literal(word: string, value: unknown): unknown {
    for (let offset = 0; offset < word.length; offset += 1) {
      if (this.peek() !== stringCharCodeAt(word, offset)) this.unexpected("unexpected character");
      this.index += 1;
    }
    return value;
  }

  digits(): void {
    if (!isDigit(this.peek())) this.unexpected("expected a digit");
    while (isDigit(this.peek())) this.index += 1;
  }

  number(): number {
    const start = this.index;
    if (this.peek() === MINUS) this.index += 1;
    if (this.peek() === DIGIT_0) this.index += 1;
    else this.digits();
    if (this.peek() === DOT) {
      this.index += 1;
      this.digits();
    }
    const exponent = this.peek();
    if (exponent === 0x65 || exponent === 0x45) {
      this.index += 1;
      const sign = this.peek();
      if (sign === PLUS || sign === MINUS) this.index += 1;
      this.digits();
    }
    const value = toNumber(stringSlice(this.text, start, this.index));
    // JSON's grammar allows 1e999; the engine reads it as Infinity, which no Tool can be given.
    if (!numberIsFinite(value)) {
      throw new Refusal(`arguments contain a number too large for a double at position ${start}`);
    }
    // Past 2^53 - 1 or below the normal doubles a literal can change visibly when read:
    // refused like a duplicate key, since a log of the text would show another number.
    if (isBeyondExactRange(value)) {
      const digits = stringCharCodeAt(this.text, start) === MINUS ? start + 1 : start;
      const parts = scanNumber(this.text, digits, this.index);
      const exactness = numberExactness(this.text, parts, value);
      if (exactness === "underflow") {
        throw new Refusal(`arguments contain a number too small for a double at position ${start}`);
      }
      if (exactness === "inexact") {
        throw new Refusal(
          `arguments contain a number a double cannot hold exactly at position ${start}`,
        );
      }
    }
    return value;
  }

  /**
   * Reads a string at the opening quote. Unescaped runs are copied as slices.
   * Lone surrogates are refused, written raw or escaped: JSON text is Unicode,
   * and a Tool that hands such a string to a file system or a shell gets
   * behaviour nobody chose (the model is told, and can write the text again).
   */
  string(): string {
    const text = this.text;
    this.index += 1;
    let result = "";
    let runStart = this.index;
    // Position of a high surrogate still waiting for its low half, or -1.
    let pendingHigh = -1;
    for (;;) {
      const position = this.index;
      const unit = stringCharCodeAt(text, position);
      if (unit === QUOTE) {
        if (pendingHigh >= 0) this.loneSurrogate(pendingHigh);
        result += stringSlice(text, runStart, position);
        this.index = position + 1;
        return result;
      }
      if (unit === BACKSLASH) {
        result += stringSlice(text, runStart, position);
        const escaped = stringCharCodeAt(text, position + 1);
        let decoded: number;
        if (escaped === 0x75) {
          decoded = this.unicodeEscape(position);
          result += fromCharCode(decoded);
          this.index = position + 6;
        } else {
          const simple = simpleEscape(escaped);
          if (simple === undefined) {
            if (position + 1 >= text.length) this.refuse(text.length, "unexpected end of input");
            this.refuse(position, "invalid escape sequence");
          }
          decoded = escaped;
          result += simple;
          this.index = position + 2;
        }
        pendingHigh = this.pairSurrogate(pendingHigh, decoded, position);
        runStart = this.index;
        continue;
      }
      if (unit < 0x20) this.refuse(position, "control characters must be escaped in strings");
      // NaN (the end of the text) fails every comparison above and here.
      if (!(unit >= 0)) this.refuse(position, "unexpected end of input");
      if (pendingHigh >= 0 || (unit >= 0xd800 && unit <= 0xdfff)) {
        pendingHigh = this.pairSurrogate(pendingHigh, unit, position);
      }
      this.index = position + 1;
    }
  }

  /** The code unit of `\uXXXX` at `position`. */
  unicodeEscape(position: number): number {
    let decoded = 0;
    for (let offset = 2; offset < 6; offset += 1) {
      const digit = hexValue(stringCharCodeAt(this.text, position + offset));
      if (digit < 0) {
        if (position + offset >= this.text.length) {
          this.refuse(this.text.length, "unexpected end of input");
        }
        this.refuse(position, "invalid escape sequence");
      }
      decoded = decoded * 16 + digit;
    }
    return decoded;
  }

  /** Tracks surrogate pairs across raw and escaped code units; answers the new pending position. */
  pairSurrogate(pendingHigh: number, unit: number, position: number): number {
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    if (pendingHigh >= 0) {
      if (isLow) return -1;
      this.loneSurrogate(pendingHigh);
    }
    if (unit >= 0xd800 && unit <= 0xdbff) return position;
    if (isLow) this.loneSurrogate(position);
    return -1;
  }

  loneSurrogate(position: number): never {
    throw new Refusal(`arguments contain a lone surrogate at position ${position}`);
  }
}

/**
 * Reads `text` as one JSON value nesting at most `maxDepth` levels, frozen
 * all the way down; throws a {@link Refusal} naming the first fault and its
 * position (nothing else, for any text).
 *
 * @example
 * readExactly('{"a":[1]}', 64); // { a: [1] }, frozen
 */
export function readExactly(text: string, maxDepth: number): unknown {
  return new ArgumentParser(text, maxDepth).parseDocument();
}
