/**
 * The home folders inside the sandbox, through the real CLI: a model's bash cannot read the
 * user's keys or `$HEL_HOME`, yet the toolchains in the home folder still run, a project
 * inside the home folder still works, and `--sandbox-read` adds what the user chooses.
 *
 * The home folder is made under /var/tmp: /tmp is private in the sandbox anyway, so a home
 * there would prove nothing.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const KEY = "PRIVATE-KEY-b41c9e";
const TOKEN = "CARGO-TOKEN-77d2"; // cargo's registry token, inside the re-exposed ~/.cargo
const TRUST = "TRUST-STORE-0a5f";

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

/** A home folder with a key, a cargo tool and a project, and a `$HEL_HOME` beside it. */
async function userHome() {
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hel-" }));
  const home = `${root}/home`;
  const files: Record<string, string> = {
    ".ssh/id_ed25519": `${KEY}\n`,
    ".cargo/bin/tool": "#!/bin/sh\necho tool ran\n",
    ".cargo/credentials.toml": `${TOKEN}\n`,
    "notes/todo.txt": "buy milk\n",
    "work/app/a.txt": "project file\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${home}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${home}/${path}`, text, { mode: 0o755 });
  }
  await Deno.mkdir(`${root}/hel-home`);
  await Deno.writeTextFile(`${root}/hel-home/trust-copy.txt`, `${TRUST}\n`);
  const env = {
    HOME: home,
    HEL_HOME: `${root}/hel-home`,
    PATH: `${home}/.cargo/bin:${Deno.env.get("PATH")}`,
    // hel itself runs on deno, whose module cache is in the real home folder.
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
  };
  return {
    root,
    home,
    project: `${home}/work/app`,
    env,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** Runs hel once with these bash commands; returns the replies and every request body. */
async function runCommands(
  user: Awaited<ReturnType<typeof userHome>>,
  commands: string[],
  flags: string[] = [],
) {
  await using model = scriptedModel([
    { toolCalls: commands.map((command) => ({ name: "bash", arguments: { command } })) },
    { text: "done" },
  ]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...flags, "look around"],
    { cwd: user.project, env: user.env },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(model.remaining(), 0);
  return {
    replies: toolReplies(model.requests.at(-1)!.messages),
    sent: JSON.stringify(model.requests),
  };
}

Deno.test({
  name: "in the sandbox the home folder is hidden but for toolchains, and the project works",
  ignore: !hasBwrap(),
  async fn() {
    await using user = await userHome();
    const { replies, sent } = await runCommands(user, [
      "cat ~/.ssh/id_ed25519",
      "tool && ~/.cargo/bin/tool",
      "cat ~/.cargo/credentials.toml",
      `cat ${user.env.HEL_HOME}/trust-copy.txt`,
      "ls -A ~ | tr '\\n' ' '",
      "cat a.txt && echo written > b.txt && cat b.txt",
    ]);
    assert.match(replies[0]!, /^error: exit=1\n.*id_ed25519: No such file or directory/s);
    assert.equal(replies[1], "exit=0\ntool ran\ntool ran\n");
    assert.match(replies[2]!, /^error: exit=1\n.*credentials\.toml: Permission denied/s);
    assert.match(replies[3]!, /^error: exit=1\n.*trust-copy\.txt: No such file or directory/s);
    // Only what was bound back: the toolchain and the way to the project.
    assert.equal(replies[4], "exit=0\n.cargo work ");
    assert.equal(replies[5], "exit=0\nproject file\nwritten\n");
    assert.equal(await Deno.readTextFile(`${user.project}/b.txt`), "written\n");
    for (const secret of [KEY, TOKEN, TRUST]) assert.ok(!sent.includes(secret), secret);
    // Told up front, the model asks the user for a file from home instead of retrying.
    assert.match(sent, /The home folder is hidden except toolchains .*ask the user instead/);
  },
});

Deno.test({
  name: "--sandbox-read lets commands read one more path, and nothing else of the home folder",
  ignore: !hasBwrap(),
  async fn() {
    await using user = await userHome();
    const { replies, sent } = await runCommands(
      user,
      ["cat ~/notes/todo.txt", "cat ~/.ssh/id_ed25519"],
      ["--sandbox-read", "~/notes"],
    );
    assert.equal(replies[0], "exit=0\nbuy milk\n");
    assert.match(replies[1]!, /^error: exit=1\n.*No such file or directory/s);
    assert.ok(!sent.includes(KEY));
  },
});

Deno.test("a --sandbox-read path that is missing or relative is a usage error naming the fix", async () => {
  await using user = await userHome();
  const cases: [string, RegExp][] = [
    ["~/nope", /--sandbox-read ~\/nope: .*\/home\/nope does not exist; check the spelling/],
    ["notes", /--sandbox-read notes: a relative path; give an absolute path or one starting/],
  ];
  for (const [path, message] of cases) {
    const result = await runHelInProcess(["--sandbox-read", path, "hi"], {
      cwd: user.project,
      env: user.env,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
  }
});

Deno.test({
  name: "hel started in the home folder itself works there, and says the home is readable",
  ignore: !hasBwrap(),
  async fn() {
    await using user = await userHome();
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "bash",
          arguments: { command: "cat notes/todo.txt && echo kept > new.txt && tool" },
        }],
      },
      { text: "done" },
    ]);
    const result = await runHelInProcess(
      ["--base-url", model.url, "--access", "auto", "tidy up"],
      { cwd: user.home, env: user.env },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(toolReplies(model.requests.at(-1)!.messages)[0], "exit=0\nbuy milk\ntool ran\n");
    assert.equal(await Deno.readTextFile(`${user.home}/new.txt`), "kept\n");
    assert.match(
      result.stderr,
      /hel: warning: hel runs in your home folder, so the tools can read all of it, ~\/\.ssh/,
    );
  },
});
