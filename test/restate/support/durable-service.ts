/**
 * The service the durable suite kills: a Restate endpoint whose handlers run
 * Tool calls through `durableToolCall` and `durableToolCalls`, in a child
 * process of the suite, on the port in `TOOLBOUND_SERVICE_PORT`. Its Tools
 * record what they do in the folder `TOOLBOUND_STORE`, as an external
 * system would: every execution appends a line to `attempts.log`, and an
 * effect is a file in `effects/` named by its idempotency key, created only
 * if absent (the external system deduplicates by key).
 */

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http2";
import { join } from "node:path";
import * as restate from "@restatedev/restate-sdk";
import {
  type CourseToolCall,
  type CourseToolExecutionContext,
  type CourseToolResultMessage,
  defineTool,
  NonRecoverableToolError,
  ToolRegistry,
  toolContent,
} from "../../../course/src/index.ts";
import {
  durableToolCall,
  durableToolCalls,
  isNonRecoverableToolFailure,
  toolIdempotencyKey,
} from "../../../src/restate/index.ts";
import type { ToolRoundEvent } from "../../../src/rounds/index.ts";
import { PNG_1X1 } from "../../support/parts.ts";

const store = process.env.TOOLBOUND_STORE ?? "";
const port = Number(process.env.TOOLBOUND_SERVICE_PORT);
if (store === "" || !Number.isSafeInteger(port)) {
  throw new Error("durable-service needs TOOLBOUND_STORE and TOOLBOUND_SERVICE_PORT");
}
mkdirSync(join(store, "effects"), { recursive: true });

const record = (file: string, line: string) => appendFileSync(join(store, file), `${line}\n`);

/** The key a Tool must have; a durable call always gives one. */
function keyOf(context: CourseToolExecutionContext): string {
  const key = toolIdempotencyKey(context);
  if (key === undefined) throw new Error("no idempotency key");
  return key;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

const accept = (input: unknown) => ({ ok: true as const, value: input as Record<string, unknown> });

const registry = new ToolRegistry([
  defineTool({
    name: "effect",
    description: "Does an effect once per idempotency key, `before` and `after` ms around it.",
    validate: accept,
    execute: async (input, context) => {
      const key = keyOf(context);
      record("attempts.log", key);
      await pause(typeof input.before === "number" ? input.before : 0, context.signal);
      // The external system: the first request with a key does the effect (and is slow to
      // answer by `after` ms); a later one with the same key finds it done and answers at once.
      try {
        writeFileSync(join(store, "effects", encodeURIComponent(key)), key, { flag: "wx" });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        return { done: input.value ?? null, key };
      }
      await pause(typeof input.after === "number" ? input.after : 0, context.signal);
      return { done: input.value ?? null, key };
    },
  }),
  defineTool({
    name: "hang",
    description: "Runs until its signal aborts.",
    validate: accept,
    execute: async (_input, context) => {
      const key = keyOf(context);
      record("attempts.log", key);
      await new Promise((_resolve, reject) => {
        context.signal.addEventListener("abort", () => {
          const reason = context.signal.reason as { name?: unknown };
          record("aborts.log", `${key} ${String(reason?.name)}`);
          reject(context.signal.reason);
        });
      });
    },
  }),
  defineTool({
    name: "fatal",
    description: "Finds a broken invariant.",
    validate: accept,
    execute: async (_input, context) => {
      record("attempts.log", keyOf(context));
      throw new NonRecoverableToolError("ledger checksum mismatch");
    },
  }),
  defineTool({
    name: "failing",
    description: "Fails in a way the model can read.",
    validate: accept,
    execute: async (_input, context) => {
      record("attempts.log", keyOf(context));
      throw new Error("the upstream API answered 503");
    },
  }),
  defineTool({
    name: "strict",
    description: "Its validator stops the run on poisoned arguments.",
    validate: (input) => {
      if ((input as { poison?: unknown }).poison === true) {
        throw new NonRecoverableToolError("poisoned arguments reached the validator");
      }
      return accept(input);
    },
    execute: async (_input, context) => {
      record("attempts.log", keyOf(context));
      return "ran";
    },
  }),
  defineTool({
    name: "picky",
    description: "Refuses arguments without a `value`.",
    validate: (input) =>
      typeof (input as { value?: unknown }).value === "string"
        ? accept(input)
        : { ok: false as const, error: "value must be a string" },
    execute: async (input, context) => {
      record("attempts.log", keyOf(context));
      return input.value;
    },
  }),
  defineTool({
    name: "shots",
    description: "Answers with a line of text and `count` PNG images of `bytes` bytes each.",
    validate: accept,
    // Raised part budgets: the journal's limit, not the Tool's, decides what is kept.
    outputBudget: { maxPartBytes: 104_857_600, maxTotalBytes: 268_435_456 },
    execute: async (input, context) => {
      record("attempts.log", keyOf(context));
      const image = new Uint8Array(Number(input.bytes));
      image.set(PNG_1X1);
      const images = Array.from({ length: Number(input.count) }, () => ({
        type: "image" as const,
        data: image,
        mimeType: "image/png",
      }));
      return toolContent([{ type: "text", text: "The screens:" }, ...images]);
    },
  }),
  defineTool({
    name: "controls",
    description: "Answers with `count` control characters: six bytes each in a journal entry.",
    validate: accept,
    // Written as text (nothing escaped) and under a budget that keeps them all.
    format: "text",
    outputBudget: { maxCharacters: 1_000_000, maxStringCharacters: 1_000_000 },
    execute: async (input, context) => {
      record("attempts.log", keyOf(context));
      return "\u0001".repeat(Number(input.count));
    },
  }),
  defineTool({
    name: "screenshot",
    description: "Answers with text and a 1x1 PNG.",
    validate: accept,
    execute: async (_input, context) => {
      record("attempts.log", keyOf(context));
      return toolContent([
        { type: "text", text: "The screen:" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
      ]);
    },
  }),
]);

/** What the suite sends to the `round` handler. */
export interface RoundRequest {
  readonly calls: readonly CourseToolCall[];
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** Route every call through a journaled gate that refuses calls with `allow: false`. */
  readonly gate?: boolean;
  /** After the round, wait this long (a durable sleep) before returning. */
  readonly holdMs?: number;
  readonly maxRoundCharacters?: number;
  readonly maxJournalBytes?: number;
}

/** What the `round` handler answers. */
export interface RoundReply {
  readonly results: readonly CourseToolResultMessage[];
  readonly events: readonly string[];
}

const gate = (call: CourseToolCall) => {
  record("approvals.log", call.id);
  return call.arguments.allow !== false;
};

/** How a misuse was refused, as the `misuse` handler reports it. */
export interface Refusal {
  readonly name: string;
  readonly code: unknown;
  readonly message: string;
  readonly nonRecoverable: boolean;
}

async function refusalOf(attempt: () => Promise<unknown>): Promise<Refusal | "resolved"> {
  try {
    await attempt();
    return "resolved";
  } catch (error) {
    const { name, message } = error as Error;
    const code = (error as { code?: unknown }).code;
    return { name, code, message, nonRecoverable: isNonRecoverableToolFailure(error) };
  }
}

const call = (
  id: string,
  name: string,
  args: CourseToolCall["arguments"] = {},
): CourseToolCall => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});

const durable = restate.service({
  name: "durable",
  handlers: {
    round: async (ctx: restate.Context, request: RoundRequest): Promise<RoundReply> => {
      const events: string[] = [];
      const results = await durableToolCalls(ctx, registry, request.calls, {
        concurrency: request.concurrency ?? 1,
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
        ...(request.gate === true ? { approve: gate } : {}),
        ...(request.maxRoundCharacters === undefined
          ? {}
          : { maxRoundCharacters: request.maxRoundCharacters }),
        ...(request.maxJournalBytes === undefined
          ? {}
          : { maxJournalBytes: request.maxJournalBytes }),
        onEvent: (event: ToolRoundEvent) => {
          events.push(`${event.type} ${event.call.id}`);
        },
      });
      record("rounds.log", `${ctx.request().id} ${results.length}`);
      if (request.holdMs !== undefined) await ctx.sleep(request.holdMs);
      return { results, events };
    },
    misuse: async (ctx: restate.Context) => ({
      duplicateInRound: await refusalOf(() =>
        durableToolCalls(ctx, registry, [call("twin", "effect"), call("twin", "effect")]),
      ),
      first: await refusalOf(() => durableToolCall(ctx, registry, call("first", "effect"))),
      reused: await refusalOf(() => durableToolCall(ctx, registry, call("first", "effect"))),
      badOption: await refusalOf(() =>
        durableToolCalls(ctx, registry, [call("opt", "effect")], { concurrency: 0 }),
      ),
      notARegistry: await refusalOf(() =>
        durableToolCall(ctx, {} as ToolRegistry, call("reg", "effect")),
      ),
      fatalValidator: await refusalOf(() =>
        durableToolCall(ctx, registry, call("poison", "strict", { poison: true })),
      ),
    }),
    single: async (
      ctx: restate.Context,
      request: { readonly call: CourseToolCall; readonly timeoutMs?: number },
    ) =>
      durableToolCall(
        ctx,
        registry,
        request.call,
        request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs },
      ),
  },
  options: {
    // Short retries: a test that kills this process waits for the engine's next attempt.
    retryPolicy: { initialInterval: 100, maxInterval: 500, exponentiationFactor: 2 },
  },
});

const server = createServer(restate.createEndpointHandler({ services: [durable] }));
server.listen(port, "127.0.0.1", () => {
  process.stdout.write(`durable-service ready on ${port}\n`);
});
