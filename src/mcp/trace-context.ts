/**
 * W3C trace context from a request's `_meta` (MCP carries `traceparent` and
 * `tracestate` there): when the registry is traced, the call runs inside the
 * caller's trace, so its span has the remote span as parent. The fields are
 * read as own string data fields with bounded lengths before the tracing
 * library's propagator parses them; anything else is ignored, and a request
 * without them runs exactly as before.
 */

import {
  apply,
  callObserverOf,
  getOwnPropertyDescriptor,
  hasOwn,
  isProxy,
  reflectGet,
} from "../../course/src/internal.ts";

/**
 * The W3C trace context fields of one request, as the propagator reads them.
 *
 * @example
 * { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }
 */
export interface TraceCarrier {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/**
 * The hook a traced registry's observer offers (its `remoteContext` member):
 * runs `run` with the context the carrier names as the active one.
 *
 * @example
 * const hook: RemoteContextHook = (carrier, run) => context.with(propagation.extract(context.active(), carrier), run);
 */
export type RemoteContextHook = <T>(carrier: TraceCarrier, run: () => T) => T;

/**
 * A `traceparent` is 55 characters in version 00; later versions may add fields, never this many.
 *
 * @example
 * readTraceCarrier({ traceparent: "0".repeat(MAX_TRACEPARENT_CHARACTERS + 1) }); // undefined
 */
export const MAX_TRACEPARENT_CHARACTERS = 512;
/**
 * The W3C limit a propagator must accept for `tracestate`; a longer one is dropped.
 *
 * @example
 * readTraceCarrier({ traceparent, tracestate: "a=1".padEnd(513, "1") }); // { traceparent }
 */
export const MAX_TRACESTATE_CHARACTERS = 512;

function ownString(meta: object, key: string, max: number): string | undefined {
  if (!hasOwn(meta, key)) return undefined;
  // A data field only: a getter (possible outside JSON-parsed requests) is never run.
  const field = getOwnPropertyDescriptor(meta, key);
  const value =
    field !== undefined && hasOwn(field, "value") ? (field.value as unknown) : undefined;
  return typeof value === "string" && value.length > 0 && value.length <= max ? value : undefined;
}

/**
 * Reads `traceparent` (and `tracestate`, when it has one too) from a
 * request's `_meta`, or undefined when there is no usable `traceparent`.
 *
 * @example
 * readTraceCarrier({ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" });
 */
export function readTraceCarrier(meta: unknown): TraceCarrier | undefined {
  if (typeof meta !== "object" || meta === null || isProxy(meta)) return undefined;
  const traceparent = ownString(meta, "traceparent", MAX_TRACEPARENT_CHARACTERS);
  if (traceparent === undefined) return undefined;
  const tracestate = ownString(meta, "tracestate", MAX_TRACESTATE_CHARACTERS);
  return Object.freeze(tracestate === undefined ? { traceparent } : { traceparent, tracestate });
}

function remoteContextHook(registry: unknown): RemoteContextHook | undefined {
  const observer = callObserverOf(registry);
  if (observer === undefined || isProxy(observer)) return undefined;
  const hook = reflectGet(observer, "remoteContext") as unknown;
  return typeof hook === "function" ? (hook as RemoteContextHook) : undefined;
}

/**
 * Runs `run` inside the trace a request's `_meta` names, when `registry` is
 * traced and `_meta` carries a `traceparent`; otherwise just runs it. `run`
 * runs exactly once whatever the hook does: a hook that throws or returns
 * without running it (a broken propagator) leaves the call outside the
 * remote trace, never failed or skipped.
 *
 * @example
 * const result = await withRequestTraceContext(registry, request.params._meta, () =>
 *   executeToolCall(registry, call, signal));
 */
export function withRequestTraceContext<T>(registry: unknown, meta: unknown, run: () => T): T {
  const hook = remoteContextHook(registry);
  if (hook === undefined) return run();
  const carrier = readTraceCarrier(meta);
  if (carrier === undefined) return run();
  let ran = false;
  const once = (): T => {
    ran = true;
    return run();
  };
  let answer: T;
  try {
    answer = apply(hook, callObserverOf(registry), [carrier, once]) as T;
  } catch (thrown) {
    if (ran) throw thrown;
    return run();
  }
  // A hook that returned without running the call: run it now, outside the remote trace.
  return ran ? answer : run();
}
