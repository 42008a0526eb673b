/**
 * For the documentation's schema examples: the file read their `read_file` Tool
 * performs, and a call and a signal to run it with.
 */
import { readFile as readText } from "node:fs/promises";

const read = async (path: string, maxBytes?: number): Promise<string> =>
  (await readText(path, "utf8")).slice(0, maxBytes);
const call = { type: "toolCall", id: "call-1", name: "read_file", arguments: {} } as const;
const signal = new AbortController().signal;
