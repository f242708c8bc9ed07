/**
 * The model API errors a person meets first, as stderr shows them: one line per retry, then
 * one line with the cause and the fix, and no usage line of question marks after a run the
 * server never answered. hel's own client runs against real sockets (a closed port, a web
 * server, a name that cannot resolve, https to plain HTTP), its retry waits shortened.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { openAIClientFactory } from "../../cli/model_factory.ts";
import { helOnTerminal } from "../_terminal.ts";
import { renderScreen } from "../_screen.ts";

/** hel's client with retry waits of 5, 10, 20 and 40 ms instead of 1 to 8 s. */
const createModel = openAIClientFactory(5);

/**
 * stderr's lines, without the session's (whether a failed first request leaves a session is
 * another subject) and without the warning root gets at every start.
 */
function stderrLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) =>
    line !== "" && !/^session: |^hel: warning: hel runs as root/.test(line)
  );
}

/** Runs `hel --base-url URL hi`. */
async function heard(url: string, extra: string[] = []) {
  await using project = await tempProject();
  const run = await runHelInProcess(["--base-url", url, ...extra, "hi"], {
    cwd: project.project,
    createModel,
  });
  return { code: run.code, stdout: run.stdout, lines: stderrLines(run.stderr) };
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function serving(handler: () => Response) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
}

Deno.test("nothing listening: a line per retry, then the cause and the hint; no usage line", async () => {
  const url = `http://127.0.0.1:${closedPort()}/v1`;
  const run = await heard(url);
  assert.equal(run.code, 1);
  assert.equal(run.stdout, "");
  const cause = `hel: nothing listens at --base-url ${url}`;
  assert.deepEqual(run.lines, [
    `${cause}; retry 1 of 4 in 5 ms`,
    `${cause}; retry 2 of 4 in 10 ms`,
    `${cause}; retry 3 of 4 in 20 ms`,
    `${cause}; retry 4 of 4 in 40 ms`,
    `${cause}; is the server running? (gave up after 5 attempts)`,
  ]);
});

Deno.test("a web page where the API should be: said at once, streamed or not", async () => {
  await using server = serving(() =>
    new Response("<html><body>It works!</body></html>", {
      headers: { "content-type": "text/html" },
    })
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  for (const flags of [[], ["--no-stream"]]) {
    const run = await heard(url, flags);
    assert.equal(run.code, 1);
    assert.deepEqual(run.lines, [
      `hel: the server at ${url} did not answer as an OpenAI-compatible API (got text/html); ` +
      "check --base-url (OpenAI-compatible servers usually end in /v1)",
    ]);
  }
});

Deno.test("a host name that does not resolve is named a DNS failure", async () => {
  const run = await heard("http://nonexistent.invalid/v1");
  assert.equal(run.code, 1);
  assert.equal(run.lines.length, 1, run.lines.join("\n"));
  assert.match(
    run.lines[0]!,
    /^hel: DNS lookup of nonexistent\.invalid failed \([^)]+\); check the host name in --base-url http:\/\/nonexistent\.invalid\/v1 and your network connection$/,
  );
});

Deno.test("https to a plain HTTP server is named a TLS failure, with http:// as the fix", async () => {
  await using server = serving(() => Response.json({}));
  const url = `https://127.0.0.1:${server.addr.port}/v1`;
  const run = await heard(url);
  assert.equal(run.code, 1);
  assert.deepEqual(run.lines, [
    `hel: TLS handshake with 127.0.0.1:${server.addr.port} failed (received corrupt message of ` +
    `type InvalidContentType); the server does not speak TLS: if --base-url ${url} is a plain ` +
    "HTTP server, write it with http://",
  ]);
});

Deno.test("a refused key names the variable it came from", async () => {
  await using server = serving(() =>
    Response.json({ error: { message: "Invalid API key" } }, { status: 401 })
  );
  const url = `http://127.0.0.1:${server.addr.port}/v1`;
  const run = await heard(url);
  assert.equal(run.code, 1);
  assert.deepEqual(run.lines, [
    "hel: the server refused the API key in HEL_API_KEY (HTTP 401: 401 Invalid API key); " +
    `check that the key is right and is one for --base-url ${url}`,
  ]);
});

Deno.test("retries that end in an answer: their lines, the answer, then the usage line", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ fail: 429 }, { fail: 500 }, { text: "made it" }]);
  const run = await runHelInProcess(["--base-url", model.url, "hi"], { cwd: project.project });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "made it\n");
  const lines = stderrLines(run.stderr);
  assert.deepEqual(lines.slice(0, 2), [
    "hel: model API returned HTTP 429: 429 scripted failure 429; retry 1 of 4 in 20 ms",
    "hel: model API returned HTTP 500: 500 scripted failure 500; retry 2 of 4 in 20 ms",
  ]);
  assert.match(lines[2]!, /^\[usage: 1 model call · input \d+ · output \d+ · cached \d+\]$/);
  assert.equal(lines.length, 3);
});

Deno.test("on a terminal the retries rewrite one line, which the final line replaces", async () => {
  await using project = await tempProject();
  await using failing = scriptedModel([
    { fail: 429 },
    { fail: 503 },
    { fail: 429 },
    { fail: 500 },
    { fail: 500 },
  ]);
  const gaveUp = helOnTerminal(project, ["--base-url", failing.url, "hi"]);
  const { code, output } = await gaveUp.finish();
  assert.equal(code, 1, output);
  // Each retry was shown, in place: back to the line's start, erased, rewritten.
  for (const attempt of [1, 2, 3, 4]) {
    assert.match(
      output,
      new RegExp(
        `\\r\\x1b\\[2Khel: model API returned HTTP \\d+: .*; retry ${attempt} of 4 in 20 ms`,
      ),
    );
  }
  const screen = (await renderScreen(output)).lines.filter((line) =>
    line !== "" && !/^session: |^hel: warning: hel runs as root/.test(line)
  );
  assert.deepEqual(screen, [
    "hel: model API returned HTTP 500: 500 scripted failure 500 (gave up after 5 attempts)",
  ]);

  await using recovering = scriptedModel([{ fail: 429 }, { fail: 500 }, { text: "made it" }]);
  const recovered = helOnTerminal(project, ["--base-url", recovering.url, "hi"]);
  const after = await recovered.finish();
  assert.equal(after.code, 0, after.output);
  assert.match(after.output, /retry 2 of 4 in 20 ms/);
  const lines = (await renderScreen(after.output)).lines.filter((line) =>
    line !== "" && !/^session: |^hel: warning: hel runs as root/.test(line)
  );
  assert.equal(lines.length, 2, lines.join("\n"));
  assert.equal(lines[0], "made it");
  assert.match(lines[1]!, /^\[usage: 1 model call · /);
});
