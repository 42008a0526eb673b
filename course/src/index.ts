/**
 * The course's public surface for checkpoint 06: protocol types, message
 * builders and the Tool module, and what goes beyond it in the core: output
 * budgets, formats and multi-part output (`toolContent`).
 */

export {
  invalidArgumentsReason,
  snapshotToolCall,
  toolCallWithInvalidArguments,
} from "./call-snapshot.js";
export { COURSE_TOOL_ARGUMENTS_MAX_DEPTH, snapshotJsonObject } from "./json-snapshot.js";
export {
  DEFAULT_MAX_SPILL_CHARACTERS,
  OUTPUT_BUDGET_RANGES,
  PART_BUDGET_DEFAULTS,
  SPILL_CHARACTERS_RANGE,
} from "./output-budget.js";
export type { OutputFormat } from "./output-format.js";
export { MAX_SPILL_REFERENCE_CHARACTERS } from "./output-spill.js";
export type { OutputLimitName } from "./output-walk.js";
export { TOOL_CONTENT_MIME_TYPES } from "./part-signatures.js";
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
  ToolResultAudioType,
  ToolResultFileType,
  ToolResultImageType,
  ToolResultPart,
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
export type { ToolContent, ToolContentPart, ToolContentSummary } from "./tool-content.js";
export {
  TOOL_CONTENT_MAX_NAME_CHARACTERS,
  TOOL_CONTENT_MAX_PARTS,
  toolContent,
} from "./tool-content.js";
export { toolErrorResult, toolResultMessage } from "./tool-results.js";
