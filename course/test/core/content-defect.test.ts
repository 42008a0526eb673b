/**
 * The net under the writing of `toolContent`: nothing that writing runs can
 * throw for any output (a spill hook's throw is reported, and so is text too
 * long to be joined for it), so a throw there is a defect. These tests put one
 * in (the module is replaced for this file only) and check that the call still
 * settles once: a registered NonRecoverableToolError stays fatal, anything
 * else fails the output with a result the model can read.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import type * as contentRender from "../../src/content-render.ts";
import { executeToolCall, NonRecoverableToolError, toolContent } from "../../src/index.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

const defect = vi.hoisted(() => ({ thrown: undefined as unknown }));

vi.mock("../../src/content-render.ts", async (importOriginal) => {
  const original = await importOriginal<typeof contentRender>();
  return {
    ...original,
    renderToolContent: (...args: Parameters<typeof original.renderToolContent>) => {
      if (defect.thrown !== undefined) throw defect.thrown;
      return original.renderToolContent(...args);
    },
  };
});

afterEach(() => {
  defect.thrown = undefined;
});

const contentCall = () =>
  executeToolCall(
    workRegistry(() => toolContent([{ type: "text", text: "written" }])),
    workCall(),
    new AbortController().signal,
  );

describe("a defect while writing toolContent", () => {
  test("without one, the content is written (the replaced module passes through)", async () => {
    const result = await contentCall();
    expect(result).toMatchObject({ isError: false, content: "written" });
  });

  test("an ordinary throw fails the output: TOOL_OUTPUT_SERIALIZATION_FAILED, linked", async () => {
    defect.thrown = new TypeError("a defect");
    const result = await contentCall();
    expect(result.isError).toBe(true);
    expect(result.toolCallId).toBe("call-1");
    expect(JSON.parse(result.content)).toEqual({
      error: {
        code: "TOOL_OUTPUT_SERIALIZATION_FAILED",
        message: "Tool content could not be written",
      },
    });
  });

  test("a registered NonRecoverableToolError rejects the call with itself", async () => {
    const fatal = new NonRecoverableToolError("met while writing");
    defect.thrown = fatal;
    await expect(contentCall()).rejects.toBe(fatal);
  });
});
