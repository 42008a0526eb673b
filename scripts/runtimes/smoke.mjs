// The runtime smoke test: the demo's scenarios, asserted, on whatever runtime
// runs this file (Bun and Deno load the TypeScript core directly).
//
//   bun scripts/runtimes/smoke.mjs                       the scenarios
//   bun scripts/runtimes/smoke.mjs --expect-fail-closed  without process.getBuiltinModule,
//                                                        the core must refuse to load
// Prints one line per check and a closing "N passed, N failed"; exits 1 on a failure.

const CORE = new URL("../../course/src/index.ts", import.meta.url).href;
const MARKER = "\n[Tool output truncated]";

function runtimeName() {
  if (globalThis.Bun !== undefined) return `Bun ${globalThis.Bun.version}`;
  if (globalThis.Deno !== undefined) return `Deno ${globalThis.Deno.version.deno}`;
  return `Node.js ${globalThis.process?.versions?.node ?? "unknown"}`;
}

const outcomes = { passed: 0, failed: 0 };
async function check(name, body) {
  try {
    await body();
    outcomes.passed += 1;
    console.log(`ok - ${name}`);
  } catch (error) {
    outcomes.failed += 1;
    console.log(`not ok - ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function equal(actual, expected, what) {
  if (!Object.is(actual, expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function codeOf(result) {
  return JSON.parse(result.content).error.code;
}

function call(name, args, id = `call-${name}`) {
  return { type: "toolCall", id, name, arguments: args };
}

async function scenarios() {
  const core = await import(CORE);
  const { defineTool, executeToolCall, ToolRegistry, NonRecoverableToolError } = core;
  const accept = (input) => ({ ok: true, value: input });
  let spyExecutions = 0;
  let trapsRun = 0;
  const countingTraps = {
    get() {
      trapsRun += 1;
      return undefined;
    },
    getPrototypeOf() {
      trapsRun += 1;
      return Object.prototype;
    },
    ownKeys() {
      trapsRun += 1;
      return [];
    },
  };
  const registry = new ToolRegistry([
    defineTool({
      name: "add",
      description: "Add two numbers.",
      validate: (input) =>
        typeof input.left === "number" && typeof input.right === "number"
          ? { ok: true, value: input }
          : { ok: false, error: "left and right must be numbers" },
      execute: async ({ left, right }) => ({ sum: left + right }),
    }),
    defineTool({
      name: "add_spy",
      description: "Count executions behind a validator that refuses.",
      validate: () => ({ ok: false, error: "left must be a number" }),
      execute: async () => {
        spyExecutions += 1;
        return { unreachable: true };
      },
    }),
    defineTool({
      name: "read_file",
      description: "Fail like a missing file.",
      validate: accept,
      execute: async () => {
        throw new Error("ENOENT: notes/missing.txt does not exist");
      },
    }),
    defineTool({
      name: "repeat",
      description: "Return a very long string.",
      validate: accept,
      execute: async () => "all work and no play ".repeat(200_000),
    }),
    defineTool({
      name: "today",
      description: "Return a Date.",
      validate: accept,
      execute: async () => new Date(0),
    }),
    defineTool({
      name: "proxy",
      description: "Return a Proxy whose traps count.",
      validate: accept,
      execute: async () => [new Proxy({}, countingTraps)],
    }),
    defineTool({
      name: "fatal",
      description: "Throw a NonRecoverableToolError.",
      validate: accept,
      execute: async () => {
        throw new NonRecoverableToolError("stop the run");
      },
    }),
    defineTool({
      name: "sleep",
      description: "Wait until cancelled.",
      validate: accept,
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new Error("the Tool saw the abort")));
        }),
    }),
  ]);
  const run = new AbortController();

  await check("a valid call succeeds with a linked, frozen result", async () => {
    const result = await executeToolCall(
      registry,
      call("add", { left: 20, right: 22 }),
      run.signal,
    );
    equal(result.content, '{"sum":42}', "content");
    equal(result.isError, false, "isError");
    equal(result.id, "tool-result-call-add", "id");
    equal(Object.isFrozen(result), true, "frozen");
  });
  await check("invalid arguments give TOOL_ARGUMENTS_INVALID with zero executions", async () => {
    const result = await executeToolCall(
      registry,
      call("add_spy", { left: "twenty", right: 22 }),
      run.signal,
    );
    equal(
      result.content,
      '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"left must be a number"}}',
      "content",
    );
    equal(spyExecutions, 0, "executions");
  });
  await check("an unknown Tool gives TOOL_NOT_FOUND", async () => {
    const result = await executeToolCall(registry, call("delete_everything", {}), run.signal);
    equal(codeOf(result), "TOOL_NOT_FOUND", "code");
    equal(result.isError, true, "isError");
  });
  await check("a throwing Tool gives TOOL_EXECUTION_FAILED with its message", async () => {
    const result = await executeToolCall(registry, call("read_file", { path: "x" }), run.signal);
    equal(codeOf(result), "TOOL_EXECUTION_FAILED", "code");
    equal(
      JSON.parse(result.content).error.message,
      "ENOENT: notes/missing.txt does not exist",
      "message",
    );
  });
  await check(
    "oversized output is cut to 4096 code points with one marker at the end",
    async () => {
      const result = await executeToolCall(registry, call("repeat", {}), run.signal);
      equal([...result.content].length, 4096, "code points");
      equal(result.content.endsWith(MARKER), true, "marker at the end");
      equal(result.content.indexOf(MARKER), result.content.length - MARKER.length, "one marker");
      equal(result.isError, false, "isError");
    },
  );
  await check("a Date output is refused as TOOL_OUTPUT_SERIALIZATION_FAILED", async () => {
    const result = await executeToolCall(registry, call("today", {}), run.signal);
    equal(codeOf(result), "TOOL_OUTPUT_SERIALIZATION_FAILED", "code");
  });
  await check("a Proxy output is refused without running a trap", async () => {
    const result = await executeToolCall(registry, call("proxy", {}), run.signal);
    equal(codeOf(result), "TOOL_OUTPUT_SERIALIZATION_FAILED", "code");
    equal(result.content.includes("Proxy"), true, "the message names the Proxy");
    equal(trapsRun, 0, "traps run");
  });
  await check("a NonRecoverableToolError rejects the call with the same instance", async () => {
    const outcome = await executeToolCall(registry, call("fatal", {}), run.signal).then(
      () => "resolved",
      (reason) => reason,
    );
    equal(outcome instanceof NonRecoverableToolError, true, "rejected with the error");
  });
  await check("a cancelled call rejects with the exact reason and no result", async () => {
    const cancel = new AbortController();
    const reason = new Error("the user pressed stop");
    setTimeout(() => cancel.abort(reason), 20);
    const outcome = await executeToolCall(
      registry,
      call("sleep", { ms: 10_000 }),
      cancel.signal,
    ).then(
      () => "resolved",
      (rejection) => rejection,
    );
    equal(outcome, reason, "rejection");
  });
}

async function failClosed() {
  await check("without process.getBuiltinModule the core refuses to load", async () => {
    const processObject = globalThis.process;
    if (processObject !== undefined) {
      Object.defineProperty(processObject, "getBuiltinModule", {
        value: undefined,
        configurable: true,
        writable: true,
      });
    }
    const loaded = await import(CORE).then(
      () => undefined,
      (error) => error,
    );
    if (loaded === undefined) throw new Error("the core loaded without Proxy detection");
    equal(loaded instanceof TypeError, true, "a TypeError");
    equal(String(loaded.message).includes("getBuiltinModule"), true, "the message names the need");
  });
}

console.log(`runtime smoke on ${runtimeName()}`);
const expectFailClosed = (globalThis.process?.argv ?? []).includes("--expect-fail-closed");
await (expectFailClosed ? failClosed() : scenarios());
console.log(`${outcomes.passed} passed, ${outcomes.failed} failed`);
if (outcomes.failed > 0 && globalThis.process !== undefined) globalThis.process.exitCode = 1;
