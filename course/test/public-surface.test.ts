/**
 * Pins the runtime export names of the course's public modules, so an export
 * is never added (or dropped) by accident: changing the surface means changing
 * this list on purpose.
 */
import { describe, expect, test } from "vitest";

const TOOL_EXPORTS = [
  "COURSE_TOOL_OUTPUT_CAP_CHARACTERS",
  "COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS",
  "COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES",
  "COURSE_TOOL_SERIALIZATION_MAX_DEPTH",
  "COURSE_TOOL_SERIALIZATION_MAX_NODES",
  "COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS",
  "COURSE_TOOL_TRUNCATION_MARKER",
  "NonRecoverableToolError",
  "ToolContractError",
  "ToolRegistry",
  "defineTool",
  "executeToolCall",
  "prepareToolCall",
  "runPreparedToolCall",
];

const INDEX_EXPORTS = [
  ...TOOL_EXPORTS,
  "COURSE_TOOL_ARGUMENTS_MAX_DEPTH",
  "DEFAULT_MAX_SPILL_CHARACTERS",
  "MAX_SPILL_REFERENCE_CHARACTERS",
  "OUTPUT_BUDGET_RANGES",
  "PART_BUDGET_DEFAULTS",
  "SPILL_CHARACTERS_RANGE",
  "TOOL_CONTENT_MAX_NAME_CHARACTERS",
  "TOOL_CONTENT_MAX_PARTS",
  "TOOL_CONTENT_MIME_TYPES",
  "invalidArgumentsReason",
  "serializeToolOutput",
  "snapshotJsonObject",
  "snapshotToolCall",
  "toolCallWithInvalidArguments",
  "toolContent",
  "toolErrorResult",
  "toolResultMessage",
].sort();

/**
 * The declared internal surface: not public, but what `src/` may rely on.
 * A change here is a change for every capability built on the core.
 */
const INTERNAL_EXPORTS = [
  "weakMapSet",
  "weakMapGet",
  "signalReason",
  "setHas",
  "setAdd",
  "emitWarning",
  "ownDataValue",
  "isRegisteredNonRecoverable",
  "describeThrown",
  "ArrayPrototype",
  "CALL_OBSERVER_WARNING",
  "MISSING",
  "NativeAbortController",
  "NativeError",
  "NativeMap",
  "NativePromise",
  "NativeTypeError",
  "ObjectPrototype",
  "abortReason",
  "addEventListener",
  "addSlot",
  "adoptParsedArguments",
  "apply",
  "checkBase64",
  "callObserverOf",
  "containerKind",
  "contentResultMessage",
  "controllerAbort",
  "controllerSignal",
  "deadlineRule",
  "decodeStrictBase64",
  "defineProperty",
  "freeze",
  "getOwnPropertyDescriptor",
  "getPrototypeOf",
  "hasOwn",
  "isAbortSignal",
  "isArray",
  "isDeadline",
  "isFrozen",
  "isNativePromise",
  "isNonBlankString",
  "isProxy",
  "isSafeInteger",
  "isToolRegistry",
  "jsonTextExceeds",
  "jsonTextLength",
  "lookupTool",
  "mapGet",
  "mapIteratorNext",
  "mapSet",
  "mapSize",
  "mapValues",
  "mathMax",
  "mathMin",
  "numberIsFinite",
  "placeholderLine",
  "promiseThen",
  "readCallOptions",
  "readOutputLevel",
  "readOwnValue",
  "resolvedCallBudgets",
  "reflectGet",
  "regExpTest",
  "registryNames",
  "removeEventListener",
  "sealedRegExp",
  "setDelete",
  "setSize",
  "signalAborted",
  "snapshotWithFormat",
  "startTimer",
  "stopTimer",
  "stringCharCodeAt",
  "stringSlice",
  "stringTrim",
  "withCallObserver",
].sort();

describe("public surface", () => {
  test.each([
    ["course/src/index.ts", () => import("../src/index.js"), INDEX_EXPORTS],
    ["course/src/tool.ts", () => import("../src/tool.js"), TOOL_EXPORTS],
    ["course/src/internal.ts (not public)", () => import("../src/internal.js"), INTERNAL_EXPORTS],
  ])("%s exports exactly the pinned runtime names", async (_module, load, expected) => {
    expect(expected.length).toBeGreaterThan(0);
    expect(Object.keys(await load()).sort()).toEqual(expected);
  });

  test("every runtime export of the Tool module is re-exported by the index as the same value", async () => {
    const index: Record<string, unknown> = await import("../src/index.js");
    const tool: Record<string, unknown> = await import("../src/tool.js");
    const names = Object.keys(tool);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(index[name]).toBe(tool[name]);
  });
});
