/**
 * `toolbound call`, through the built binary: one call as an argument, JSON
 * Lines on standard input, bad input, and Ctrl-C while a call is in flight.
 */
import { describe, expect, test } from "vitest";
import {
  EXAMPLES,
  finished,
  lineOn,
  lines,
  run,
  start,
  useBuiltFixtures,
} from "../../test/support/cli.ts";

const fixture = useBuiltFixtures();

const probe = (): string => fixture("probe.mjs");

describe.concurrent("one call as an argument", { timeout: 60_000 }, () => {
  test("prints the linked result message as one JSON line and exits 0", async () => {
    const { code, stdout, stderr } = await run([
      "call",
      EXAMPLES,
      '{"name":"add","arguments":{"left":20,"right":22}}',
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe(
      '{"id":"tool-result-call-1","role":"toolResult","toolCallId":"call-1","toolName":"add",' +
        '"content":"{\\"sum\\":42}","isError":false}\n',
    );
  });

  test("keeps the call's own id and prints an isError result like any other", async () => {
    const { code, stdout } = await run([
      "call",
      EXAMPLES,
      '{"id":"call-add-001","name":"add","arguments":{"left":"twenty","right":22}}',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      id: "tool-result-call-add-001",
      role: "toolResult",
      toolCallId: "call-add-001",
      toolName: "add",
      content: '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"left must be a number"}}',
      isError: true,
    });
  });

  test.each([
    ["invalid JSON", "{name:add}", /^toolbound: call argument: invalid JSON \(/],
    ["a JSON array", "[1]", /^toolbound: call argument: a Tool call must be a JSON object/],
    [
      "arguments that are not an object",
      '{"name":"add","arguments":[1,2]}',
      /^toolbound: call argument: invalid Tool call: Tool call arguments .*not an array/,
    ],
    [
      "a missing name",
      '{"arguments":{}}',
      /^toolbound: call argument: invalid Tool call: Tool call name must be a non-blank string\n$/,
    ],
  ])("refuses %s with one line on stderr and exit 1", async (_label, callJson, message) => {
    const { code, stdout, stderr } = await run(["call", EXAMPLES, callJson]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  test("a NonRecoverableToolError stops the command with one line and exit 1", async () => {
    const { code, stdout, stderr } = await run(["call", probe(), '{"name":"fatal"}']);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual([
      'toolbound: call argument: call "call-1" (fatal) stopped with a non-recoverable error: ' +
        "ledger is inconsistent",
    ]);
  });

  test("a Tool whose promise can never settle is reported, not left to exit silently", async () => {
    const { code, stdout, stderr } = await run(["call", probe(), '{"name":"stuck"}']);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual([
      'toolbound: call "call-1" (stuck) never settled: ' +
        "the Tool's promise is pending with nothing left to wait for",
    ]);
  });
});

describe.concurrent("JSON Lines on standard input", { timeout: 60_000 }, () => {
  test("runs each call in order and prints one result line per call; blank lines are skipped", async () => {
    const input = [
      '{"name":"add","arguments":{"left":1,"right":2}}',
      "",
      '{"name":"read_file","arguments":{"path":"notes.txt"}}',
      '{"id":"mine","name":"nope"}',
    ].join("\n");
    const { code, stdout, stderr } = await run(["call", EXAMPLES], `${input}\n`);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const results = lines(stdout).map((line) => JSON.parse(line));
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ["call-1", false],
      ["call-3", true],
      ["mine", true],
    ]);
    expect(results[1].content).toBe(
      '{"error":{"code":"TOOL_EXECUTION_FAILED","message":"ENOENT: no such file: notes.txt"}}',
    );
    expect(JSON.parse(results[2].content).error.code).toBe("TOOL_NOT_FOUND");
  });

  test("invalid JSON is reported with its line number; earlier results stay, later calls never run", async () => {
    const input = [
      '{"name":"add","arguments":{"left":1,"right":2}}',
      "",
      '{"name":"add", "arguments": }',
      '{"name":"add","arguments":{"left":3,"right":4}}',
    ].join("\n");
    const { code, stdout, stderr } = await run(["call", EXAMPLES], `${input}\n`);
    expect(code).toBe(1);
    expect(lines(stdout).map((line) => JSON.parse(line).toolCallId)).toEqual(["call-1"]);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toMatch(/^toolbound: line 3: invalid JSON \(/);
  });

  test("empty input prints nothing and exits 0", async () => {
    const { code, stdout, stderr } = await run(["call", EXAMPLES], "");
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe.concurrent("Ctrl-C", { timeout: 60_000 }, () => {
  test("cancels the call in flight: the Tool sees its signal abort, no result line, exit 130", async () => {
    const child = start(["call", probe(), '{"name":"probe"}']);
    const done = finished(child);
    await lineOn(child.stderr, (line) => line === "probe: started");
    child.kill("SIGINT");
    const { code, stdout, stderr } = await done;
    expect(code).toBe(130);
    expect(stdout).toBe("");
    const own = lines(stderr).filter((line) => !line.startsWith("probe: "));
    expect(own).toEqual([
      'toolbound: cancelled call "call-1" (probe): interrupted by SIGINT; no result was produced',
    ]);
    expect(lines(stderr).filter((line) => line === "probe: aborted")).toHaveLength(1);
  });

  test("cancels the JSON Lines call in flight after earlier results were printed", async () => {
    const child = start(["call", probe()]);
    const done = finished(child);
    child.stdin.write('{"name":"add","arguments":{"left":1,"right":1}}\n{"name":"probe"}\n');
    await lineOn(child.stderr, (line) => line === "probe: started");
    child.kill("SIGINT");
    const { code, stdout, stderr } = await done;
    expect(code).toBe(130);
    expect(lines(stdout).map((line) => JSON.parse(line).toolCallId)).toEqual(["call-1"]);
    expect(lines(stderr).filter((line) => line.startsWith("toolbound: "))).toEqual([
      'toolbound: cancelled call "call-2" (probe): interrupted by SIGINT; no result was produced',
    ]);
  });

  test("while waiting for input, exits 130 with one line", async () => {
    const child = start(["call", EXAMPLES]);
    const done = finished(child);
    child.stdin.write('{"name":"add","arguments":{"left":1,"right":1}}\n');
    await lineOn(child.stdout, (line) => line.includes('"toolCallId":"call-1"'));
    child.kill("SIGINT");
    const { code, stderr } = await done;
    expect(code).toBe(130);
    expect(lines(stderr)).toEqual(["toolbound: interrupted by SIGINT"]);
  });
});
