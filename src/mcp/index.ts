/**
 * The MCP bridge (`toolbound/mcp`): serve a ToolRegistry to any MCP host.
 * It loads `@modelcontextprotocol/sdk`, an optional peer dependency that
 * only this entry needs.
 */

export type {
  McpCallContext,
  McpCallSettings,
  McpContentItem,
  McpToolCallParams,
  McpToolCallResult,
} from "./call-tool.ts";
export { callRegistryTool, partUri, toMcpResult } from "./call-tool.ts";
export type { McpBridgeOptions } from "./server.ts";
export { createMcpToolServer, serveToolRegistry } from "./server.ts";
