/**
 * A stand-in for an OpenTelemetry collector in the command line's tests: an
 * HTTP server on loopback, on a port chosen per run, that accepts OTLP/JSON
 * exports (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and keeps what it got.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as OTLP/JSON writes it (the fields the tests read). */
export interface OtlpSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly attributes: ReadonlyArray<{
    readonly key: string;
    readonly value: Record<string, unknown>;
  }>;
  readonly status?: { readonly code?: number };
}

/** A running receiver: its endpoint, what it received, and how to stop it. */
export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  /** Every span received so far, with the service name of its resource. */
  spans(): Array<OtlpSpan & { readonly service: string | undefined }>;
  /** The metric names received so far. */
  metricNames(): string[];
  /** Resolves once `count` spans have arrived. */
  waitForSpans(count: number): Promise<void>;
  close(): Promise<void>;
}

type Resource = { attributes?: Array<{ key: string; value: { stringValue?: string } }> };

/** Starts a receiver on 127.0.0.1 and an ephemeral port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: Array<OtlpSpan & { service: string | undefined }> = [];
  const metrics: string[] = [];
  const waiting: Array<{ count: number; done: () => void }> = [];
  const settleWaiters = (): void => {
    for (const waiter of waiting.splice(0)) {
      if (spans.length >= waiter.count) waiter.done();
      else waiting.push(waiter);
    }
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      if (request.url === "/v1/traces") {
        for (const resourceSpans of body.resourceSpans ?? []) {
          const resource = resourceSpans.resource as Resource | undefined;
          const service = resource?.attributes?.find((entry) => entry.key === "service.name")?.value
            .stringValue;
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) spans.push({ ...span, service });
          }
        }
        settleWaiters();
      } else if (request.url === "/v1/metrics") {
        for (const resourceMetrics of body.resourceMetrics ?? []) {
          for (const scope of resourceMetrics.scopeMetrics ?? []) {
            for (const metric of scope.metrics ?? []) metrics.push(metric.name);
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    metricNames: () => [...metrics],
    waitForSpans: (count) =>
      new Promise((done) => {
        waiting.push({ count, done });
        settleWaiters();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A span attribute's value, whatever its OTLP type. */
export function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  return value.stringValue ?? value.boolValue ?? value.intValue ?? value.doubleValue;
}
