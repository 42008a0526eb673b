/**
 * A reference model of the serializer for plain JSON: the exact text it must
 * write (sorted keys, its escaping rules) and what each budget would consume.
 * The differential properties compare the real serializer with this model and
 * with the engine's own `JSON.parse`.
 */

import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  COURSE_TOOL_SERIALIZATION_MAX_DEPTH,
  COURSE_TOOL_SERIALIZATION_MAX_NODES,
  COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS,
} from "../../../course/src/index.ts";
import type { Json } from "./json-arbitraries.ts";

/** What serializing a value costs against each budget. */
export interface Cost {
  nodes: number;
  visits: number;
  stringPoints: number;
  nesting: number;
}

/** The model's verdict: the canonical text and the cost of writing it. */
export interface Modelled {
  readonly text: string;
  readonly cost: Cost;
}

/** Counts code points the way the boundary does: a pair is one, a lone surrogate is one. */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function quote(text: string, cost: Cost): string {
  let out = '"';
  for (const point of text) {
    cost.stringPoints += 1;
    const unit = point.charCodeAt(0);
    if (point === '"') out += '\\"';
    else if (point === "\\") out += "\\\\";
    else if (unit < 0x20 || (point.length === 1 && unit >= 0xd800 && unit <= 0xdfff)) {
      out += `\\u${unit.toString(16).padStart(4, "0")}`;
    } else out += point;
  }
  return `${out}"`;
}

function write(value: Json, cost: Cost, depth: number): string {
  cost.nodes += 1;
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return Object.is(value, -0) ? "0" : String(value);
  if (typeof value === "string") return quote(value, cost);
  cost.nesting = Math.max(cost.nesting, depth + 1);
  if (Array.isArray(value)) {
    cost.visits += value.length;
    return `[${value.map((item) => write(item, cost, depth + 1)).join(",")}]`;
  }
  const keys = Object.keys(value).sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  cost.visits += keys.length;
  const parts = keys.map(
    (key) => `${quote(key, cost)}:${write(value[key] as Json, cost, depth + 1)}`,
  );
  return `{${parts.join(",")}}`;
}

/** Writes `value` as the serializer must, and tallies what each budget consumes. */
export function model(value: Json): Modelled {
  const cost: Cost = { nodes: 0, visits: 0, stringPoints: 0, nesting: 0 };
  const text = write(value, cost, 0);
  return { text, cost };
}

/** True when writing the value stays within every budget, so nothing may be truncated. */
export function withinBudgets(modelled: Modelled): boolean {
  const { cost } = modelled;
  return (
    cost.nodes <= COURSE_TOOL_SERIALIZATION_MAX_NODES &&
    cost.visits <= COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES &&
    cost.stringPoints <= COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS &&
    cost.nesting <= COURSE_TOOL_SERIALIZATION_MAX_DEPTH &&
    codePoints(modelled.text) <= COURSE_TOOL_OUTPUT_CAP_CHARACTERS
  );
}

/** A deep copy with -0 turned into 0, which is what JSON text can carry. */
export function normalized(value: Json): Json {
  if (typeof value === "number") return Object.is(value, -0) ? 0 : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(normalized);
  const copy: { [key: string]: Json } = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: normalized(value[key] as Json),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
