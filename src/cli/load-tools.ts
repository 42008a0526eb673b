/**
 * Loading a tools module: a JavaScript module whose default export is a
 * ToolRegistry or an array of Tool definitions. Every way this can go wrong
 * becomes one CliError line that says what to fix.
 */

import { statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type AnyCourseTool, ToolContractError, ToolRegistry } from "../../course/src/index.ts";
import { CliError, oneLine } from "./cli-error.ts";

const EXPECTED = "export default a ToolRegistry or an array of Tool definitions";

function moduleUrl(specifier: string, cwd: string): URL {
  if (specifier.startsWith("file:")) return new URL(specifier);
  return pathToFileURL(resolve(cwd, specifier));
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * The definitions of a ToolRegistry made by another copy of toolbound (a
 * global install next to a local one): `instanceof` fails across copies, but
 * its `names` and `get` still read its Tools. Undefined for anything else.
 */
function foreignRegistryTools(value: unknown): readonly unknown[] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  if (value.constructor?.name !== "ToolRegistry") return undefined;
  const { names, get } = value as { names?: unknown; get?: unknown };
  if (!Array.isArray(names) || typeof get !== "function") return undefined;
  return names.map((name: unknown) => get.call(value, name) as unknown);
}

function registryOf(value: unknown, specifier: string): ToolRegistry {
  if (value instanceof ToolRegistry) return value.snapshot();
  const definitions = Array.isArray(value) ? value : foreignRegistryTools(value);
  if (definitions === undefined) {
    throw new CliError(
      `tools module ${specifier} exports no Tools: its default export is ${describeValue(value)}; ${EXPECTED}`,
    );
  }
  try {
    // Each entry is checked by the registry, which names the bad one by index.
    return new ToolRegistry(definitions as readonly AnyCourseTool[]);
  } catch (thrown) {
    if (thrown instanceof ToolContractError) {
      throw new CliError(`tools module ${specifier}: ${oneLine(thrown)}`);
    }
    throw thrown;
  }
}

/**
 * Imports the tools module at `specifier` (a file path relative to `cwd`, or
 * a `file:` URL) and returns a ToolRegistry of its Tools (a snapshot, when
 * the module exported a registry). Throws CliError for a `file:` URL that
 * names no local file, a missing file, a module that fails to load, no
 * default export, a default export that is neither a registry nor an array of
 * valid definitions, and no Tools at all.
 *
 * @example
 * const registry = await loadToolRegistry("./dist/examples/tools.js");
 * registry.names; // ["add", "repeat", "today", "read_file", "sleep"]
 */
export async function loadToolRegistry(
  specifier: string,
  cwd: string = process.cwd(),
): Promise<ToolRegistry> {
  let url: URL;
  let path: string;
  try {
    url = moduleUrl(specifier, cwd);
    // Also in the try: a URL that parses can still name no local file (a bad
    // percent escape, an encoded "/", another host), and the CLI promises one
    // clear line for every bad module path, never an "unexpected error".
    path = fileURLToPath(url);
  } catch (thrown) {
    throw new CliError(
      `cannot read ${JSON.stringify(specifier)} as a path or a file: URL (${oneLine(thrown)})`,
    );
  }
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw new CliError(`cannot find tools module ${specifier} (no file at ${path})`);
  }
  if (!isFile) throw new CliError(`tools module ${specifier} is not a file`);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(url.href)) as Record<string, unknown>;
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    const hint =
      code === "ERR_UNKNOWN_FILE_EXTENSION" && /^\.[cm]?tsx?$/.test(extname(path))
        ? " (compile it to JavaScript first, or run node with a TypeScript loader)"
        : "";
    throw new CliError(`cannot load tools module ${specifier}: ${oneLine(thrown)}${hint}`);
  }
  if (!Object.hasOwn(namespace, "default")) {
    throw new CliError(`tools module ${specifier} has no default export; ${EXPECTED}`);
  }
  const registry = registryOf(namespace.default, specifier);
  if (registry.size === 0) {
    throw new CliError(`tools module ${specifier} defines no Tools; ${EXPECTED}`);
  }
  return registry;
}
