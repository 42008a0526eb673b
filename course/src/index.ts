/**
 * The course's public surface for checkpoint 06: protocol types, message
 * builders and the Tool module.
 */

export {
  COURSE_TOOL_ARGUMENTS_MAX_DEPTH,
  invalidArgumentsReason,
  snapshotJsonObject,
  snapshotToolCall,
  toolCallWithInvalidArguments,
} from "./call-snapshot.js";
export {
  DEFAULT_MAX_SPILL_CHARACTERS,
  OUTPUT_BUDGET_RANGES,
  SPILL_CHARACTERS_RANGE,
} from "./output-budget.js";
export { MAX_SPILL_REFERENCE_CHARACTERS } from "./output-spill.js";
export type { OutputLimitName } from "./output-walk.js";
export type {
  CourseJsonArray,
  CourseJsonObject,
  CourseJsonPrimitive,
  CourseJsonValue,
  CourseMessageId,
  CourseTool,
  CourseToolCall,
  CourseToolCallId,
  CourseToolExecutionContext,
  CourseToolResultMessage,
  CourseToolValidation,
} from "./protocol.js";
export type { SerializedOutput, SerializeOptions } from "./serializer.js";
export { serializeToolOutput } from "./serializer.js";
export type {
  AnyCourseTool,
  OutputBudget,
  OutputOptions,
  OutputSpill,
  OutputSpillErrorHandler,
  OutputSpillInfo,
  PreparedToolCall,
  RegisteredCourseTool,
  ToolCallOptions,
  ToolContractErrorCode,
  ToolDefinition,
  ToolRegistryOptions,
  ToolResultErrorCode,
  TruncateStrategy,
} from "./tool.js";
export {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS,
  COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  COURSE_TOOL_SERIALIZATION_MAX_DEPTH,
  COURSE_TOOL_SERIALIZATION_MAX_NODES,
  COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  defineTool,
  executeToolCall,
  NonRecoverableToolError,
  prepareToolCall,
  runPreparedToolCall,
  ToolContractError,
  ToolRegistry,
} from "./tool.js";
export { toolErrorResult, toolResultMessage } from "./tool-results.js";
