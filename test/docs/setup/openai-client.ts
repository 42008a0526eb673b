/**
 * For the README's `toProviderTools` example: an OpenAI client whose network
 * is a scripted Responses API reply, the model's name and the input.
 */
import OpenAI from "openai";
import { responsesResponse } from "../../support/providers.ts";
import { scriptedFetch } from "../scripted-fetch.ts";

const openai = new OpenAI({
  apiKey: "test",
  maxRetries: 0,
  fetch: scriptedFetch([responsesResponse([])]).fetch,
});
const model = "gpt-4.1";
const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Read a.txt." }];
