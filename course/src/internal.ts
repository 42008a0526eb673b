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

// Strict base64, for what reads a result's parts back (a message may come from storage).
export { checkBase64, decodeStrictBase64 } from "./base64.js";
// The budgets a call will run under, resolved without running it (a durable journal's limit).
export type { CallBudgets } from "./call-budgets.js";
export { resolvedCallBudgets } from "./call-budgets.js";
// Watching every call of a registry (tracing): the observer, the facts it is told, its slot.
export type {
  CallFacts,
  CallObserver,
  CallOutputFacts,
  CallPhase,
  CallRejectionKind,
} from "./call-observer.js";
export { CALL_OBSERVER_WARNING } from "./call-observer.js";
// Call options as the core reads them, and the rules they share with rounds.
export type { CallOptions } from "./call-options.js";
export {
  deadlineRule,
  isDeadline,
  jsonTextExceeds,
  jsonTextLength,
  readCallOptions,
} from "./call-options.js";
// Container classification of the serializer (plain object, array or exotic).
export type { ContainerKind } from "./containers.js";
export { containerKind } from "./containers.js";
// The line standing for a binary part in `content`, for surfaces that cannot carry one.
export { placeholderLine } from "./content-render.js";
// Thrown values as the core judges them: a registered NonRecoverableToolError,
// and the text a model may read about anything else.
export { describeThrown, isRegisteredNonRecoverable } from "./errors.js";
// Built-ins captured once when the core loads; see intrinsics.ts for why.
export {
  ArrayPrototype,
  addEventListener,
  addSlot,
  apply,
  controllerAbort,
  controllerSignal,
  defineProperty,
  emitWarning,
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
  mapIteratorNext,
  mapSet,
  mapSize,
  mapValues,
  mathMax,
  mathMin,
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
  removeEventListener,
  sealedRegExp,
  setAdd,
  setDelete,
  setHas,
  setSize,
  signalAborted,
  signalReason,
  startTimer,
  stopTimer,
  stringCharCodeAt,
  stringSlice,
  stringTrim,
  weakMapGet,
  weakMapSet,
} from "./intrinsics.js";
// Arguments the library's own text parser built, taken by the snapshot as they are.
export { adoptParsedArguments } from "./json-snapshot.js";
// Output settings read at one level (registry, definition or call).
export type { OutputLevel } from "./output-settings.js";
export { readOutputLevel } from "./output-settings.js";
// The one-read field access: own fields read once, inherited getters never run.
export { isNonBlankString, MISSING, ownDataValue, readOwnValue } from "./own-fields.js";

// The registry's private-field brand check, its Tools read from its private map (never
// through methods a Tool can replace on ToolRegistry.prototype), a snapshot with a surface's
// default format, and its observer slot.
export {
  callObserverOf,
  isToolRegistry,
  lookupTool,
  registryNames,
  snapshotWithFormat,
  withCallObserver,
} from "./registry.js";
// The signal plumbing: brand check and the intrinsic reason.
export { abortReason, isAbortSignal } from "./signals.js";
// A success result with its checked parts, as the core builds it (read back from a journal).
export { contentResultMessage } from "./tool-results.js";
