/**
 * The rules for argument values that arrive already parsed (Anthropic's
 * `input`, Gemini's `args`, the AI SDK's parsed input): the same limits as
 * argument text, checked on the value by one iterative walk. Nesting past the
 * depth limit, a compact JSON text past the length limit, a number that is not
 * finite (a reader turned `1e999` into `Infinity`) and a lone surrogate in a
 * key or a string are what a model can cause; each is a fault to answer.
 *
 * The walk may meet a value host code built, so it runs no code of it: it
 * reads own data properties through descriptors (an accessor is passed over,
 * its getter never runs), never looks inside a Proxy or an object whose
 * prototype is not the plain one, and steps over a cycle. What it passed over
 * is reported (`complete: false`), so the caller knows the length it found is
 * only a lower bound and the value is not plain data it may trust as it is.
 */

import {
  ArrayPrototype,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isArray,
  isProxy,
  mapGet,
  mapSet,
  NativeMap,
  numberIsFinite,
  ObjectPrototype,
  stringCharCodeAt,
} from "../../course/src/internal.ts";
import { addData } from "./own-data.ts";

// Captured once: patched globals must not decide what the walk sees.
const objectKeys = Object.keys;

/** What a model can put in a parsed value that the limits refuse. */
export type ValueFault = "deep" | "long" | "not-finite" | "lone-surrogate";

/** What a walk found: a fault, or the compact JSON length and whether it saw everything. */
export type ValueMeasure =
  | { readonly fault: ValueFault }
  | { readonly fault: undefined; readonly characters: number; readonly complete: boolean };

/** One container being walked. */
interface Frame {
  readonly node: object;
  /** Own enumerable keys of an object; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  next: number;
  /** Entries written so far (a comma goes before every one but the first). */
  written: number;
  readonly start: number;
  tallest: number;
  containers: number;
  complete: boolean;
}

/** What a finished container measured, remembered when it holds two or more containers. */
interface Measured {
  readonly height: number;
  readonly characters: number;
  readonly complete: boolean;
}

/**
 * The length of the JSON text `JSON.stringify` writes for `text` (its quotes
 * and escapes included), or -1 when `text` holds a lone surrogate: one pass
 * does both, where a check and then a count took two.
 */
function stringTextLength(text: string): number {
  let length = 2;
  for (let index = 0; index < text.length; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (unit === 0x22 || unit === 0x5c) length += 2;
    else if (unit < 0x20) {
      length +=
        unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d ? 2 : 6;
    } else if (unit < 0xd800 || unit > 0xdfff) length += 1;
    else {
      if (unit > 0xdbff) return -1;
      // Past the end this is NaN, which is no low surrogate.
      const next = stringCharCodeAt(text, index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return -1;
      length += 2;
      index += 1;
    }
  }
  return length;
}

/** True when `node` is a container on the walk's path, innermost last: a cycle. */
function isOnPath(stack: readonly Frame[], node: object): boolean {
  // The path is at most the depth limit long (256 at most), so a scan costs less than a map.
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    if ((stack[index] as Frame).node === node) return true;
  }
  return false;
}

/** True for an array or object this walk looks inside: not a Proxy, with the plain prototype. */
function isPlainContainer(node: object): boolean {
  if (isProxy(node)) return false;
  // Reading the prototype of a non-Proxy object runs no code, even when that prototype is a Proxy.
  const proto = getPrototypeOf(node);
  return isArray(node) ? proto === ArrayPrototype : proto === ObjectPrototype || proto === null;
}

/**
 * Measures a parsed value against `maxDepth` levels (the value itself
 * included) and `limit` characters of compact JSON text, and looks for
 * non-finite numbers and lone surrogates. Stops at the first fault. A
 * container holding two or more containers is measured once however often it
 * appears, so shared parts cost their size, not their paths.
 *
 * @example
 * measureArgumentValue({ a: [1, 2] }, 64, 1_000_000); // { fault: undefined, characters: 11, complete: true }
 */
export function measureArgumentValue(root: object, maxDepth: number, limit: number): ValueMeasure {
  // Made when the first container holding two or more containers closes: most values have none.
  let known: Map<object, Measured> | undefined;
  const stack: Frame[] = [];
  let total = 0;
  let fault: ValueFault | undefined;
  // Adds one value to the text; answers false when it was passed over (the entry is not written).
  const enter = (value: unknown): boolean => {
    // Never `stack[-1]`: read through Array.prototype, a getter planted at "-1" could answer.
    const parent = stack.length === 0 ? undefined : (stack[stack.length - 1] as Frame);
    switch (typeof value) {
      case "number":
        if (!numberIsFinite(value)) fault = "not-finite";
        // A finite number's JSON text is its string form; a template literal calls no method.
        else total += `${value}`.length;
        return true;
      case "string": {
        const length = stringTextLength(value);
        if (length < 0) fault = "lone-surrogate";
        else total += length;
        return true;
      }
      case "boolean":
        total += value ? 4 : 5;
        return true;
      case "object":
        break;
      default:
        // undefined, a function, a symbol, a BigInt: not JSON, and only host code makes them.
        return false;
    }
    if (value === null) {
      total += 4;
      return true;
    }
    const node = value as object;
    if (!isPlainContainer(node) || isOnPath(stack, node)) return false;
    const seen = known === undefined ? undefined : mapGet(known, node);
    if (seen !== undefined) {
      if (stack.length + seen.height > maxDepth) fault = "deep";
      total += seen.characters;
      if (parent !== undefined) {
        parent.containers += 1;
        if (seen.height > parent.tallest) parent.tallest = seen.height;
        if (!seen.complete) parent.complete = false;
      }
      return true;
    }
    if (stack.length + 1 > maxDepth) {
      fault = "deep";
      return true;
    }
    const keys = isArray(node) ? undefined : objectKeys(node);
    const length = keys === undefined ? (node as readonly unknown[]).length : keys.length;
    if (parent !== undefined) parent.containers += 1;
    // Defined, not pushed, and popped by length: push and pop are Array.prototype's, which a
    // Tool may have replaced or given an index setter that swallows a frame (ending the walk
    // early, its limits unchecked).
    addData(stack, ArrayPrototype, stack.length, {
      node,
      keys,
      length,
      next: 0,
      written: 0,
      start: total,
      tallest: 0,
      containers: 0,
      complete: true,
    });
    total += 1;
    return true;
  };
  const walked = enter(root);
  const rootFrame = stack[0];
  while (fault === undefined && total <= limit) {
    const frame = stack.length === 0 ? undefined : stack[stack.length - 1];
    if (frame === undefined) break;
    if (frame.next === frame.length) {
      total += 1;
      stack.length -= 1;
      const height = frame.tallest + 1;
      // Only a container holding two or more containers is remembered: that is where shared
      // parts multiply the paths. A chain or a leaf met again is walked again, at a cost the
      // depth limit bounds, and a tree of small arrays costs no entry per array.
      if (frame.containers >= 2) {
        known ??= new NativeMap<object, Measured>();
        mapSet(known, frame.node, {
          height,
          characters: total - frame.start,
          complete: frame.complete,
        });
      }
      const parent = stack.length === 0 ? undefined : stack[stack.length - 1];
      if (parent !== undefined) {
        if (height > parent.tallest) parent.tallest = height;
        if (!frame.complete) parent.complete = false;
      }
      continue;
    }
    const index = frame.next;
    frame.next = index + 1;
    const key = frame.keys === undefined ? index : (frame.keys[index] as string);
    const descriptor = getOwnPropertyDescriptor(frame.node, key);
    // A hole, or an accessor whose getter must not run here: passed over.
    if (descriptor === undefined || !hasOwn(descriptor, "value")) {
      frame.complete = false;
      continue;
    }
    const before = total;
    if (frame.written > 0) total += 1;
    if (typeof key === "string") {
      const length = stringTextLength(key);
      if (length < 0) {
        fault = "lone-surrogate";
        break;
      }
      total += length + 1;
    }
    if (enter(descriptor.value)) frame.written += 1;
    else {
      // Not written: neither the comma nor the key counts, as JSON.stringify leaves it out.
      total = before;
      frame.complete = false;
    }
  }
  if (fault !== undefined) return { fault };
  if (total > limit) return { fault: "long" };
  const complete = walked && (rootFrame === undefined || rootFrame.complete);
  return { fault: undefined, characters: total, complete };
}
