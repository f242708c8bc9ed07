/**
 * Confinement attacks through the real CLI: file tools aimed outside the working directory or
 * into `.hel` (directly, in other letter cases, through symlinks), and bash trying to read
 * `.hel`, write outside, or print the model API key. Each fails with a clear message and
 * nothing outside the working directory changes.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const SECRET = "canary-7f3a";
const API_KEY = "sk-deepseek-must-not-leak-4c1d";

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

/** A project with a secret in `.hel`, a file next to it outside, and symlinks to both. */
async function attackedProject(): Promise<TempProject & { outside: string }> {
  const project = await tempProject({ "ok.txt": "fine\n" });
  const outside = `${project.root}/outside`;
  await Deno.mkdir(outside);
  await Deno.writeTextFile(`${outside}/target.txt`, "outside-original\n");
  // hel creates .hel itself; the secret is planted beside what it will add.
  await Deno.mkdir(`${project.project}/.hel`, { mode: 0o700 });
  await Deno.writeTextFile(`${project.project}/.hel/secret.txt`, `${SECRET}\n`);
  await Deno.symlink(".hel", `${project.project}/hel-dir`);
  await Deno.symlink(".hel/secret.txt", `${project.project}/innocent.txt`);
  await Deno.symlink(outside, `${project.project}/out`);
  return Object.assign(project, { outside });
}

async function assertOutsideUntouched(project: TempProject & { outside: string }) {
  assert.deepEqual([...Deno.readDirSync(project.outside)].map((e) => e.name), ["target.txt"]);
  assert.equal(await Deno.readTextFile(`${project.outside}/target.txt`), "outside-original\n");
  assert.equal(await project.read(".hel/secret.txt"), `${SECRET}\n`);
  await assert.rejects(Deno.stat(`${project.project}/.hel/hooks.json`));
  await assert.rejects(Deno.stat(`${project.project}/.HEL`));
}

Deno.test("file tools refuse escapes, .hel in any case, and symlinks out or into .hel", async () => {
  await using project = await attackedProject();
  const attacks: [string, Record<string, unknown>, RegExp][] = [
    ["read_file", { path: "../outside/target.txt" }, /is outside the working directory/],
    ["read_file", { path: `${project.outside}/target.txt` }, /is outside the working directory/],
    ["read_file", { path: "/etc/passwd" }, /is outside the working directory/],
    ["read_file", { path: ".hel/secret.txt" }, /is inside hel's protected \.hel folder/],
    ["read_file", { path: ".HEL/secret.txt" }, /is inside hel's protected \.hel folder/],
    ["read_file", { path: "innocent.txt" }, /symbolic link into hel's protected \.hel/],
    ["read_file", { path: "hel-dir/secret.txt" }, /symbolic link into hel's protected \.hel/],
    ["read_file", { path: "out/target.txt" }, /symbolic link to a location outside/],
    ["write_file", { path: "out/new.txt", content: "x" }, /symbolic link to a location outside/],
    ["write_file", { path: "out/target.txt", content: "x" }, /symbolic link to a location out/],
    ["write_file", { path: "../outside/new.txt", content: "x" }, /is outside the working/],
    ["write_file", { path: ".hel/hooks.json", content: "{}" }, /protected \.hel folder/],
    ["write_file", { path: ".HEL/hooks.json", content: "{}" }, /protected \.hel folder/],
    ["write_file", { path: "hel-dir/hooks.json", content: "{}" }, /into hel's protected/],
    ["search_replace", { path: "innocent.txt", search: SECRET, replace: "x" }, /protected/],
    ["search_replace", { path: "out/target.txt", search: "o", replace: "x" }, /outside/],
    ["grep", { pattern: SECRET, path: "hel-dir" }, /into hel's protected/],
    ["glob", { pattern: "*", path: "../outside" }, /is outside the working directory/],
  ];
  await using model = scriptedModel([
    { toolCalls: attacks.map(([name, args]) => ({ name, arguments: args })) },
    {
      toolCalls: [
        { name: "grep", arguments: { pattern: SECRET } },
        { name: "grep", arguments: { pattern: SECRET, include: ".hel/*" } },
        { name: "glob", arguments: { pattern: "**/secret*" } },
      ],
    },
    { text: "done" },
  ]);
  const sandbox = hasBwrap() ? [] : ["--sandbox", "off"];
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...sandbox, "attack"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(model.remaining(), 0);
  const replies = toolReplies(model.requests.at(-1)!.messages);
  attacks.forEach(([name, args, expected], i) => {
    const reply = replies[i]!;
    const label = `${name} ${JSON.stringify(args)}: ${reply}`;
    assert.match(reply, /^error: /, label);
    assert.match(reply, expected, label);
    assert.ok(!reply.includes(SECRET), label);
    assert.ok(!reply.includes("root:"), label);
    // The target of a symlink that leads outside is never named.
    if (!String(args.path).includes(project.outside)) {
      assert.ok(!reply.includes(project.outside), label);
    }
  });
  assert.deepEqual(replies.slice(attacks.length), [
    "No matches found.",
    "No matches found.",
    "No matches found.",
  ]);
  await assertOutsideUntouched(project);
});

Deno.test({
  name: "bash in the sandbox cannot read .hel, write outside, or see DEEPSEEK_API_KEY",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await attackedProject();
    const stray = `hel-pwned-${crypto.randomUUID()}`;
    const home = Deno.env.get("HOME") ?? "/root";
    const commands = [
      "cat .hel/secret.txt; ls -A .hel | wc -l",
      "cat innocent.txt; cat hel-dir/secret.txt",
      "grep -r canary . ; find -L . -name 'secret*'",
      "python3 -c \"print(open('.hel/secret.txt').read())\"",
      "cp -r .hel /tmp/x && ls /tmp/x",
      `echo pwned > ${project.outside}/target.txt; echo pwned > out/new.txt; ` +
      `echo pwned > ../outside/new2.txt; echo pwned > /var/tmp/${stray}; touch "$HOME/${stray}"`,
      "ln -s .hel/secret.txt again.txt; cat again.txt",
      'echo "key=[$DEEPSEEK_API_KEY][$HEL_API_KEY]"; env | grep -c API_KEY; cat /proc/$PPID/environ | tr "\\0" "\\n" | grep -c API_KEY',
    ];
    await using model = scriptedModel([
      { toolCalls: commands.map((command) => ({ name: "bash", arguments: { command } })) },
      { text: "done" },
    ]);
    const result = await runHelInProcess(
      ["--base-url", model.url, "--access", "auto", "attack"],
      { cwd: project.project, env: { DEEPSEEK_API_KEY: API_KEY } },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(model.remaining(), 0);
    const replies = toolReplies(model.requests.at(-1)!.messages);
    assert.equal(replies.length, commands.length);
    for (const reply of replies) {
      assert.ok(!reply.includes(SECRET), reply);
      assert.ok(!reply.includes(API_KEY), reply);
    }
    assert.match(replies[0]!, /\.hel\/secret\.txt: No such file or directory\n/);
    assert.match(replies[0]!, /^0$/m);
    assert.match(replies[5]!, /target\.txt: (Read-only file system|No such file or directory)/);
    assert.match(replies[5]!, new RegExp(`/var/tmp/${stray}: Read-only file system`));
    assert.match(
      replies[5]!,
      new RegExp(`cannot touch '[^']*${stray}': (Read-only file system|No such file or directory)`),
    );
    await assert.rejects(Deno.stat(`/var/tmp/${stray}`));
    await assert.rejects(Deno.stat(`${home}/${stray}`));
    assert.match(replies[7]!, /^key=\[\]\[\]\n0\n0\n$/m);
    assert.ok(!result.stderr.includes(API_KEY) && !result.stdout.includes(API_KEY));
    await assertOutsideUntouched(project);
  },
});
