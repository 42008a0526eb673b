/**
 * A durable agent: a Restate service whose handler runs a (scripted) model's
 * Tool calls through `durableToolCalls`. Each model turn is journaled with
 * `ctx.run`; each Tool call is a durable step, so a crash between "the model
 * asked" and "the result is in the transcript" loses nothing, and the refund
 * Tool hands its idempotency key to the payments API, so it refunds once.
 */

// doc:begin
import * as restate from "@restatedev/restate-sdk";
import {
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  ToolRegistry,
} from "../../course/src/index.ts";
import { durableToolCalls, toolIdempotencyKey } from "../../src/restate/index.ts";
import { paymentsApi } from "./payments.ts";

const payments = paymentsApi(process.env.PAYMENTS_DIR ?? ".");

const orderArgs = (input: unknown) =>
  typeof (input as { orderId?: unknown }).orderId === "string"
    ? { ok: true as const, value: input as { orderId: string } }
    : { ok: false as const, error: "orderId must be a string" };

const tools = new ToolRegistry([
  defineTool({
    name: "lookupOrder",
    description: "Reads an order.",
    validate: orderArgs,
    execute: async ({ orderId }) => ({ orderId, cents: 2_500, status: "delivered damaged" }),
  }),
  defineTool({
    name: "refundOrder",
    description: "Refunds an order in full.",
    validate: orderArgs,
    execute: async ({ orderId }, context) => {
      // The same key on every attempt of this call: the payments API refunds once.
      const key = toolIdempotencyKey(context) ?? `${orderId}-refund`;
      return payments.refund(orderId, 2_500, key);
    },
  }),
]);

/** A message of the agent's transcript. */
export type Message =
  | { readonly role: "user" | "assistant"; readonly content: string }
  | { readonly role: "assistant"; readonly toolCalls: readonly CourseToolCall[] }
  | CourseToolResultMessage;

const toolCall = (id: string, name: string): CourseToolCall => ({
  type: "toolCall",
  id,
  name,
  arguments: { orderId: "A-42" },
});

/** The scripted model: the next assistant message for a transcript. */
function scriptedModel(transcript: readonly Message[]): Message {
  const results = transcript.filter((message) => message.role === "toolResult").length;
  if (results === 0) return { role: "assistant", toolCalls: [toolCall("call-1", "lookupOrder")] };
  if (results === 1) return { role: "assistant", toolCalls: [toolCall("call-2", "refundOrder")] };
  return { role: "assistant", content: "Order A-42 is refunded: 25.00 is on its way back." };
}

/** The agent: `run` takes the user's message and returns the whole transcript. */
export const agent = restate.service({
  name: "agent",
  handlers: {
    run: async (ctx: restate.Context, request: string): Promise<Message[]> => {
      const transcript: Message[] = [{ role: "user", content: request }];
      for (let turn = 1; turn <= 5; turn += 1) {
        const reply = await ctx.run(`model turn ${turn}`, () => scriptedModel(transcript));
        transcript.push(reply);
        if (!("toolCalls" in reply)) return transcript;
        transcript.push(
          ...(await durableToolCalls(ctx, tools, reply.toolCalls, { timeoutMs: 30_000 })),
        );
      }
      return transcript;
    },
  },
  options: { retryPolicy: { initialInterval: 100, maxInterval: 1_000 } },
});
// doc:end
