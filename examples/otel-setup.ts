/**
 * The OpenTelemetry Node SDK in ten lines, as `docs/observability.md` shows
 * it: the SDK takes its exporters, endpoint and service name from
 * the standard `OTEL_*` environment variables, and every call through the
 * instrumented registry is a span. Built with the package
 * (`dist/examples/otel-setup.js`) and run by the tests against an OTLP
 * receiver; it imports the package by name, as a user's code would.
 */

// doc:begin
import { NodeSDK } from "@opentelemetry/sdk-node";
import { executeToolCall, ToolRegistry } from "toolbound";
import { instrumentRegistry } from "toolbound/otel";
import tools from "./tools.js";

const sdk = new NodeSDK(); // exporters, endpoint, service name: the OTEL_* variables
sdk.start();
const registry = instrumentRegistry(new ToolRegistry(tools));
const call = { type: "toolCall", id: "1", name: "add", arguments: { left: 2, right: 3 } } as const;
console.log(await executeToolCall(registry, call, AbortSignal.timeout(10_000)));
await sdk.shutdown(); // exports what is left before the process ends
// doc:end
