/**
 * The MCP bridge (`toolbound/mcp`): serve a ToolRegistry to any MCP host,
 * over stdio or Streamable HTTP, and put another MCP server's Tools behind
 * the boundary. It loads `@modelcontextprotocol/sdk`, an optional peer
 * dependency that only this entry needs.
 */

export type { BoundedJsonSchemaValidatorOptions } from "./bounded-validator.ts";
export { boundedJsonSchemaValidator } from "./bounded-validator.ts";
export type {
  McpCallContext,
  McpCallSettings,
  McpContentItem,
  McpToolCallParams,
  McpToolCallResult,
} from "./call-tool.ts";
export { callRegistryTool, partUri, toMcpResult } from "./call-tool.ts";
export type { CompiledPattern } from "./compiled-pattern.ts";
export type { McpClientTools } from "./from-mcp-client.ts";
export { fromMcpClient } from "./from-mcp-client.ts";
export type { McpHttpOptions } from "./http-options.ts";
export type { McpHttpServer } from "./http-server.ts";
export { serveToolRegistryHttp } from "./http-server.ts";
export type { PatternEngine } from "./linear-patterns.ts";
export {
  linearTimePatterns,
  MAX_PATTERN_CHARACTERS,
  MAX_PATTERN_INSTRUCTIONS,
} from "./linear-patterns.ts";
export type { FromMcpClientOptions, McpToolFilter } from "./mcp-client-options.ts";
export { MAX_FAILURE_CHARACTERS } from "./mcp-client-results.ts";
export {
  MAX_CHECK_MILLISECONDS,
  MAX_LISTING_COMPILE_COST,
  MAX_PATTERN_WORK,
  MAX_SCHEMA_COMPILE_COST,
  PatternWorkExceeded,
} from "./pattern-budgets.ts";
export { MAX_LEADING_LOOKAHEADS } from "./pattern-lookaheads.ts";
export type { McpProgressUpdate } from "./request-notices.ts";
export { MAX_NOTICE_CHARACTERS, reportProgress, sendLogMessage } from "./request-notices.ts";
export { MAX_ARGUMENT_ERROR_CHARACTERS } from "./schema-error-line.ts";
export { MAX_CHECK_STEPS } from "./schema-meter.ts";
export type { McpBridgeOptions } from "./server.ts";
export { createMcpToolServer, serveToolRegistry } from "./server.ts";
export { MAX_CHECKED_DEPTH } from "./value-depth.ts";
