/**
 * `dependentRequired` and `dependencies` as Ajv compiles them for a server's
 * schema. Ajv writes a list of names out name by name, each check nested in
 * the one before: 1,000 names compiled in 0.6 s, and 3,000 for 7 s before the
 * engine ran out of stack. Here each keyword is a macro that Ajv expands
 * wherever it compiles the keyword (a `$ref` into data included) into what it
 * means: for each trigger, `if` the object has it, `then` the list as
 * `required` (checked in a loop past 16 names) or the schema. The schema
 * itself is left as it is, so every `$ref` into it points where it did.
 */

import type { KeywordDefinition } from "ajv";

/** What these macros need of an Ajv instance. */
export interface MacroHost {
  addKeyword(definition: KeywordDefinition): unknown;
  removeKeyword(keyword: string): unknown;
}

/** `{ if: { required: [trigger] }, then: consequence }`. */
function branch(trigger: string, consequence: unknown): Record<string, unknown> {
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword, not a thenable.
  return { if: { required: [trigger] }, then: consequence };
}

/** A keyword's map as `{ allOf: [branch, …] }`, one branch for each trigger. */
function expand(map: unknown, listsOnly: boolean): Record<string, unknown> {
  const branches: Record<string, unknown>[] = [];
  if (typeof map === "object" && map !== null) {
    for (const [trigger, dependency] of Object.entries(map)) {
      if (Array.isArray(dependency)) branches.push(branch(trigger, { required: dependency }));
      else if (!listsOnly) branches.push(branch(trigger, dependency));
    }
  }
  return { allOf: branches };
}

/**
 * Puts the two macros in place of Ajv's own keywords: `dependencies` in every
 * dialect (lists and schemas), `dependentRequired` where the dialect has it
 * (2019-09 and 2020-12; draft-07 ignores it, as Ajv does). Both apply to
 * objects only, as the keywords do.
 *
 * @example
 * useDependencyMacros(new Ajv2020(options), true);
 */
export function useDependencyMacros(validator: MacroHost, dependentRequired: boolean): void {
  validator.removeKeyword("dependencies");
  validator.addKeyword({
    keyword: "dependencies",
    type: "object",
    schemaType: "object",
    macro: (map: unknown) => expand(map, false),
  });
  if (!dependentRequired) return;
  validator.removeKeyword("dependentRequired");
  validator.addKeyword({
    keyword: "dependentRequired",
    type: "object",
    schemaType: "object",
    macro: (map: unknown) => expand(map, true),
  });
}
