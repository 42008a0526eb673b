/**
 * The one error the command line reports itself: a message for one line on
 * standard error and the exit code that goes with it.
 */

/**
 * A failure the user can act on (a missing module, invalid JSON, an unknown
 * format). `main` prints `toolbound: <message>` as one line and exits with
 * `exitCode` (default 1).
 *
 * @example
 * throw new CliError('cannot find tools module "./tools.js"');
 */
export class CliError extends Error {
  override readonly name = "CliError";
  /** The process exit code; default 1. */
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * The message of a thrown value on one line: line breaks folded into spaces.
 *
 * @example
 * oneLine(new Error("a\nb")); // "a b"
 */
export function oneLine(thrown: unknown): string {
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
