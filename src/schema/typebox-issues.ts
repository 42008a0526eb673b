/**
 * Turns TypeBox's validation errors into Standard Schema issues a model can
 * act on: a path per issue (array indexes as numbers), one issue per missing
 * or unknown key, the received kind for type errors, and a union reported once.
 * Imports nothing from TypeBox: it reads the error records structurally.
 */

import type { StandardSchemaV1Issue } from "./standard-schema.ts";

/** The fields of a TypeBox 1.x validation error that are read here. */
export interface TypeBoxErrorRecord {
  readonly keyword: string;
  readonly schemaPath: string;
  readonly instancePath: string;
  readonly params: unknown;
  readonly message: string;
}

/** The JSON kind of a value, for `must be number (received string)`. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Follows a JSON Pointer through the value, turning array segments into numbers. */
function resolvePointer(
  root: unknown,
  pointer: string,
): { readonly path: PropertyKey[]; readonly value: unknown } {
  const path: PropertyKey[] = [];
  let current = root;
  if (pointer === "") return { path, value: current };
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(key)) {
      const index = Number(key);
      path.push(index);
      current = (current as readonly unknown[])[index];
    } else {
      path.push(key);
      current =
        typeof current === "object" && current !== null && Object.hasOwn(current, key)
          ? (current as Record<string, unknown>)[key]
          : undefined;
    }
  }
  return { path, value: current };
}

function stringList(params: unknown, key: string): readonly string[] {
  const list =
    typeof params === "object" && params !== null
      ? (params as Record<string, unknown>)[key]
      : undefined;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
}

const SEPARATOR = "\u0000";

/** Every (union schema path, value path) an error could sit under, as lookup keys. */
function enclosingKeys(error: TypeBoxErrorRecord): string[] {
  const keys: string[] = [];
  const marker = "/anyOf/";
  const valuePaths = [error.instancePath];
  for (let end = error.instancePath.lastIndexOf("/"); end >= 0; ) {
    valuePaths.push(error.instancePath.slice(0, end));
    end = end === 0 ? -1 : error.instancePath.lastIndexOf("/", end - 1);
  }
  for (let at = error.schemaPath.indexOf(marker); at >= 0; ) {
    const unionPath = error.schemaPath.slice(0, at);
    for (const valuePath of valuePaths) keys.push(`${unionPath}${SEPARATOR}${valuePath}`);
    at = error.schemaPath.indexOf(marker, at + 1);
  }
  return keys;
}

const unionKey = (union: TypeBoxErrorRecord): string =>
  `${union.schemaPath}${SEPARATOR}${union.instancePath}`;

/** A union is reported once; when all its branches were constants, they are listed. */
function describeUnion(union: TypeBoxErrorRecord, branches: readonly TypeBoxErrorRecord[]): string {
  const direct = branches.filter((branch) => branch.instancePath === union.instancePath);
  if (direct.length > 0 && direct.every((branch) => branch.keyword === "const")) {
    const values = direct.map((branch) =>
      JSON.stringify((branch.params as { readonly allowedValue?: unknown }).allowedValue),
    );
    return `must be one of ${values.join(", ")}`;
  }
  return "does not match any of the allowed shapes";
}

/**
 * Converts TypeBox errors (in TypeBox's order) into Standard Schema issues.
 *
 * @example
 * typeboxIssues([{ keyword: "type", schemaPath: "#/properties/left", instancePath: "/left", params: { type: "number" }, message: "must be number" }], { left: "x" });
 * // [{ path: ["left"], message: "must be number (received string)" }]
 */
export function typeboxIssues(
  errors: readonly TypeBoxErrorRecord[],
  value: unknown,
): StandardSchemaV1Issue[] {
  // Looked up by key, so a long list of errors costs its length, not its square.
  const unions = new Map<string, TypeBoxErrorRecord[]>();
  for (const error of errors) if (error.keyword === "anyOf") unions.set(unionKey(error), []);
  const inner = new Set<TypeBoxErrorRecord>();
  for (const error of errors) {
    for (const key of enclosingKeys(error)) {
      const branches = unions.get(key);
      if (branches === undefined) continue;
      branches.push(error);
      inner.add(error);
    }
  }
  const issues: StandardSchemaV1Issue[] = [];
  for (const error of errors) {
    if (inner.has(error)) continue;
    const at = resolvePointer(value, error.instancePath);
    const keys =
      error.keyword === "required"
        ? stringList(error.params, "requiredProperties")
        : error.keyword === "additionalProperties"
          ? stringList(error.params, "additionalProperties")
          : [];
    if (keys.length > 0) {
      const message = error.keyword === "required" ? "is required" : "is not allowed (unknown key)";
      for (const key of keys) issues.push({ path: [...at.path, key], message });
    } else if (error.keyword === "type") {
      issues.push({ path: at.path, message: `${error.message} (received ${kindOf(at.value)})` });
    } else if (error.keyword === "anyOf") {
      issues.push({
        path: at.path,
        message: describeUnion(error, unions.get(unionKey(error)) ?? []),
      });
    } else {
      issues.push({ path: at.path, message: error.message });
    }
  }
  return issues;
}
