/**
 * For the providers guide's `toProviderTools` example: the two schema Tools
 * of the schema guide (`readFile` with zod, `edit` with TypeBox), an OpenAI
 * client whose network is a scripted Responses API reply, the model's name
 * and the input.
 */
import OpenAI from "openai";
import { schemaTool } from "toolbound/schema";
import { fromTypeBox } from "toolbound/schema/typebox";
import { Type } from "typebox";
import * as z from "zod";
import { responsesResponse } from "../../support/providers.ts";
import { scriptedFetch } from "../scripted-fetch.ts";

const readFile = schemaTool({
  name: "read_file",
  description: "Read a UTF-8 text file.",
  schema: z.object({ path: z.string().min(1), maxBytes: z.number().int().optional() }).strict(),
  execute: async ({ path }) => ({ path, text: "" }),
});
const edit = schemaTool({
  name: "edit_file",
  description: "Append or replace text in a file.",
  schema: fromTypeBox(
    Type.Object(
      { path: Type.String(), mode: Type.Union([Type.Literal("append"), Type.Literal("replace")]) },
      { additionalProperties: false },
    ),
  ),
  execute: async ({ path, mode }) => ({ path, mode }),
});
const openai = new OpenAI({
  apiKey: "test",
  maxRetries: 0,
  fetch: scriptedFetch([responsesResponse([])]).fetch,
});
const model = "gpt-4.1";
const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Read a.txt." }];
