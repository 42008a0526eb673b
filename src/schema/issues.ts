/**
 * Validation messages a model can act on: each issue as `path: message`, a
 * handful at most, each bounded, in the schema's own (deterministic) order,
 * never the whole arguments.
 */

import {
  addSlot,
  arrayAppend,
  fieldOf,
  hasOwn,
  isArray,
  jsonStringify,
  mathMax,
  mathMin,
  regExpTest,
  sealedRegExp,
  stringCharCodeAt,
  stringSlice,
  stringTrim,
} from "./schema-intrinsics.ts";

// Issues are read and written on every refused call, after Tools ran in this process: only
// captured built-ins (see schema-intrinsics.ts), by index, never the live array or string
// iterator. A Tool that replaced `push`, `join`, `trim`, `RegExp.prototype.test` or the string
// iterator could otherwise forge or unbound what the model reads; an issue's fields are read as
// its own or its class's, so none planted on Object.prototype (`message`, `path`, `code`) counts.

/** At most this many issues are written; the rest are counted (`…and N more`). */
export const SCHEMA_MAX_REPORTED_ISSUES = 5;
/** Each written issue, path included, is cut to this many code points. */
export const SCHEMA_MAX_ISSUE_CHARACTERS = 200;
/** Each key in a path is cut to this many code points. */
const MAX_KEY_CHARACTERS = 40;

/** One issue after normalization: where (keys and indexes from the root) and what. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

// Sealed: its own `exec` is the original, whatever `RegExp.prototype.exec` becomes.
const IDENTIFIER = sealedRegExp(/^[A-Za-z_$][A-Za-z0-9_$]*$/);

/** The code units of the code point at `index` of `text`: 2 for a surrogate pair, else 1. */
function unitsAt(text: string, index: number): number {
  const unit = stringCharCodeAt(text, index);
  const next = stringCharCodeAt(text, index + 1);
  return unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** Cuts `text` to `limit` code points (an ellipsis marks the cut) and blanks control characters. */
function bound(text: string, limit: number): string {
  let kept = "";
  let points = 0;
  // Stops at the limit, so a huge message costs only the limit. By code point, as the string
  // iterator walks (a lone surrogate is one), without it.
  for (let index = 0; index < text.length; ) {
    const units = unitsAt(text, index);
    if (points === limit - 1 && index + units < text.length) return `${kept}…`;
    // A pair's first unit is a surrogate, never a control character.
    const code = stringCharCodeAt(text, index);
    kept += code < 0x20 || code === 0x7f ? " " : stringSlice(text, index, index + units);
    points += 1;
    index += units;
  }
  return kept;
}

function segmentText(segment: PropertyKey, first: boolean): string {
  if (typeof segment === "number") return `[${segment}]`;
  if (typeof segment === "symbol") return "[symbol]";
  const key = bound(segment, MAX_KEY_CHARACTERS);
  if (regExpTest(IDENTIFIER, key)) return first ? key : `.${key}`;
  return `[${jsonStringify(key)}]`;
}

/**
 * Formats an issue path: `left`, `items[3].name`, `["odd key"]`, or `(root)`
 * for the arguments object itself. Keys are cut at 40 code points.
 *
 * @example
 * formatIssuePath(["items", 3, "name"]); // "items[3].name"
 */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  let text = "";
  for (let index = 0; index < path.length; index += 1) {
    text += segmentText(path[index] as PropertyKey, index === 0);
  }
  return text;
}

/**
 * Writes issues as `path: message` joined by `; `: the first five, each cut to
 * 200 code points, then `…and N more` when `total` (default: the list's length)
 * says there were more. An empty list gives a generic sentence.
 *
 * @example
 * formatIssues([{ path: ["left"], message: "Expected number, received string" }]);
 * // "left: Expected number, received string"
 */
export function formatIssues(issues: readonly SchemaIssue[], total = issues.length): string {
  const shown = mathMin(issues.length, SCHEMA_MAX_REPORTED_ISSUES);
  if (shown === 0) return "arguments do not match the schema";
  // Written as `parts.join("; ")` would write them, by concatenation.
  let text = "";
  for (let index = 0; index < shown; index += 1) {
    const issue = issues[index] as SchemaIssue;
    const message = stringTrim(issue.message) === "" ? "is invalid" : issue.message;
    const part = bound(`${formatIssuePath(issue.path)}: ${message}`, SCHEMA_MAX_ISSUE_CHARACTERS);
    text += index === 0 ? part : `; ${part}`;
  }
  const hidden = mathMax(total, shown) - shown;
  return hidden > 0 ? `${text}; …and ${hidden} more` : text;
}

/** `list[index]`, a hole read as undefined (as `for…of` read it) without asking Array.prototype. */
const slot = (list: readonly unknown[], index: number): unknown =>
  hasOwn(list, index) ? list[index] : undefined;

function readPath(path: unknown): PropertyKey[] {
  if (!isArray(path)) return [];
  const keys: PropertyKey[] = [];
  for (let index = 0; index < path.length; index += 1) {
    const segment = slot(path, index);
    const key = typeof segment === "object" && segment !== null ? fieldOf(segment, "key") : segment;
    if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
      addSlot(keys, keys.length, key);
    }
  }
  return keys;
}

const UNKNOWN_KEY = "is not allowed (unknown key)";

/** The message of one issue, with each library's unknown-key report worded the same way. */
function messageOf(issue: object, vendor: string): string {
  if (
    (vendor === "valibot" &&
      fieldOf(issue, "type") === "strict_object" &&
      fieldOf(issue, "expected") === "never") ||
    (vendor === "arktype" &&
      fieldOf(issue, "code") === "predicate" &&
      fieldOf(issue, "expected") === "removed")
  ) {
    return UNKNOWN_KEY;
  }
  // arktype's `message` repeats the path (`left must be a number`); `problem` does not.
  const problem = vendor === "arktype" ? fieldOf(issue, "problem") : undefined;
  if (typeof problem === "string") return problem;
  const message = fieldOf(issue, "message");
  return typeof message === "string" ? message : "is invalid";
}

/**
 * Normalizes a Standard Schema failure's issues, keeping the first five and
 * counting all. Unknown keys read the same whatever the library: zod's one
 * issue listing several keys becomes one issue per key, and zod, valibot and
 * arktype unknown-key issues all say `is not allowed (unknown key)`. For
 * arktype, whose messages repeat the path, the issue's `problem` text is used.
 *
 * @example
 * readStandardIssues([{ message: "Required", path: [{ key: "left" }] }], "valibot");
 * // { issues: [{ path: ["left"], message: "Required" }], total: 1 }
 */
export function readStandardIssues(
  issues: unknown,
  vendor: string,
): { readonly issues: readonly SchemaIssue[]; readonly total: number } {
  if (!isArray(issues)) return { issues: [], total: 0 };
  const normalized: SchemaIssue[] = [];
  let total = 0;
  const add = (issue: SchemaIssue): void => {
    total += 1;
    if (normalized.length < SCHEMA_MAX_REPORTED_ISSUES) {
      addSlot(normalized, normalized.length, issue);
    }
  };
  for (let index = 0; index < issues.length; index += 1) {
    const issue = slot(issues, index);
    if (typeof issue !== "object" || issue === null) {
      add({ path: [], message: "is invalid" });
      continue;
    }
    const path = readPath(fieldOf(issue, "path"));
    const keys =
      vendor === "zod" && fieldOf(issue, "code") === "unrecognized_keys"
        ? fieldOf(issue, "keys")
        : undefined;
    if (isArray(keys)) {
      for (let at = 0; at < keys.length; at += 1) {
        const key = slot(keys, at);
        if (typeof key === "string") add({ path: arrayAppend(path, key), message: UNKNOWN_KEY });
      }
      continue;
    }
    add({ path, message: messageOf(issue, vendor) });
  }
  return { issues: normalized, total };
}
