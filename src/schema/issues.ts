/**
 * Validation messages a model can act on: each issue as `path: message`, a
 * handful at most, each bounded, in the schema's own (deterministic) order,
 * never the whole arguments.
 */

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

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Cuts `text` to `limit` code points (an ellipsis marks the cut) and blanks control characters. */
function bound(text: string, limit: number): string {
  let kept = "";
  let points = 0;
  let consumed = 0;
  // Stops at the limit, so a huge message costs only the limit.
  for (const character of text) {
    if (points === limit - 1 && consumed + character.length < text.length) return `${kept}…`;
    const code = character.codePointAt(0) ?? 0;
    kept += code < 0x20 || code === 0x7f ? " " : character;
    points += 1;
    consumed += character.length;
  }
  return kept;
}

function segmentText(segment: PropertyKey, first: boolean): string {
  if (typeof segment === "number") return `[${segment}]`;
  if (typeof segment === "symbol") return "[symbol]";
  const key = bound(segment, MAX_KEY_CHARACTERS);
  if (IDENTIFIER.test(key)) return first ? key : `.${key}`;
  return `[${JSON.stringify(key)}]`;
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
  const shown = Math.min(issues.length, SCHEMA_MAX_REPORTED_ISSUES);
  if (shown === 0) return "arguments do not match the schema";
  const parts: string[] = [];
  for (let index = 0; index < shown; index += 1) {
    const issue = issues[index] as SchemaIssue;
    const message = issue.message.trim() === "" ? "is invalid" : issue.message;
    parts.push(bound(`${formatIssuePath(issue.path)}: ${message}`, SCHEMA_MAX_ISSUE_CHARACTERS));
  }
  const hidden = Math.max(total, shown) - shown;
  if (hidden > 0) parts.push(`…and ${hidden} more`);
  return parts.join("; ");
}

function readPath(path: unknown): PropertyKey[] {
  if (!Array.isArray(path)) return [];
  const keys: PropertyKey[] = [];
  for (const segment of path as readonly unknown[]) {
    const key =
      typeof segment === "object" && segment !== null
        ? (segment as { readonly key?: unknown }).key
        : segment;
    if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
      keys.push(key);
    }
  }
  return keys;
}

const UNKNOWN_KEY = "is not allowed (unknown key)";

type IssueFields = {
  readonly message?: unknown;
  readonly path?: unknown;
  readonly problem?: unknown;
  readonly code?: unknown;
  readonly keys?: unknown;
  readonly type?: unknown;
  readonly expected?: unknown;
};

/** The message of one issue, with each library's unknown-key report worded the same way. */
function messageOf(issue: IssueFields, vendor: string): string {
  if (
    (vendor === "valibot" && issue.type === "strict_object" && issue.expected === "never") ||
    (vendor === "arktype" && issue.code === "predicate" && issue.expected === "removed")
  ) {
    return UNKNOWN_KEY;
  }
  // arktype's `message` repeats the path (`left must be a number`); `problem` does not.
  if (vendor === "arktype" && typeof issue.problem === "string") return issue.problem;
  return typeof issue.message === "string" ? issue.message : "is invalid";
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
  if (!Array.isArray(issues)) return { issues: [], total: 0 };
  const normalized: SchemaIssue[] = [];
  let total = 0;
  const add = (issue: SchemaIssue): void => {
    total += 1;
    if (normalized.length < SCHEMA_MAX_REPORTED_ISSUES) normalized.push(issue);
  };
  for (const issue of issues as readonly unknown[]) {
    if (typeof issue !== "object" || issue === null) {
      add({ path: [], message: "is invalid" });
      continue;
    }
    const fields = issue as IssueFields;
    const path = readPath(fields.path);
    if (vendor === "zod" && fields.code === "unrecognized_keys" && Array.isArray(fields.keys)) {
      for (const key of fields.keys as readonly unknown[]) {
        if (typeof key === "string") add({ path: [...path, key], message: UNKNOWN_KEY });
      }
      continue;
    }
    add({ path, message: messageOf(fields, vendor) });
  }
  return { issues: normalized, total };
}
