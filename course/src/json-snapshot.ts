/**
 * Argument snapshots: the deep, frozen JSON copy of untrusted call arguments
 * (and of a definition's schemas) that the validator sees and that later
 * caller mutation cannot reach.
 */

import { type ContainerKind, containerKind, describeExotic } from "./containers.js";
import { contractError, type ToolContractErrorCode } from "./errors.js";
import {
  ArrayPrototype,
  addSlot,
  defineProperty,
  freeze,
  hasOwn,
  isArray,
  isFrozen,
  isProxy,
  mapGet,
  mapSet,
  NativeArray,
  NativeMap,
  NativeTypeError,
  NativeWeakSet,
  numberIsFinite,
  ObjectPrototype,
  weakSetAdd,
  weakSetHas,
} from "./intrinsics.js";
import { addToPath, type ContainerPath, isOnPath, PathRefusal, passedLevel } from "./json-path.js";
import { MISSING, readOwnPlainValue } from "./own-fields.js";
import type { CourseJsonObject, CourseJsonValue } from "./protocol.js";

/** Deepest nesting accepted in call arguments; deeper input is refused, never recursed into. */
export const COURSE_TOOL_ARGUMENTS_MAX_DEPTH = 256;

/** The longest argument array copied into an array made at its length (see JsonSnapshot.array). */
const PREALLOCATED_ARRAY_LENGTH = 64;

/**
 * One reusable, null-prototype data descriptor: no allocation per key, and an
 * `Object.prototype.get` planted by someone cannot turn it into an accessor.
 */
const DATA: { value: unknown; enumerable: true; writable: true; configurable: true } = {
  __proto__: null,
  value: undefined,
  enumerable: true,
  writable: true,
  configurable: true,
} as never;

/**
 * Adds an own data property to a fresh copy. Assignment is the fast path, but
 * it would run an inherited setter (`__proto__`, or one someone planted) or
 * fail on an inherited read-only property (a frozen `Object.prototype`): for a
 * key the prototype has at all, the property is defined instead.
 */
function addData(target: object, proto: object, key: string | number, value: unknown): void {
  if (key in proto) {
    DATA.value = value;
    defineProperty(target, key, DATA);
    DATA.value = undefined;
  } else {
    (target as Record<string | number, unknown>)[key] = value;
  }
}

/** Why a Proxy is refused, wherever it is met. */
const PROXY_REFUSAL = "Proxy objects are not accepted";

/** A copy whose height is being measured: its container children, the next one, the tallest so far. */
interface HeightFrame {
  readonly node: object;
  readonly children: readonly object[];
  next: number;
  tallest: number;
}

class JsonSnapshot implements ContainerPath {
  // Shared references are copied once and reused, so a DAG costs its size, not its
  // paths; made on the first nested container only.
  copies: Map<object, CourseJsonValue> | undefined;
  // How many levels a reused copy nests, itself included, so the depth limit is checked
  // where a shared value appears again, not only where it first did. Measured on the copy
  // when it is first reused, so a value that shares nothing pays nothing for it.
  heights: Map<object, number> | undefined;
  // The containers on the current path, for cycles (see ContainerPath); no list of keys
  // is kept: a refusal gathers its path on the way out (PathRefusal).
  root: object | undefined;
  below: object[] | undefined;
  depth = 0;

  /** Stops the copy; `snapshotJsonObject` turns this into a ToolContractError naming where. */
  refuse(reason: string, cause?: unknown): never {
    throw new PathRefusal(reason, cause);
  }

  value(value: unknown): CourseJsonValue {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        if (!numberIsFinite(value)) this.refuse("numbers must be finite");
        return value;
      case "object":
        if (value === null) return null;
        return this.container(value);
      default:
        return this.refuse(`${typeof value} is not a JSON value`);
    }
  }

  container(value: object): CourseJsonValue {
    if (isProxy(value)) this.refuse(PROXY_REFUSAL);
    return this.unproxied(value);
  }

  /** {@link container} for a value already known not to be a Proxy. */
  unproxied(value: object): CourseJsonValue {
    const copies = this.copies;
    const existing = copies === undefined ? undefined : mapGet(copies, value);
    if (existing !== undefined) {
      // A shared value nests as deep here as where it was copied: reusing the copy must
      // not carry it past the limit (its deepest level would sit at depth + height - 1).
      const height = this.heightOf(existing as object);
      if (this.depth + height - 1 >= COURSE_TOOL_ARGUMENTS_MAX_DEPTH) {
        this.refuse(
          `nesting deeper than ${COURSE_TOOL_ARGUMENTS_MAX_DEPTH} is not accepted (a value repeated here nests ${height} levels)`,
        );
      }
      return existing;
    }
    if (isOnPath(this, value)) this.refuse("cycles are not JSON");
    if (this.depth >= COURSE_TOOL_ARGUMENTS_MAX_DEPTH) {
      this.refuse(`nesting deeper than ${COURSE_TOOL_ARGUMENTS_MAX_DEPTH} is not accepted`);
    }
    let kind: ContainerKind;
    try {
      kind = containerKind(value);
    } catch (thrown) {
      // A Proxy prototype's getPrototypeOf trap threw: never rethrown as it is.
      return this.refuse("reading its prototype threw", thrown);
    }
    if (kind === "exotic") this.refuse(describeExotic(value));
    addToPath(this, value);
    this.depth += 1;
    const copy = kind === "array" ? this.array(value as readonly unknown[]) : this.object(value);
    this.depth -= 1;
    if (this.depth > 0) {
      if (this.copies === undefined) this.copies = new NativeMap();
      mapSet(this.copies, value, copy);
    }
    return copy;
  }

  /**
   * How many levels a finished copy nests, itself included. The copy is this
   * snapshot's own frozen data, at most the limit deep, so the walk has no
   * code to meet and a short stack; each container's height is remembered, so
   * shared parts are measured once.
   */
  heightOf(root: object): number {
    if (this.heights === undefined) this.heights = new NativeMap();
    const heights = this.heights;
    const stack: HeightFrame[] = [];
    // Answers a known height, or opens a frame and answers undefined.
    const open = (node: object): number | undefined => {
      const known = mapGet(heights, node);
      if (known !== undefined) return known;
      const children: object[] = [];
      // Arrays and objects alike: a copy has no holes, and a key planted on a prototype
      // (enumerable, so for…in yields it) is not the copy's own.
      for (const key in node) {
        if (!hasOwn(node, key)) continue;
        const child = (node as { readonly [key: string]: unknown })[key];
        // Defined, not assigned (see addSlot): a planted index setter cannot swallow a child
        // and so hide a level from the height.
        if (typeof child === "object" && child !== null) addSlot(children, children.length, child);
      }
      addSlot(stack, stack.length, { node, children, next: 0, tallest: 0 });
      return undefined;
    };
    const first = open(root);
    if (first !== undefined) return first;
    for (;;) {
      const frame = stack[stack.length - 1] as HeightFrame;
      // Past the end is not indexed either: the hole would be read through Array.prototype.
      const child = frame.next < frame.children.length ? frame.children[frame.next] : undefined;
      if (child === undefined) {
        const height = frame.tallest + 1;
        mapSet(heights, frame.node, height);
        stack.length -= 1;
        // Emptied, the stack is not indexed: `stack[-1]` would be read through
        // Array.prototype, where a getter planted at "-1" could answer a frame.
        if (stack.length === 0) return height;
        const parent = stack[stack.length - 1] as HeightFrame;
        if (height > parent.tallest) parent.tallest = height;
        continue;
      }
      frame.next += 1;
      const known = open(child);
      if (known !== undefined && known > frame.tallest) frame.tallest = known;
    }
  }

  array(value: readonly unknown[]): CourseJsonValue {
    const length = value.length;
    // Made at its length when that is small: an array grown from empty keeps spare slots
    // (17 for one element), which a copy of many small arrays would pay for each. A long
    // one is still grown, so a sparse array refused at its first hole costs nothing first.
    const copy: CourseJsonValue[] =
      length <= PREALLOCATED_ARRAY_LENGTH ? new NativeArray(length) : [];
    for (let index = 0; index < length; index += 1) {
      try {
        // An index, not its text: no string is made per slot.
        const field = this.read(value, index);
        if (field === MISSING) this.refuse("arrays must not have holes");
        addData(copy, ArrayPrototype, index, this.value(field));
      } catch (thrown) {
        throw passedLevel(thrown, index);
      }
    }
    return freeze(copy);
  }

  object(value: object): CourseJsonObject {
    const copy: { [key: string]: CourseJsonValue } = {};
    for (const key in value) {
      let field: unknown;
      try {
        // The own-key check and the read sit in the loop itself, beside for…in: the engine
        // then answers both from the loop's key cache for an object of an ordinary shape.
        // Proxies were refused before any field is read (by `container`, or for the root by
        // snapshotJsonObject); an own getter runs once.
        try {
          // Inherited keys are skipped.
          if (!hasOwn(value, key)) continue;
          field = (value as { readonly [key: string]: unknown })[key];
        } catch (thrown) {
          return this.refuse("reading it threw", thrown);
        }
        // "__proto__" is defined, never assigned: it stays an ordinary own key.
        addData(copy, ObjectPrototype, key, this.value(field));
      } catch (thrown) {
        throw passedLevel(thrown, key);
      }
    }
    return freeze(copy);
  }

  read(target: object, key: string | number): unknown {
    try {
      // Proxies were refused before any field is read (see object()).
      return readOwnPlainValue(target, key);
    } catch (thrown) {
      return this.refuse("reading it threw", thrown);
    }
  }
}

/** Argument objects the library's own text parser built: already a snapshot, taken as they are. */
const parsedArguments = new NativeWeakSet<object>();

/**
 * NOT PUBLIC (the declared internal surface): marks `value` as arguments the
 * library's own bounded parser built from a model's text, so that
 * {@link snapshotJsonObject} (and so {@link snapshotToolCall}) takes it as its
 * own snapshot instead of copying it. The caller guarantees what a snapshot
 * guarantees: a fresh plain object of this realm that nothing else holds,
 * frozen all the way down, made of plain objects and arrays without holes or
 * shared parts, own data properties only, finite numbers, nesting at most
 * {@link COURSE_TOOL_ARGUMENTS_MAX_DEPTH}. A parser can promise that for what
 * it builds from text; a second deep copy would only double the memory the
 * arguments take. Throws a TypeError for a value that is not even a frozen,
 * non-array, non-Proxy object.
 *
 * @example
 * return { ok: true, value: adoptParsedArguments(freeze(parsedObject)) };
 */
export function adoptParsedArguments(value: CourseJsonObject): CourseJsonObject {
  if (
    typeof value !== "object" ||
    value === null ||
    isProxy(value) ||
    isArray(value) ||
    !isFrozen(value)
  ) {
    throw new NativeTypeError("only a frozen JSON object built by the argument parser is adopted");
  }
  weakSetAdd(parsedArguments, value);
  return value;
}

/**
 * Deep-copies a JSON object into frozen plain objects and arrays. Refuses, with
 * a ToolContractError of `code` (default INVALID_TOOL_CALL), anything that is
 * not JSON: Proxies, cycles, holes, non-finite numbers, class instances and
 * other exotic objects. Own getters run once; shared references stay shared.
 *
 * @example
 * const args = snapshotJsonObject({ left: 1, nested: { list: [1, 2] } }, "arguments");
 * Object.isFrozen(args.nested); // true
 */
export function snapshotJsonObject(
  value: unknown,
  label: string,
  code: ToolContractErrorCode = "INVALID_TOOL_CALL",
): CourseJsonObject {
  // Arguments the library's parser built are a snapshot already (see adoptParsedArguments).
  if (weakSetHas(parsedArguments, value)) return value as CourseJsonObject;
  const snapshot = new JsonSnapshot();
  try {
    if (typeof value !== "object" || value === null)
      return snapshot.refuse("must be a JSON object");
    // A Proxy is refused here with container()'s own words, so the check is made once.
    // Array.isArray on a non-Proxy runs nothing; containerKind would read the prototype's
    // prototype a second time (unproxied() reads it once).
    if (isProxy(value)) return snapshot.refuse(PROXY_REFUSAL);
    if (isArray(value)) return snapshot.refuse("must be a JSON object, not an array");
    return snapshot.unproxied(value) as CourseJsonObject;
  } catch (thrown) {
    if (!PathRefusal.is(thrown)) throw thrown;
    throw contractError(
      code,
      `${label} at ${thrown.describe()}`,
      thrown.cause === undefined ? undefined : { cause: thrown.cause },
    );
  }
}
