// Lets Node.js run the TypeScript core straight from its sources: the core's
// relative imports end in `.js` (the form both the course's compiler settings
// and ours accept), and Node's own type stripping looks for exactly that file.
// This resolve hook answers a missing `./x.js` with `./x.ts` beside it.
//
//   node --import ./scripts/runtimes/ts-resolve.mjs --experimental-transform-types smoke.mjs
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith("./") || specifier.startsWith("../");
      if (error?.code !== "ERR_MODULE_NOT_FOUND" || !relative || !specifier.endsWith(".js")) {
        throw error;
      }
      return nextResolve(`${specifier.slice(0, -".js".length)}.ts`, context);
    }
  },
});
