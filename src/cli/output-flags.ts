/**
 * The output flags of the commands that produce Tool results (`call`, `mcp`):
 * `--max-output-characters <n>`, `--truncate <strategy>` and `--format
 * <format>`. They become the per-call output options of every call, so they
 * win over the tools module's registry options and a Tool's own definition
 * fields, field by field, and whatever else those set (a spill hook, a depth
 * budget) still applies. Without `--format`, both commands write text (their
 * default), unless the tools module sets a format.
 */

import { type Command, InvalidArgumentError, Option } from "commander";
import {
  OUTPUT_BUDGET_RANGES,
  type OutputFormat,
  type ToolCallOptions,
  type TruncateStrategy,
} from "../../course/src/index.ts";

const [MIN_CHARACTERS, MAX_CHARACTERS] = OUTPUT_BUDGET_RANGES.maxCharacters;

/** The strategies `--truncate` accepts, in the order help lists them. */
export const TRUNCATE_CHOICES: readonly TruncateStrategy[] = Object.freeze([
  "head",
  "tail",
  "head-and-tail",
]);

/** The formats `--format` accepts. */
export const FORMAT_CHOICES: readonly OutputFormat[] = Object.freeze(["json", "text"]);

/** What the commands receive from commander for these flags; each absent when not given. */
export interface OutputFlags {
  readonly maxOutputCharacters?: number;
  readonly truncate?: TruncateStrategy;
  readonly format?: OutputFormat;
}

/**
 * Parses a `--max-output-characters` value: decimal digits only (no sign,
 * exponent, separator or fraction), from 1024 to 10000000, the range the
 * core accepts for `outputBudget.maxCharacters`. Throws commander's
 * InvalidArgumentError, which commander reports as a usage error naming the
 * flag (exit code 1).
 *
 * @example
 * parseMaxOutputCharacters("50000"); // 50000
 * parseMaxOutputCharacters("50k"); // throws InvalidArgumentError
 */
export function parseMaxOutputCharacters(text: string): number {
  // Digits only: Number() would also take "0x400", "1e6" and " 2048 ".
  const value = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= MIN_CHARACTERS && value <= MAX_CHARACTERS)) {
    throw new InvalidArgumentError(
      `It must be a whole number of characters from ${MIN_CHARACTERS} to ${MAX_CHARACTERS}.`,
    );
  }
  return value;
}

/**
 * Adds the three options to `command` and returns it. None has a default of
 * its own here: without them, every result is what the tools module and the
 * command's own default format (text) produce.
 *
 * @example
 * addOutputOptions(program.command("call").argument("<tools-module>"));
 */
export function addOutputOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--max-output-characters <n>",
        "the most characters of each result's content, marker included " +
          `(${MIN_CHARACTERS} to ${MAX_CHARACTERS}; default: the Tool's or the module's budget, else 4096)`,
      ).argParser(parseMaxOutputCharacters),
    )
    .addOption(
      new Option(
        "--truncate <strategy>",
        "which part of a long text output is kept (default: the Tool's or the module's, else head)",
      ).choices(TRUNCATE_CHOICES),
    )
    .addOption(
      new Option(
        "--format <format>",
        "text: a string result as its own text, structured output as standard JSON; " +
          "json: the course's JSON text (default: the Tool's or the module's, else text)",
      ).choices(FORMAT_CHOICES),
    );
}

/**
 * The per-call options the flags stand for, or undefined when none was
 * given (then every result is what the tools module and the command's
 * default format produce).
 *
 * @example
 * outputCallOptions({ maxOutputCharacters: 50_000, truncate: "tail" });
 * // { outputBudget: { maxCharacters: 50000 }, truncate: "tail" }
 */
export function outputCallOptions(flags: OutputFlags): ToolCallOptions | undefined {
  const { maxOutputCharacters, truncate, format } = flags;
  if (maxOutputCharacters === undefined && truncate === undefined && format === undefined) {
    return undefined;
  }
  return Object.freeze({
    ...(maxOutputCharacters === undefined
      ? {}
      : { outputBudget: Object.freeze({ maxCharacters: maxOutputCharacters }) }),
    ...(truncate === undefined ? {} : { truncate }),
    ...(format === undefined ? {} : { format }),
  });
}

/**
 * A short description of the flags for the `toolbound mcp` start-up line, or
 * an empty string when neither was given.
 *
 * @example
 * describeOutputFlags({ maxOutputCharacters: 50_000, truncate: "tail" });
 * // "; results up to 50000 characters, truncate tail"
 */
export function describeOutputFlags(flags: OutputFlags): string {
  const parts: string[] = [];
  if (flags.maxOutputCharacters !== undefined) {
    parts.push(`results up to ${flags.maxOutputCharacters} characters`);
  }
  if (flags.truncate !== undefined) parts.push(`truncate ${flags.truncate}`);
  if (flags.format !== undefined) parts.push(`format ${flags.format}`);
  return parts.length === 0 ? "" : `; ${parts.join(", ")}`;
}
