/**
 * `uniqueItems` in linear time. Ajv compares every pair of items unless their
 * type is declared scalar: 20,000 strings took 1.5 s, and the megabyte of
 * arguments a model may send, minutes. The compiled copy of a server's schema
 * (schema-meter.ts) carries {@link UNIQUE_KEYWORD} instead, checked here by
 * one canonical text per item, with Ajv's own error.
 */

/** The keyword that stands for `uniqueItems: true` in the compiled copy of a schema. */
export const UNIQUE_KEYWORD = "x-toolbound-unique-items";

/** JSON text with each object's keys sorted: two values are equal as JSON Schema says when their texts are. */
function canonical(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(",")}}`;
}

/** An Ajv error as Ajv's own `uniqueItems` reports it. */
interface UniqueError {
  readonly keyword: "uniqueItems";
  readonly message: string;
  readonly params: { readonly i: number; readonly j: number };
}

/**
 * Ajv's `validate` for {@link UNIQUE_KEYWORD}: true when no two items of
 * `data` are equal; else false, with Ajv's own error on `errors` (the last
 * item that repeats an earlier one, `i`, and the last such earlier one, `j`,
 * as Ajv names them).
 *
 * @example
 * uniqueItems(true, [{ a: 1, b: 2 }, { b: 2, a: 1 }]); // false: "items ## 0 and 1 are identical"
 */
export function uniqueItems(this: unknown, _schema: unknown, data: unknown): boolean {
  if (!Array.isArray(data)) return true;
  const lastAt = new Map<string, number>();
  let found: { i: number; j: number } | undefined;
  data.forEach((item, index) => {
    const text = canonical(item);
    const earlier = lastAt.get(text);
    if (earlier !== undefined) found = { i: index, j: earlier };
    lastAt.set(text, index);
  });
  if (found === undefined) return true;
  const error: UniqueError = {
    keyword: "uniqueItems",
    message: `must NOT have duplicate items (items ## ${found.j} and ${found.i} are identical)`,
    params: found,
  };
  (uniqueItems as { errors?: UniqueError[] }).errors = [error];
  return false;
}
