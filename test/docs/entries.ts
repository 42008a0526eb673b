/**
 * The package's entries as a user imports them (`toolbound`,
 * `toolbound/rounds`, …), each mapped to its source file through
 * package.json's `exports` map: a documentation example importing the
 * package by name runs and type-checks against the sources, as a user's
 * install of the built package would.
 */

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

interface PackageJson {
  readonly name: string;
  readonly bin: Readonly<Record<string, string>>;
  readonly scripts: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, string | { readonly import: string }>>;
}

/** The repository's package.json. */
export const packageJson = (): PackageJson =>
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;

/** Each entry's specifier and the absolute path of its source: `toolbound/rounds` → `…/src/rounds/index.ts`. */
export function entrySources(): Map<string, string> {
  const pkg = packageJson();
  const entries = new Map<string, string>();
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string") continue; // ./package.json
    const specifier = key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`;
    const source = target.import.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
    entries.set(specifier, join(ROOT, source));
  }
  return entries;
}
