/**
 * Path tricks against the file tools through the real CLI (reliability catalogue §7 (c), C1,
 * C2, C4): names that only look like escapes, URLs and `~`, device and `/proc` aliases, a FIFO,
 * over-long paths and link chains. Each gets a clear error, none blocks, nothing is written.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];

Deno.test("odd paths get clear errors, special files are refused, and nothing blocks", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n", "sub/b.txt": "beta\n" });
  const w = project.project;
  await Deno.mkdir(`${w}-evil`);
  await Deno.writeTextFile(`${w}-evil/x`, "evil\n");
  const fifo = new Deno.Command("mkfifo", { args: [`${w}/pipe`] }).outputSync();
  assert.ok(fifo.success);
  let previous = "a.txt";
  for (let i = 0; i < 41; i++) {
    await Deno.symlink(previous, `${w}/chain${i}`);
    previous = `chain${i}`;
  }
  const long = "x".repeat(10_000);
  const outside = new RegExp(
    `refused because it (is|resolves through a symbolic link to a ` +
      `location) outside the working directory ${w}; `,
  );
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ["dots", "read_file", { path: "%2e%2e/a.txt" }, /^error: %2e%2e\/a\.txt: no such file/],
    ["backslash", "read_file", { path: "..\\a.txt" }, /^error: \.\.\\a\.txt: no such file/],
    ["tilde", "read_file", { path: "~/.ssh/id_rsa" }, /^error: ~\/\.ssh\/id_rsa: no such file/],
    ["url", "read_file", { path: "file:///etc/passwd" }, /^error: file:\/\/\/etc\/passwd: no such/],
    ["stdin", "read_file", { path: "/dev/stdin" }, outside],
    ["proc", "read_file", { path: "/proc/self/root/etc/passwd" }, outside],
    ["prefix", "read_file", { path: `${w}-evil/x` }, outside],
    ["prefix_up", "read_file", { path: `${w}/../project-evil/x` }, outside],
    ["fifo_read", "read_file", { path: "pipe" }, /^error: pipe is not a regular file/],
    ["fifo_write", "write_file", { path: "pipe", content: "x" }, /^error: pipe is not a regular/],
    [
      "fifo_edit",
      "search_replace",
      { path: "pipe", search: "a", replace: "b" },
      /^error: pipe is not a regular file/,
    ],
    ["chain_ok", "read_file", { path: "chain39" }, /^alpha\n$/],
    [
      "chain_loop",
      "read_file",
      { path: "chain40" },
      /^error: chain40: cannot resolve the path \(ELOOP: too many levels of symbolic links, a /,
    ],
    [
      "long",
      "write_file",
      { path: long, content: "x" },
      /^error: x{200}…x{60} \(a path of 10000 characters\): cannot resolve the path \(ENAMETOOLONG: a name in the path is over 255 bytes or the path over 4,096; use a shorter path\)$/,
    ],
    ["grep_up", "grep", { pattern: "evil", path: `${w}/../project-evil` }, outside],
    ["glob_prefix", "glob", { pattern: "*", path: `${w}-evil` }, outside],
  ];
  await using model = scriptedModel([
    { toolCalls: cases.map(([id, name, args]) => ({ id: `call_${id}`, name, arguments: args })) },
    { text: "done" },
  ]);
  try {
    const run = await runHelInProcess(
      ["--base-url", model.url, "--access", "auto", ...SANDBOX, "go"],
      { cwd: w },
    );
    assert.equal(run.code, 0, run.stderr);
    for (const [id, , , expected] of cases) {
      assert.match(toolMessage(model, `call_${id}`), expected, id);
    }
    assert.equal(await project.read("a.txt"), "alpha\n");
    assert.equal(await Deno.readTextFile(`${w}-evil/x`), "evil\n");
    assert.ok((await Deno.lstat(`${w}/pipe`)).isFifo);
  } finally {
    await Deno.remove(`${w}-evil`, { recursive: true });
  }
});

Deno.test({
  name: "bash in the sandbox cannot hard-link a file from outside the project into it",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject();
    const outside = `${project.root}/outside.txt`;
    await Deno.writeTextFile(outside, "outside\n");
    await using model = scriptedModel([
      {
        toolCalls: [{
          id: "call_ln",
          name: "bash",
          arguments: { command: `ln /etc/passwd p1; ln ${outside} p2` },
        }],
      },
      { text: "done" },
    ]);
    const run = await runHelInProcess(
      ["--base-url", model.url, "--access", "auto", "go"],
      { cwd: project.project },
    );
    assert.equal(run.code, 0, run.stderr);
    const reply = toolMessage(model, "call_ln");
    // The system is another mount (EXDEV); the rest of the machine is not there at all.
    assert.match(
      reply,
      /ln: failed to create hard link 'p1' => '\/etc\/passwd': Invalid cross-device/,
    );
    assert.match(reply, /ln: failed to access '[^']*outside\.txt': No such file or directory/);
    await assert.rejects(Deno.lstat(`${project.project}/p1`));
    await assert.rejects(Deno.lstat(`${project.project}/p2`));
  },
});
