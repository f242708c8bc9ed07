/**
 * Issue 11, class D: files hel writes follow no planted symbolic link. A sandboxed command can
 * leave links in the project, and a cloned repository can ship them in `.hel/`; hel writes
 * its records, session files and trust files around them and says where it found one, and the
 * file a link points to is never touched.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];
const PRECIOUS = "# the user's shell settings\nexport PATH=$HOME/bin:$PATH\n";
const REFUSED = /refused to write (\S+): a symbolic link was found there .*Remove the link/;

/** A file of the user's outside the project, as `~/.bashrc` would be. */
async function victim(project: TempProject): Promise<string> {
  const path = `${project.root}/outside/bashrc`;
  await Deno.mkdir(`${project.root}/outside`, { recursive: true });
  await Deno.writeTextFile(path, PRECIOUS);
  return path;
}

const oneLine = (text: string) => text.replaceAll(/\s*\n\s*/g, " ");

/** Runs one saved conversation turn in `project` and returns the session id. */
async function savedSession(project: TempProject): Promise<string> {
  await using model = scriptedModel([{ text: "hello" }]);
  const run = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "hi"],
    {
      cwd: project.project,
    },
  );
  assert.equal(run.code, 0, run.stderr);
  return run.stderr.match(/^session: (\S+)$/m)![1]!;
}

Deno.test("--record does not write through a raw log a sandboxed command made a link", async () => {
  await using project = await tempProject();
  const bashrc = await victim(project);
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "bash",
        arguments: {
          command: "mkdir -p rec/raw && ln -s ../../../outside/bashrc rec/raw/permissions.jsonl",
        },
      }],
    },
    { text: "done" },
  ]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "--record", "rec/record.json", "go"],
    { cwd: project.project },
  );
  assert.equal(model.remaining(), 0);
  assert.ok(
    (await Deno.lstat(`${project.project}/rec/raw/permissions.jsonl`)).isSymlink,
    "the command did not plant its link",
  );
  assert.equal(await Deno.readTextFile(bashrc), PRECIOUS);
  const stderr = oneLine(result.stderr);
  assert.match(stderr, /hel: cannot write the run record rec\/record\.json: refused to write/);
  assert.equal(
    stderr.match(REFUSED)?.[1],
    `${project.project}/rec/raw/permissions.jsonl`,
    result.stderr,
  );
  assert.match(stderr, /\(to \.\.\/\.\.\/\.\.\/outside\/bashrc\)/);
  // record.json is written last, so its absence says the logs are incomplete.
  await assert.rejects(Deno.lstat(`${project.project}/rec/record.json`), Deno.errors.NotFound);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "done\n", "the run itself completed");
});

Deno.test("--resume does not empty a file a cloned session's lock file links to", async () => {
  await using project = await tempProject();
  const bashrc = await victim(project);
  const id = await savedSession(project);
  const active = `${project.project}/.hel/sessions/${id}/.active`;
  await Deno.remove(active);
  await Deno.symlink(bashrc, active);
  await using model = scriptedModel([{ text: "again" }]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "--resume", id, "-i", "go"],
    { cwd: project.project },
  );
  assert.equal(await Deno.readTextFile(bashrc), PRECIOUS);
  assert.equal(result.code, 2, result.stderr);
  const stderr = oneLine(result.stderr);
  assert.match(stderr, /^hel: session lock: refused to write/m);
  assert.equal(stderr.match(REFUSED)?.[1], active);
  assert.equal(model.requests.length, 0, "nothing was asked of the model");
});

Deno.test("a spill folder a cloned session links elsewhere receives no spilled result", async () => {
  await using project = await tempProject();
  const id = await savedSession(project);
  const elsewhere = `${project.root}/outside/spills`;
  await Deno.mkdir(elsewhere, { recursive: true });
  const spill = `${project.project}/.hel/sessions/${id}/spill`;
  await Deno.symlink(elsewhere, spill);
  await using model = scriptedModel([
    { toolCalls: [{ name: "bash", arguments: { command: "seq 1 20000" } }] },
    { text: "counted" },
  ]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "--resume", id, "-i", "count"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(elsewhere)), []);
  const stderr = oneLine(result.stderr);
  assert.match(stderr, /a large tool result was not saved to a file: refused to write/);
  assert.equal(stderr.match(REFUSED)?.[1], spill);
  // The model got the whole result instead, as with any spill that cannot be saved.
  const reply = model.requests.at(-1)!.messages.at(-1)!.content as string;
  assert.ok(reply.endsWith("19999\n20000\n"), reply.slice(-100));
  assert.doesNotMatch(reply, /Result too large/);
});

Deno.test("hel trust creates no file through a link planted as the trust store's lock", async () => {
  await using project = await tempProject({ ".hel/hooks.json": '{ "hooks": {} }\n' });
  const home = `${project.root}/hel-home`;
  const planted = `${project.root}/outside/created-by-hel`;
  await Deno.mkdir(`${project.root}/outside`);
  await Deno.symlink(planted, `${home}/trust.lock`);
  const bytes = await Deno.readFile(`${project.project}/.hel/hooks.json`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  const result = await runHelInProcess(["trust", "hooks", "--sha256", hex], {
    cwd: project.project,
    env: { HEL_HOME: home },
  });
  await assert.rejects(Deno.lstat(planted), Deno.errors.NotFound);
  assert.notEqual(result.code, 0, result.stderr);
  assert.match(result.stderr, /^hel: could not save the trust record: refused to write/m);
  assert.equal(oneLine(result.stderr).match(REFUSED)?.[1], `${home}/trust.lock`, result.stderr);
  await assert.rejects(Deno.lstat(`${home}/trust.json`), Deno.errors.NotFound);
});
