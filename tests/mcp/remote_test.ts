/**
 * Remote MCP servers through the real command line: server-everything started in its
 * Streamable HTTP mode and in its SSE mode (listed and called over each; the SSE one reached by
 * the fallback and by "transport": "sse"; a run in which the scripted model loads and calls echo
 * over both and reads the answers), `hel mcp call --url` and `list --url` (no file, no
 * trust), and an SDK fixture server that logs request headers: a bearer token and a header
 * from the environment reach it, a missing variable stops the connection with its name, the
 * output never shows a value, an oversized answer is refused.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  REPO_ROOT,
  scriptedModel,
  type TempProject,
  tempProject,
  toolMessage,
} from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST, modelArgs, readLog, systemText } from "../_mcp.ts";
import { EVERYTHING, ignoreNpm, warmNpx } from "../_npx.ts";
import { cacheFolder } from "../../plugins/mcp/launch.ts";

async function hel(project: TempProject, env: Record<string, string>, ...args: string[]) {
  const result = await runHelInProcess([...FAST, "mcp", ...args], { cwd: project.project, env });
  const stderr = result.stderr.split("\n").filter((line) => !line.includes("hel runs as root"));
  return { ...result, stderr: stderr.join("\n") };
}

/** A local server process, stopped at the end of the test. */
async function serve(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: () => Promise<boolean>,
): Promise<AsyncDisposable> {
  // A group of its own (setsid), so that npx's node child is stopped with it.
  const child = new Deno.Command("setsid", {
    args: [command, ...args],
    env,
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0; i < 300 && !await ready(); i++) await new Promise((r) => setTimeout(r, 100));
  return {
    async [Symbol.asyncDispose]() {
      try {
        Deno.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
      await child.status;
    },
  };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** True once something accepts connections on the port. */
const listening = (port: number) => async () => {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return true;
  } catch {
    return false;
  }
};

Deno.test("a bearer token and a header from the environment reach the server; no value is shown", async () => {
  await using project = await tempProject();
  const log = `${project.root}/headers.jsonl`;
  const portFile = `${project.root}/port`;
  await using _server = await serve(
    Deno.execPath(),
    [
      "run",
      "-A",
      `${REPO_ROOT}/fixtures/mcp/http_server.ts`,
      "--log",
      log,
      "--port-file",
      portFile,
    ],
    {},
    async () => await Deno.stat(portFile).then(() => true, () => false),
  );
  const url = `http://127.0.0.1:${await Deno.readTextFile(portFile)}/mcp`;
  await project.write(
    ".hel/mcp.json",
    JSON.stringify({
      servers: {
        api: {
          url,
          bearerTokenEnv: "TEST_TOKEN",
          headers: { "X-Api-Key": { env: "TEST_KEY" }, "X-Tenant": "acme" },
          maxMessageBytes: 10 * 1024 * 1024,
        },
      },
    }),
  );
  const env = { TEST_TOKEN: "tok-123", TEST_KEY: "key-456" };
  let result = await hel(project, env, "list");
  assert.match(result.stdout, /not trusted/); // a remote entry is trusted by content too
  // Trust it as the person would (no terminal: by its sha256).
  const sha = result.stdout.match(/--sha256 ([0-9a-f]{64})/)![1]!;
  assert.equal(
    (await runHelInProcess(["trust", "mcp", "--sha256", sha], {
      cwd: project.project,
    })).code,
    0,
  );
  result = await hel(project, env, "call", "api", "whoami");
  assert.deepEqual([result.code, result.stdout], [0, "ok\n"], result.stderr);
  const posts = (await readLog(log)).filter((entry) => entry.method === "POST");
  assert.ok(posts.length >= 2, "initialize, tools/list and the call were posted");
  for (const post of posts) {
    const headers = post.headers as Record<string, string>;
    assert.equal(headers.authorization, "Bearer tok-123");
    assert.equal(headers["x-api-key"], "key-456");
    assert.equal(headers["x-tenant"], "acme");
  }
  result = await hel(project, env, "list");
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /^ {2}headers: Authorization \(bearer, from TEST_TOKEN\), X-Api-Key \(from TEST_KEY\), X-Tenant \(set in the file\)$/m,
  );
  assert.match(result.stdout, /^ {2}sandbox: none needed: a remote server runs elsewhere/m);
  const json = await hel(project, env, "list", "--json");
  for (
    const text of [
      result.stdout,
      result.stderr,
      json.stdout,
      (await hel(project, env, "get", "api")).stdout,
    ]
  ) {
    assert.doesNotMatch(text, /tok-123|key-456|acme/);
  }
  // An answer over the entry's bound is refused, not buffered.
  result = await hel(project, env, "call", "api", "big");
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: .*message over 10 MiB.*"maxMessageBytes"/m);
  // A variable that is not set: not connected, and the message names it.
  result = await hel(project, { TEST_KEY: "key-456" }, "call", "api", "whoami");
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /MCP server api did not start: not connected: it needs TEST_TOKEN from your environment/,
  );
});

Deno.test({
  name:
    "server-everything over Streamable HTTP and over SSE: listed, called, used by a model run, and with --url",
  ignore: ignoreNpm,
  async fn() {
    await using project = await tempProject();
    await Deno.mkdir(`${project.root}/hel-home`, { recursive: true });
    await warmNpx(project, EVERYTHING);
    const npmCache = `${await cacheFolder(`${project.root}/hel-home`, project.project)}/npm`;
    const [httpPort, ssePort] = [freePort(), freePort()];
    const start = (mode: string, port: number) =>
      serve("npx", ["-y", EVERYTHING, mode], {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: project.root,
        PORT: String(port),
        npm_config_cache: npmCache,
      }, listening(port));
    await using _http = await start("streamableHttp", httpPort);
    await using _sse = await start("sse", ssePort);
    const http = `http://127.0.0.1:${httpPort}/mcp`;
    const sse = `http://127.0.0.1:${ssePort}/sse`;
    await Deno.writeTextFile(
      `${project.root}/hel-home/mcp.json`,
      JSON.stringify({
        servers: {
          http: { url: http },
          "sse-auto": { url: sse }, // Streamable HTTP first; the server answers the old way
          sse: { url: sse, transport: "sse" },
        },
      }),
    );
    const list = await hel(project, {}, "list");
    assert.equal(list.code, 0, list.stdout + list.stderr);
    for (const name of ["http", "sse-auto", "sse"]) {
      assert.match(list.stdout, new RegExp(`^${name}: connected, \\d+ tools`, "m"));
      assert.match(list.stdout, new RegExp(`- mcp__${name.replace("-", "-")}__get-sum: `));
    }
    for (const name of ["http", "sse-auto", "sse"]) {
      const result = await hel(project, {}, "call", name, "get-sum", '{"a": 2, "b": 3}');
      assert.deepEqual(
        [result.code, result.stdout],
        [0, "The sum of 2 and 3 is 5.\n"],
        result.stderr,
      );
    }
    // Progress over HTTP: the call reports and completes.
    let result = await hel(
      project,
      {},
      "call",
      "http",
      "trigger-long-running-operation",
      '{"duration": 1, "steps": 2}',
    );
    assert.match(result.stdout, /^Long running operation completed/);
    // A model run: the model loads echo of the Streamable HTTP server and of the forced SSE
    // one, calls both, and reads each server's answer in its next request.
    const names = ["mcp__http__echo", "mcp__sse__echo"];
    await using model = scriptedModel([
      { toolCalls: [{ name: "load_mcp_tool", arguments: { names } }] },
      {
        toolCalls: [
          { id: "h", name: names[0]!, arguments: { message: "over http" } },
          { id: "s", name: names[1]!, arguments: { message: "over sse" } },
        ],
      },
      { text: "done" },
    ]);
    const run = await runHelInProcess([...FAST, ...modelArgs(model), "-i", "echo it"], {
      cwd: project.project,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(model.remaining(), 0);
    assert.match(systemText(model.requests[0]!), /mcp__http__echo/);
    for (const name of names) assert.ok(model.requests[1]!.toolNames.includes(name), name);
    assert.equal(toolMessage(model, "h"), "Echo: over http");
    assert.equal(toolMessage(model, "s"), "Echo: over sse");
    assert.equal(model.requests[2]!.messages.at(-1)?.content, "Echo: over sse");
    // Given on the command line: no file involved.
    result = await hel(project, {}, "call", "--url", sse, "echo", '{"message": "hi"}');
    assert.deepEqual([result.code, result.stdout], [0, "Echo: hi\n"], result.stderr);
    result = await hel(project, {}, "list", "--url", http, "--json");
    const report = JSON.parse(result.stdout);
    assert.equal(report.servers[0].status, "connected");
    assert.deepEqual(report.servers[0].remote, {
      url: http,
      transport: "auto",
      headers: [],
      login: { state: "none" },
    });
    // Nothing listens here: the message says what failed where.
    result = await hel(project, {}, "list", "--url", `http://127.0.0.1:${freePort()}/mcp`);
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /^url: skipped: could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp: /m,
    );
  },
});
