/**
 * `uniqueItems` in linear time. Ajv compares every pair of items unless their
 * type is declared scalar: 20,000 strings took 1.5 s, and the megabyte of
 * arguments a model may send, minutes. The compiled copy of a server's schema
 * (schema-meter.ts) carries {@link UNIQUE_KEYWORD} instead, checked here by
 * one canonical text per item, with Ajv's own error.
 */

/** The keyword that stands for `uniqueItems: true` in the compiled copy of a schema. */
export const UNIQUE_KEYWORD = "x-toolbound-unique-items";

/**
 * JSON text with each object's keys sorted: two values are equal as JSON
 * Schema says when their texts are. Numbers JSON cannot write (infinities,
 * which structured content may hold) are written by name, not as `null`.
 */
function canonical(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value)) return `#${value}`;
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

/** Ajv's `validate` for {@link UNIQUE_KEYWORD}, with its errors on itself. */
type UniqueCheck = ((schema: unknown, data: unknown) => boolean) & { errors?: UniqueError[] };

/**
 * Ajv's `validate` for {@link UNIQUE_KEYWORD}: true when no two items of an
 * array are equal; else false, with Ajv's own error on `errors` (the last
 * item that repeats an earlier one, `i`, and the last such earlier one, `j`,
 * as Ajv names them). Each item's text is paid for with `charge` (a step for
 * each 64 characters): a schema that applies itself to nested arrays writes
 * the inner items again at every level.
 *
 * @example
 * const check = uniqueItemsCheck((steps) => meter.add(steps));
 * check(true, [{ a: 1, b: 2 }, { b: 2, a: 1 }]); // false: "items ## 0 and 1 are identical"
 */
export function uniqueItemsCheck(charge: (steps: number) => void): UniqueCheck {
  const check: UniqueCheck = (_schema, data) => {
    if (!Array.isArray(data)) return true;
    const lastAt = new Map<string, number>();
    let found: { i: number; j: number } | undefined;
    data.forEach((item, index) => {
      const text = canonical(item);
      charge(Math.floor(text.length / 64));
      const earlier = lastAt.get(text);
      if (earlier !== undefined) found = { i: index, j: earlier };
      lastAt.set(text, index);
    });
    if (found === undefined) return true;
    check.errors = [
      {
        keyword: "uniqueItems",
        message: `must NOT have duplicate items (items ## ${found.j} and ${found.i} are identical)`,
        params: found,
      },
    ];
    return false;
  };
  return check;
}
