/**
 * The README is a landing page and the guides are where the reference
 * lives: the README stays short and links every guide under docs/, and
 * every guide opens with an example the documentation tests run (a `ts` or
 * `sh` block before the guide's second section).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { codeBlocks, documents, linkedFile, links, proseLines, ROOT } from "./markdown.ts";

const guides = documents().filter((doc) => doc.startsWith("docs/"));

test("the README is at most 250 lines", () => {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n");
  expect(lines.length).toBeGreaterThan(20);
  expect(lines.length).toBeLessThanOrEqual(250);
});

test("the README links every guide", () => {
  expect(guides.length).toBeGreaterThan(10);
  const linked = new Set(
    links("README.md").map((link) => linkedFile("README.md", link.target.split("#")[0] ?? "")),
  );
  expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
});

test.each(guides)("%s opens with an example the tests run", (guide) => {
  const [first] = codeBlocks(guide);
  expect(first, `${guide} has no code block`).toBeDefined();
  expect(["ts", "sh"]).toContain(first?.lang);
  // The line of the guide's second `## ` heading, or its end.
  const sections = proseLines(guide)
    .map((line, index) => (line.startsWith("## ") ? index + 1 : 0))
    .filter((line) => line > 0);
  expect(first?.line ?? Number.POSITIVE_INFINITY).toBeLessThan(
    sections[1] ?? Number.POSITIVE_INFINITY,
  );
});
