/**
 * Shared types of the course's Tool protocol: normalized Tool calls, the
 * result messages that go back to the model, and the Tool definition shape.
 */

/** The provider's opaque Tool-call id (for example `call-add-001`); never regenerated. */
export type CourseToolCallId = string;

/** A transcript message id, such as `tool-result-call-add-001`. */
export type CourseMessageId = string;

/** A JSON leaf value. */
export type CourseJsonPrimitive = string | number | boolean | null;

/** Any JSON value, read-only all the way down. */
export type CourseJsonValue = CourseJsonPrimitive | CourseJsonObject | CourseJsonArray;

/** A read-only JSON object. */
export type CourseJsonObject = { readonly [key: string]: CourseJsonValue };

/** A read-only JSON array. */
export type CourseJsonArray = readonly CourseJsonValue[];

/**
 * A normalized Tool call as the model asked for it.
 *
 * @example
 * const call: CourseToolCall = { type: "toolCall", id: "call-add-001", name: "add", arguments: { left: 1, right: 2 } };
 */
export type CourseToolCall = {
  readonly type: "toolCall";
  readonly id: CourseToolCallId;
  readonly name: string;
  readonly arguments: CourseJsonObject;
};

/**
 * The frozen message that links a Tool's outcome back to its call. Keys are in
 * exactly this order; `id` is `tool-result-${toolCall.id}`.
 */
export type CourseToolResultMessage = {
  readonly id: CourseMessageId;
  readonly role: "toolResult";
  readonly toolCallId: CourseToolCallId;
  readonly toolName: string;
  readonly content: string;
  readonly isError: boolean;
};

/** A validator's synchronous decision: the validated value, or a reason the model can read. */
export type CourseToolValidation<Input> =
  | { readonly ok: true; readonly value: Input }
  | { readonly ok: false; readonly error: string };

/** What `execute` receives besides its input: the run's signal and the call id. */
export type CourseToolExecutionContext = {
  readonly signal: AbortSignal;
  readonly toolCallId: CourseToolCallId;
};

/**
 * A Tool definition: a name and description for the model, a pure synchronous
 * validator that accepts `unknown`, and an asynchronous executor that accepts
 * only what the validator produced.
 *
 * @example
 * const add: CourseTool<{ left: number; right: number }, number> = {
 *   name: "add",
 *   description: "Add two numbers.",
 *   validate: (input) => isPair(input) ? { ok: true, value: input } : { ok: false, error: "left and right must be numbers" },
 *   execute: async ({ left, right }) => left + right,
 * };
 */
export type CourseTool<Input = unknown, Output = unknown> = {
  readonly name: string;
  readonly description: string;
  readonly validate: (input: unknown) => CourseToolValidation<Input>;
  readonly execute: (input: Input, context: CourseToolExecutionContext) => Promise<Output>;
};
