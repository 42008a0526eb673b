/**
 * The test runner's side of the documentation harness: a Vite plugin that
 * serves each ```ts block's module under its virtual file name (built from
 * the documents when it is loaded) and resolves `toolbound` and
 * `toolbound/<entry>` to the sources, as package.json's exports map says.
 */

import type { Plugin } from "vite";
import { moduleFor, parseModuleId } from "./block-modules.ts";
import { entrySources } from "./entries.ts";

/** The plugin `vitest.config.ts` installs. */
export function docBlocks(): Plugin {
  const entries = entrySources();
  return {
    name: "toolbound-doc-blocks",
    enforce: "pre",
    resolveId(id) {
      if (parseModuleId(id) !== undefined) return id;
      return entries.get(id) ?? null;
    },
    load(id) {
      if (parseModuleId(id) === undefined) return null;
      const built = moduleFor(id);
      if (built === undefined) throw new Error(`no documentation block for ${id}`);
      return built.source;
    },
  };
}
