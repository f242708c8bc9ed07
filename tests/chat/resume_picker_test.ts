/**
 * `hel --resume` without an id on a terminal: a list of the project's sessions with the columns
 * of `hel sessions`, newest first, drawn on a real pseudo-terminal and read off a terminal
 * emulator; ↓ and Enter continue the chosen one in the chat, Esc gives up.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";
import { runHelInProcess } from "../_run.ts";
import { ageSession } from "../_journal.ts";

const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;

Deno.test("hel --resume on a terminal lists the sessions as hel sessions does; ↓ Enter continues the chosen one", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([
    { text: "older answer" },
    { text: "newer answer" },
    { text: "continued" },
  ]);
  const args = ["--base-url", model.url, "--model", "m"];
  const older = sessionOf((await runHelInProcess([...args, "the \x1b[2Jolder task"], at)).stderr);
  await ageSession(project.project, older, 3);
  const newer = sessionOf((await runHelInProcess([...args, "the newer task"], at)).stderr);

  const chat = await startChat(project, [...args, "--resume"], { ready: "FIRST PROMPT" });
  await chat.waitFor("the newer task");
  const screen = await chat.screen();
  const header = screen.findIndex((row) => row.includes("FIRST PROMPT"));
  assert.match(screen[header - 1]!, /Resume which session\?/);
  assert.match(screen[header]!, /^│ {3}ID {8}AGE {7}TURNS {2}MODEL {2}FIRST PROMPT +│$/);
  assert.match(
    screen[header + 1]!,
    new RegExp(`^│ ❯ ${newer.slice(0, 8)}  just now      1  m      the newer task +│$`),
  );
  // The older prompt's escape sequence is shown as text, not obeyed.
  assert.match(
    screen[header + 2]!,
    new RegExp(
      `^│   ${older.slice(0, 8)}  3 h ago       1  m      the \\\\u001b\\[2Jolder task +│$`,
    ),
  );

  await chat.press("\x1b[B"); // ↓
  await chat.waitFor(`❯ ${older.slice(0, 8)}`);
  await chat.press("\r");
  await chat.waitFor("older answer"); // the chosen conversation, shown before the input box
  assert.doesNotMatch((await chat.screen()).join("\n"), /FIRST PROMPT/);
  await chat.send("go on");
  await chat.waitFor("continued");
  const sent = model.requests[2]!.messages.map((m: { content: string }) => m.content);
  assert.deepEqual(sent.slice(1), ["the \x1b[2Jolder task", "older answer", "go on"]);
  await chat.press("\x04"); // Ctrl-D
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.match(output, new RegExp(`hel --resume ${older}`));
});

Deno.test("Esc in the --resume picker runs nothing; a chat that never got an answer saves no session", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "saved" }, { fail: 401 }]);
  const args = ["--base-url", model.url, "--model", "m"];
  await runHelInProcess([...args, "a task"], { cwd: project.project });

  const picker = await startChat(project, [...args, "--resume"], { ready: "FIRST PROMPT" });
  await picker.waitFor("a task");
  await picker.press("\x1b"); // Esc
  const cancelled = await picker.finish();
  assert.equal(cancelled.code, 0, cancelled.output);
  assert.match(cancelled.output, /no session chosen; nothing was run/);
  assert.equal(model.requests.length, 1);

  const chat = await startChat(project, args);
  await chat.send("hello");
  await chat.waitFor("401");
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.match(output, /no session saved: the model never answered/);
  const sessions = await Array.fromAsync(Deno.readDir(`${project.project}/.hel/sessions`));
  assert.equal(sessions.length, 1);
});

Deno.test("where Ink cannot draw (TERM=dumb) hel --resume numbers the sessions under the same header", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "first answer" }, { text: "second answer" }]);
  const args = ["--base-url", model.url, "--model", "m"];
  const id = sessionOf(
    (await runHelInProcess([...args, "a task"], { cwd: project.project })).stderr,
  );

  const chat = await startChat(project, [...args, "--resume"], {
    env: { TERM: "dumb" },
    ready: "number (Enter to cancel)",
  });
  const screen = (await chat.screen()).join("\n");
  assert.match(
    screen,
    new RegExp(
      `Resume which session\\?\\n {5}ID {8}AGE {7}TURNS {2}MODEL {2}FIRST PROMPT\\n` +
        ` {2}1\\. ${id.slice(0, 8)} {2}just now {6}1 {2}m {6}a task\\n`,
    ),
  );
  await chat.press("1\r");
  await chat.waitFor(`session: ${id}`);
  await chat.press("go on\r");
  await chat.waitFor("second answer");
  assert.equal(model.requests[1]!.messages[1].content, "a task");
  await chat.press("\x04");
  assert.equal((await chat.finish()).code, 0);
});
