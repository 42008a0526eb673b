/**
 * The location of a value inside a Tool call or output, for error messages
 * such as `$.items[3]` or `$["odd key"]` (long keys are shortened, so a hostile
 * key cannot flood a message), and the refusal that gathers it while a walk
 * unwinds.
 */

import { addSlot, regExpTest, sealedRegExp, stringCharCodeAt, stringSlice } from "./intrinsics.js";

const IDENTIFIER = sealedRegExp(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
const MAX_KEY_CHARACTERS = 40;

function quote(text: string): string {
  let quoted = '"';
  for (let index = 0; index < text.length; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (unit === 0x22 || unit === 0x5c) quoted += `\\${stringSlice(text, index, index + 1)}`;
    else if (unit < 0x20) quoted += "?";
    else quoted += stringSlice(text, index, index + 1);
  }
  return `${quoted}"`;
}

/** A path segment: an array index or an object key. */
export type PathSegment = string | number;

/** One segment as it is written after the `$`: `.name`, `["odd key"]` or `[3]`. */
function segmentText(segment: PathSegment): string {
  if (typeof segment === "number") return `[${segment}]`;
  const short =
    segment.length > MAX_KEY_CHARACTERS
      ? `${stringSlice(segment, 0, MAX_KEY_CHARACTERS)}…`
      : segment;
  return regExpTest(IDENTIFIER, short) ? `.${short}` : `[${quote(short)}]`;
}

/**
 * Formats a trail gathered while a walk unwinds from where it stopped, the
 * innermost segment first: the walks keep no path while they go (a flat value
 * would pay for a list it never reads), each level adds its key on the way out
 * of a refusal instead.
 *
 * @example
 * formatJsonTrail([3, "items"]); // "$.items[3]"
 */
export function formatJsonTrail(trail: readonly PathSegment[]): string {
  let text = "$";
  for (let index = trail.length - 1; index >= 0; index -= 1) {
    text += segmentText(trail[index] as PathSegment);
  }
  return text;
}

/**
 * Why a walk of untrusted JSON refused a value: thrown where it stopped and
 * caught where the walk began, never further. Each level it passes on the way
 * out adds its key or index to `trail` (see {@link formatJsonTrail}).
 */
export class PathRefusal {
  /** The refusal's location, the innermost segment first. */
  readonly trail: PathSegment[] = [];
  // A brand asked with `#refusal in value`, not `instanceof`: a value that is not ours may
  // be a thrown Proxy, whose getPrototypeOf trap `instanceof` would run at every level.
  readonly #refusal = true;

  constructor(
    readonly reason: string,
    readonly cause: unknown,
  ) {}

  /** The refusal's location and reason, as messages write them: `$.items[3]: reason`. */
  describe(): string {
    return `${formatJsonTrail(this.trail)}: ${this.reason}`;
  }

  /** Whether `value` is a refusal (runs none of its code, a Proxy's included). */
  static is(value: unknown): value is PathRefusal {
    return typeof value === "object" && value !== null && #refusal in value;
  }
}

/**
 * Adds `segment` to a refusal passing out of one level of a walk and returns
 * what was thrown, to be thrown again; anything else passes untouched. The
 * segment is defined, not assigned: an index setter planted on
 * Array.prototype never sees it.
 *
 * @example
 * try { walkEntry(key); } catch (thrown) { throw passedLevel(thrown, key); }
 */
export function passedLevel(thrown: unknown, segment: PathSegment): unknown {
  if (PathRefusal.is(thrown)) addSlot(thrown.trail, thrown.trail.length, segment);
  return thrown;
}

/**
 * The containers on a walk's current path, for its cycle check: the one at
 * depth 0, and those below it, each at its depth (slot 0 unused), in a list
 * made when the walk first goes below the root, so a flat value makes none.
 * The argument copy and the output walk each keep these fields.
 */
export interface ContainerPath {
  root: object | undefined;
  below: object[] | undefined;
  /** How many containers are open: the next one is recorded at this depth. */
  depth: number;
}

/** Whether `value` is a container on `path` (a cycle). */
export function isOnPath(path: ContainerPath, value: object): boolean {
  // At depth 0 nothing is on the path yet: `root` is still undefined.
  if (path.root === value) return true;
  for (let index = 1; index < path.depth; index += 1) {
    if ((path.below as object[])[index] === value) return true;
  }
  return false;
}

/** Records `value` on `path` at its depth; the caller then counts the depth up. */
export function addToPath(path: ContainerPath, value: object): void {
  const depth = path.depth;
  if (depth === 0) {
    path.root = value;
    return;
  }
  if (path.below === undefined) path.below = newPathArray() as object[];
  // A slot it has is overwritten; a new one is defined, not assigned: an index setter
  // planted on Array.prototype never sees a container, nor can its getter hide a cycle.
  if (depth < path.below.length) path.below[depth] = value;
  else addSlot(path.below, depth, value);
}

/**
 * A four-slot array for a path being walked: most outputs nest a level or two, and
 * an array grown from empty would take 17 slots at once. Deeper walks grow it
 * as usual (one element at a time, at its end, so it stays packed).
 */
export function newPathArray(): unknown[] {
  return [undefined, undefined, undefined, undefined];
}
