/**
 * The report: one row per comparison (its ratio, target and verdict, with the
 * absolute figures for information), rendered as a Markdown table for people
 * or as one JSON document for machines.
 */

import { writeFileSync } from "node:fs";
import { cpus } from "node:os";

/** An absolute figure shown for information: a duration per operation, or a rate. */
export interface Figure {
  readonly label: string;
  readonly value: number;
  /** "ns" for nanoseconds per operation, "calls/s" for a throughput, "bytes" for memory. */
  readonly unit: "ns" | "calls/s" | "bytes";
}

/** A row's target: the ratio must be at most, or at least, `value`. */
export interface Target {
  readonly kind: "at-most" | "at-least";
  readonly value: number;
}

/**
 * One comparison of the report. `ratio` is null when it cannot be measured
 * (the reason is in `note`); `met` is null when there is no target or no ratio.
 *
 * @example
 * const row = compareRow({ id: "1", scenario: 1, title: "echo", figures, ratioLabel: "ours / bare", ratio: 2.1, target: atMost(3) });
 * row.met; // true
 */
export interface Row {
  readonly id: string;
  readonly scenario: number;
  readonly title: string;
  readonly figures: readonly Figure[];
  readonly ratioLabel: string;
  readonly ratio: number | null;
  readonly target: Target | null;
  readonly met: boolean | null;
  readonly note: string | null;
}

/** What `compareRow` needs; the verdict is computed from `ratio` and `target`. */
export type RowInput = Omit<Row, "met" | "note"> & { readonly note?: string };

/** A target that the ratio must not exceed. @example atMost(3) */
export function atMost(value: number): Target {
  return { kind: "at-most", value };
}

/** A target that the ratio must reach. @example atLeast(100) */
export function atLeast(value: number): Target {
  return { kind: "at-least", value };
}

/**
 * Builds a row and decides whether its target is met.
 *
 * @example
 * compareRow({ ...fields, ratio: 120, target: atLeast(100) }).met; // true
 */
export function compareRow(input: RowInput): Row {
  const { ratio, target } = input;
  let met: boolean | null = null;
  if (ratio !== null && target !== null) {
    met = target.kind === "at-most" ? ratio <= target.value : ratio >= target.value;
  }
  return { ...input, met, note: input.note ?? null };
}

/** Formats nanoseconds with a unit that keeps three significant digits. @example formatNs(1530) // "1.53 µs" */
export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toPrecision(3)} M calls/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toPrecision(3)} k calls/s`;
  return `${perSecond.toPrecision(3)} calls/s`;
}

function formatBytes(bytes: number): string {
  return `${(bytes / 1e6).toPrecision(3)} MB`;
}

function formatFigure(figure: Figure): string {
  const value =
    figure.unit === "ns"
      ? formatNs(figure.value)
      : figure.unit === "bytes"
        ? formatBytes(figure.value)
        : formatRate(figure.value);
  return `${figure.label} ${value}`;
}

function formatRatio(ratio: number): string {
  if (ratio >= 100) return `${ratio.toFixed(0)}x`;
  if (ratio >= 10) return `${ratio.toFixed(1)}x`;
  return `${ratio.toFixed(2)}x`;
}

function formatTarget(target: Target | null): string {
  if (target === null) return "none";
  return `${target.kind === "at-most" ? "≤" : "≥"} ${target.value}x`;
}

function formatMet(met: boolean | null): string {
  if (met === null) return "n/a";
  return met ? "yes" : "**no**";
}

/** The run's circumstances, printed above the table and included in the JSON document. */
export interface RunInfo {
  readonly suite: string;
  readonly node: string;
  readonly date: string;
  readonly platform: string;
  readonly cpuCount: number;
  readonly statistic: string;
  readonly durationSeconds: number;
}

/**
 * Describes this process: Node version, date (UTC, ISO 8601), platform and
 * core count. No host name is recorded.
 *
 * @example
 * runInfo("toolbound bench", startedAt).node; // "v20.20.2"
 */
export function runInfo(suite: string, startedAt: number): RunInfo {
  return {
    suite,
    node: process.version,
    date: new Date().toISOString(),
    platform: `${process.platform} ${process.arch}`,
    cpuCount: cpus().length,
    statistic:
      "median across rounds of each round's median tinybench sample, per operation; ratios use those medians unless their row says otherwise",
    durationSeconds: Math.round((performance.now() - startedAt) / 100) / 10,
  };
}

function escapeCell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/**
 * Renders the rows as a Markdown table (readable in a terminal, pasteable in
 * docs/performance.md), preceded by the run's circumstances and followed by
 * the notes.
 *
 * @example
 * process.stdout.write(renderTable(rows, info));
 */
export function renderTable(rows: readonly Row[], info: RunInfo): string {
  const lines: string[] = [];
  lines.push(
    `${info.suite}: Node ${info.node}, ${info.platform}, ${info.cpuCount} cores, ${info.date} (${info.durationSeconds} s)`,
  );
  lines.push(`Figures: ${info.statistic}.`);
  lines.push("");
  lines.push("| # | what is compared | absolute times (information) | ratio | target | met |");
  lines.push("| --- | --- | --- | --- | --- | --- |");
  const notes: string[] = [];
  for (const row of rows) {
    const figures = row.figures.map(formatFigure).join(" · ");
    const ratio = row.ratio === null ? "n/a" : `${formatRatio(row.ratio)} (${row.ratioLabel})`;
    const marker = row.note === null ? "" : ` [${notes.length + 1}]`;
    if (row.note !== null) notes.push(row.note);
    lines.push(
      `| ${row.id} | ${escapeCell(row.title)}${marker} | ${escapeCell(figures)} | ${escapeCell(ratio)} | ${formatTarget(row.target)} | ${formatMet(row.met)} |`,
    );
  }
  const withTarget = rows.filter((row) => row.met !== null);
  const metCount = withTarget.filter((row) => row.met === true).length;
  lines.push("");
  lines.push(`Targets met: ${metCount} of ${withTarget.length}.`);
  if (notes.length > 0) {
    lines.push("");
    notes.forEach((note, index) => {
      lines.push(`[${index + 1}] ${note}`);
    });
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The same rows as one JSON document (figures in nanoseconds per operation or
 * calls per second, ratios as plain numbers).
 *
 * @example
 * process.stdout.write(`${JSON.stringify(jsonDocument(rows, info))}\n`);
 */
export function jsonDocument(rows: readonly Row[], info: RunInfo): object {
  const withTarget = rows.filter((row) => row.met !== null);
  return {
    ...info,
    targets: {
      total: withTarget.length,
      met: withTarget.filter((row) => row.met === true).length,
    },
    rows,
  };
}

/**
 * Writes the report where the command line asks: the table on stdout by
 * default; with `--json`, the JSON document on stdout instead (run it as
 * `npm run -s bench -- --json`, so npm's banner stays off stdout); with
 * `--json=<path>`, the table on stdout and the JSON document to that file.
 *
 * @example
 * writeReport(rows, info, process.argv.slice(2));
 */
export function writeReport(rows: readonly Row[], info: RunInfo, args: readonly string[]): void {
  const json = `${JSON.stringify(jsonDocument(rows, info), null, 2)}\n`;
  const toFile = args.find((arg) => arg.startsWith("--json="));
  if (toFile !== undefined) {
    const path = toFile.slice("--json=".length);
    if (path.length === 0) throw new Error("--json= needs a file path, such as --json=bench.json");
    writeFileSync(path, json);
    process.stdout.write(renderTable(rows, info));
    process.stderr.write(`bench: wrote the JSON document to ${path}\n`);
    return;
  }
  process.stdout.write(args.includes("--json") ? json : renderTable(rows, info));
}
