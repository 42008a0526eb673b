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
 * The image types a part may carry: PNG, JPEG, GIF and WebP.
 *
 * @example
 * const type: ToolResultImageType = "image/png";
 */
export type ToolResultImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";
/**
 * The audio types a part may carry: WAV, MP3, OGG and FLAC.
 *
 * @example
 * const type: ToolResultAudioType = "audio/mpeg";
 */
export type ToolResultAudioType = "audio/wav" | "audio/mpeg" | "audio/ogg" | "audio/flac";
/**
 * The file types a part may carry: PDF and plain UTF-8 text.
 *
 * @example
 * const type: ToolResultFileType = "application/pdf";
 */
export type ToolResultFileType = "application/pdf" | "text/plain";

/**
 * One checked part of a result built from `toolContent`, in order: text, or
 * an image, audio or file whose `data` is strict base64 of bytes that match
 * `mimeType`. Frozen.
 *
 * @example
 * const part: ToolResultPart = { type: "image", data: "iVBORw0KGgo…", mimeType: "image/png" };
 */
export type ToolResultPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: ToolResultImageType }
  | { readonly type: "audio"; readonly data: string; readonly mimeType: ToolResultAudioType }
  | {
      readonly type: "file";
      readonly data: string;
      readonly mimeType: ToolResultFileType;
      readonly name?: string;
    };

/**
 * The frozen message that links a Tool's outcome back to its call. Keys are in
 * exactly this order; `id` is `tool-result-${toolCall.id}`. `parts` is there
 * only when the Tool returned `toolContent` with an image, audio or file part
 * that passed its checks: the ordered parts, for consumers that take them
 * (`content` still holds text every consumer can read). Error results never
 * carry parts.
 */
export type CourseToolResultMessage = {
  readonly id: CourseMessageId;
  readonly role: "toolResult";
  readonly toolCallId: CourseToolCallId;
  readonly toolName: string;
  readonly content: string;
  readonly isError: boolean;
  readonly parts?: readonly ToolResultPart[];
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
