/**
 * The approval gate as a durable step: the host's `approve` runs inside its
 * own `ctx.run`, and what it decided is journaled, so a call approved once is
 * never asked again, on a retry, after a crash or on a replay. The core then
 * runs the call with a gate that answers the journaled decision, so a refusal
 * reads exactly as `executeToolCall` writes it.
 */

import type { CourseToolCall, RegisteredCourseTool } from "../../course/src/index.ts";
import { describeThrown, isRegisteredFatal, terminalFromFatal } from "./fatal-errors.ts";
import { apply, isProxy, ownDataValue } from "./restate-intrinsics.ts";

/** The host's approval gate, as `ToolCallOptions.approve` types it. */
export type ApprovalGate = (
  call: CourseToolCall,
  tool: RegisteredCourseTool,
) => boolean | PromiseLike<boolean>;

/**
 * A gate's decision as the journal holds it: `answer` true or false, `null`
 * for any other answer, or `threw`: the text the core would give the model
 * about what the gate threw (empty when it would use its own fallback).
 */
export type JournaledApproval = { readonly answer: boolean | null } | { readonly threw: string };

/**
 * Runs the gate once for `call` and returns its decision in journal form.
 * A registered NonRecoverableToolError from the gate becomes a TerminalError:
 * journaled as the step's failure, it stops the call on every replay too.
 */
export async function askGate(
  gate: ApprovalGate,
  call: CourseToolCall,
  tool: RegisteredCourseTool,
): Promise<JournaledApproval> {
  let answer: unknown;
  try {
    answer = apply(gate, undefined, [call, tool]);
    // A Proxy is never asked for `then` (the core hands it on as an answer that is not boolean).
    if (!isProxy(answer)) answer = await answer;
  } catch (thrown) {
    if (isRegisteredFatal(thrown)) throw terminalFromFatal(thrown, call);
    return { threw: describeThrown(thrown, "") };
  }
  return { answer: answer === true || answer === false ? answer : null };
}

/**
 * Reads a journaled decision back. Throws a TypeError for anything else (a
 * journal written by other code under the same step name).
 */
export function readApproval(entry: unknown, call: CourseToolCall): JournaledApproval {
  if (typeof entry === "object" && entry !== null && !isProxy(entry)) {
    const answer = ownDataValue(entry, "answer");
    if (answer === true || answer === false || answer === null) return { answer };
    const threw = ownDataValue(entry, "threw");
    if (typeof threw === "string") return { threw };
  }
  throw new TypeError(`the journaled approval of Tool call "${call.id}" is not a decision`);
}

/**
 * A gate for the core that answers a journaled decision: the same answer, or
 * a throw of the same text, so the core writes the same result as for the
 * original gate (`TOOL_APPROVAL_DENIED`, or `TOOL_APPROVAL_FAILED` with the
 * same reason) or runs the Tool.
 */
export function replayGate(decision: JournaledApproval): () => boolean {
  const threw = ownDataValue(decision, "threw");
  if (typeof threw === "string") {
    return () => {
      // An empty text makes the core use its own fallback, as the original throw did.
      throw threw;
    };
  }
  const answer = ownDataValue(decision, "answer");
  return () => answer as boolean;
}
