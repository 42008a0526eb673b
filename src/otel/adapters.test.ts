/**
 * The adapters that take a snapshot of the registry keep its tracing: a Tool
 * called through `toPiTools` on an instrumented registry is one span, with
 * Pi's call id, and the same result as untraced. (`toAiSdkTools` runs in the
 * AI SDK's own loops in `test/ai-sdk/otel.interop.ts`; the MCP server in
 * `mcp-server.test.ts`.)
 */

import { afterAll, expect, test } from "vitest";
import { createTelemetry } from "../../test/support/otel.ts";
import { outcomeTools } from "../../test/support/otel-tools.ts";
import { toPiTools } from "../pi/index.ts";
import { instrumentRegistry } from "./index.ts";

const telemetry = createTelemetry();
afterAll(() => telemetry.shutdown());

test("a Pi tool from an instrumented registry is traced, and answers as the untraced one", async () => {
  const echo = (tools: ReturnType<typeof toPiTools>) => {
    const tool = tools.find((found) => found.name === "echo");
    if (tool === undefined) throw new Error("echo was not bridged");
    return tool;
  };
  const plain = await echo(toPiTools(outcomeTools())).execute("pi-1", { text: "hi" });
  const traced = await echo(toPiTools(instrumentRegistry(outcomeTools(), telemetry))).execute(
    "pi-1",
    { text: "hi" },
  );
  expect(traced.content).toEqual(plain.content);
  const [span, ...others] = telemetry.spans();
  expect(others).toEqual([]);
  expect(span?.name).toBe("execute_tool echo");
  expect(span?.attributes["gen_ai.tool.call.id"]).toBe("pi-1");
});
