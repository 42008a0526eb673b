/**
 * `toolbound mcp --http`, started as a child process and driven by the
 * official SDK client and by raw requests, as a deployment would be.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXAMPLES, ensureBuilt, lines, run, writeFixtures } from "../../test/support/cli.ts";
import { useHttpServers } from "../../test/support/http-cli.ts";
import { connectHttpClient, rawRequest, toolCallBody } from "../../test/support/mcp-http.ts";
import { exposureWarning } from "./mcp-http-command.ts";

const TOKEN = "tb-cli-4d8e1f0a9b7c";
let fixtures = "";
let secrets = "";
beforeAll(async () => {
  await ensureBuilt();
  fixtures = writeFixtures();
  secrets = mkdtempSync(join(tmpdir(), "toolbound-token-"));
  writeFileSync(join(secrets, "token"), `\n  ${TOKEN}  \n`);
  writeFileSync(join(secrets, "blank"), " \n\t\n");
  writeFileSync(join(secrets, "two-words"), "tb-one tb-two\n");
}, 180_000);
afterAll(() => {
  rmSync(fixtures, { recursive: true, force: true });
  rmSync(secrets, { recursive: true, force: true });
});

const startHttp = useHttpServers();

describe("toolbound mcp --http", { timeout: 60_000 }, () => {
  test("says where it serves, answers an SDK client, and exits 0 on SIGTERM", async () => {
    const server = await startHttp([EXAMPLES]);
    expect(server.banner).toBe(
      `toolbound mcp: serving 5 Tools from ${EXAMPLES} at ${server.url} (sessions, no token)`,
    );
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connectHttpClient(server.url);
    const result = await client.callTool({ name: "add", arguments: { left: 20, right: 22 } });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":42}' }]);
    await client.close();
    server.child.kill("SIGTERM");
    const { code, stdout, stderr } = await server.done;
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(lines(stderr).at(-1)).toBe(
      "toolbound mcp: SIGTERM: stopping; calls in flight get up to 10000 ms to finish",
    );
  });

  test("with --token-file: no token or a wrong one is 401 and runs nothing; the token is never printed", async () => {
    const server = await startHttp([
      "--token-file",
      join(secrets, "token"),
      join(fixtures, "probe.mjs"),
    ]);
    expect(server.banner).toContain("(sessions, bearer token required)");
    for (const headers of [{}, { authorization: "Bearer tb-wrong" }]) {
      const answer = await rawRequest(server.url, {
        headers,
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "x", version: "1" },
          },
        },
      });
      expect(answer.status).toBe(401);
    }
    const client = await connectHttpClient(server.url, { token: TOKEN });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("probe");
    await client.close();
    server.child.kill("SIGINT");
    const { code, stderr } = await server.done;
    expect(code).toBe(0);
    expect(stderr).not.toContain(TOKEN);
    expect(stderr).not.toContain("probe: started");
  });

  test("a rebinding Host header is 403", async () => {
    const server = await startHttp(["--stateless", EXAMPLES]);
    const answer = await rawRequest(server.url, {
      headers: { host: "evil.example" },
      body: toolCallBody(1, "add", { left: 1, right: 2 }),
    });
    expect(answer.status).toBe(403);
    const allowed = await rawRequest(server.url, {
      body: toolCallBody(1, "add", { left: 1, right: 2 }),
    });
    expect(allowed.status).toBe(200);
  });

  test.each([
    [["--token-file", "token.txt"], "toolbound: --token-file needs --http"],
    [
      ["--stateless", "--allowed-host", "a.example"],
      "toolbound: --stateless, --allowed-host needs --http",
    ],
  ])("%j without --http is a usage error", async (flags, message) => {
    const { code, stdout, stderr } = await run(["mcp", ...flags, EXAMPLES]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual([message]);
  });

  test.each(["80800", "localhost:", "a b:80", "[::1]"])(
    "--http %s is a usage error",
    async (address) => {
      const { code, stderr } = await run(["mcp", "--http", address, EXAMPLES]);
      expect(code).toBe(1);
      expect(lines(stderr)).toHaveLength(1);
      expect(stderr).toContain("It must be [host:]port with a port from 0 to 65535");
    },
  );

  test.each([
    ["missing", "no-such-file", /^toolbound: cannot read token file .*no-such-file \(ENOENT\)$/],
    ["blank", "blank", /^toolbound: token file .*blank is empty$/],
    ["two words", "two-words", /^toolbound: token file .*two-words must hold one token/],
  ])(
    "a %s token file is refused with one line that never quotes its content",
    async (_what, file, message) => {
      const { code, stderr } = await run([
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--token-file",
        join(secrets, file),
        EXAMPLES,
      ]);
      expect(code).toBe(1);
      expect(lines(stderr)).toHaveLength(1);
      expect(lines(stderr)[0]).toMatch(message);
      expect(stderr).not.toContain("tb-one");
    },
  );

  test.each([
    ["0.0.0.0", false, "listening on 0.0.0.0 without --token-file"],
    ["::", false, "listening on :: without --token-file"],
    ["0.0.0.0", true, undefined],
    ["127.0.0.1", false, undefined],
    ["localhost", false, undefined],
  ])("bound to %s (token: %s) the exposure warning is %s", (host, hasToken, expected) => {
    const warning = exposureWarning(host, hasToken);
    if (expected === undefined) expect(warning).toBeUndefined();
    else expect(warning).toContain(expected);
  });
});
