/**
 * Every relative link of README.md, CONTRIBUTING.md and docs/*.md resolves:
 * the file or folder exists, and a `#anchor` (in the same document or
 * another one) matches a heading as GitHub turns headings into anchors.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { anchors, documents, type Link, linkedFile, links, ROOT, slug } from "./markdown.ts";

/** Why a link does not resolve, or undefined when it does. */
function brokenReason(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // https:, mailto:
  const [path = "", anchor] = link.target.split("#", 2);
  const file = path === "" ? link.doc : linkedFile(link.doc, path);
  if (!existsSync(join(ROOT, file))) return `no file ${file}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith(".md")) return `an anchor into ${file}, which has no headings`;
  return anchors(file).has(decodeURIComponent(anchor))
    ? undefined
    : `no heading #${anchor} in ${file}`;
}

describe("anchors as GitHub makes them", () => {
  test.each([
    ["Set-up", "set-up"],
    ["Output budgets", "output-budgets"],
    ["`defineTool(definition)`", "definetooldefinition"],
    ["Tools from schemas (`toolbound/schema`)", "tools-from-schemas-toolboundschema"],
    ["The flow of `executeToolCall`", "the-flow-of-executetoolcall"],
    ["What is missed, and why", "what-is-missed-and-why"],
    ["Rows 1–4: per call", "rows-14-per-call"],
    ["snake_case stays", "snake_case-stays"],
  ])("%s → #%s", (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });
});

describe("links", () => {
  const all = documents().flatMap(links);

  test("the documents link to each other", () => {
    expect(documents()).toContain("README.md");
    expect(all.filter((link) => !/^[a-z]+:/i.test(link.target)).length).toBeGreaterThan(0);
  });

  test("a broken file link and a broken anchor are found", () => {
    expect(brokenReason({ doc: "README.md", line: 1, target: "docs/no-such-guide.md" })).toBe(
      "no file docs/no-such-guide.md",
    );
    expect(brokenReason({ doc: "README.md", line: 1, target: "#no-such-heading" })).toBe(
      "no heading #no-such-heading in README.md",
    );
  });

  test("every relative link and anchor resolves", () => {
    const broken = all.flatMap((link) => {
      const reason = brokenReason(link);
      return reason === undefined ? [] : [`${link.doc}:${link.line} (${link.target}): ${reason}`];
    });
    expect(broken).toEqual([]);
  });
});
