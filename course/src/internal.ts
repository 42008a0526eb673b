/**
 * The declared internal surface: what the library's own capabilities
 * (`src/`) may use from the core beyond its public entry, `index.ts`.
 *
 * NOT PUBLIC. Nothing here is exported from the package; it may change in any
 * release. It exists so that a change inside `course/src` that would break
 * code outside it has one place to show up: a test pins this file's export
 * list, and another fails when a file outside `course/` imports any other
 * file of `course/src`. The course's drop-in (`tool.ts` and its helpers)
 * never imports this file, so it stays self-contained.
 *
 * @example
 * import { isProxy, readOwnValue, MISSING } from "../../course/src/internal.js";
 */

// Call options as the core reads them, and the rules they share with rounds.
export type { CallOptions } from "./call-options.js";
export {
  deadlineRule,
  isDeadline,
  jsonTextExceeds,
  jsonTextLength,
  readCallOptions,
} from "./call-options.js";
// Arguments the library's own text parser built, taken by the snapshot as they are.
export { adoptParsedArguments } from "./call-snapshot.js";
// Container classification of the serializer (plain object, array or exotic).
export type { ContainerKind } from "./containers.js";
export { containerKind } from "./containers.js";
// Built-ins captured once when the core loads; see intrinsics.ts for why.
export {
  ArrayPrototype,
  addEventListener,
  apply,
  controllerAbort,
  controllerSignal,
  defineProperty,
  freeze,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isArray,
  isFrozen,
  isNativePromise,
  isProxy,
  isSafeInteger,
  mapGet,
  mapSet,
  NativeAbortController,
  NativeError,
  NativeMap,
  NativePromise,
  NativeTypeError,
  numberIsFinite,
  ObjectPrototype,
  promiseThen,
  reflectGet,
  regExpTest,
  sealedRegExp,
  signalAborted,
  stringCharCodeAt,
  stringSlice,
} from "./intrinsics.js";
// Output settings read at one level (registry, definition or call).
export type { OutputLevel } from "./output-settings.js";
export { readOutputLevel } from "./output-settings.js";
// The one-read field access: own fields read once, inherited getters never run.
export { isNonBlankString, MISSING, readOwnValue } from "./own-fields.js";

// The registry's private-field brand check.
export { isToolRegistry } from "./registry.js";
// The signal plumbing: brand check and the intrinsic reason.
export { abortReason, isAbortSignal } from "./signals.js";
