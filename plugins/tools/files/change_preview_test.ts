import assert from "node:assert/strict";
import type { Tool } from "../../../core/mod.ts";
import { testWorkspace } from "../testing.ts";
import { searchReplaceTool } from "./search_replace.ts";
import { writeFileTool } from "./write_file.ts";

/** The description the permission question gets, from arguments checked as the path checks them. */
function describe(tool: Tool, args: Record<string, unknown>) {
  const checked = tool.checkArguments!(args);
  assert.ok(checked.ok);
  return tool.describeCall!(checked.args);
}

Deno.test("write_file shows a new file as its content and an existing one as before and after", async () => {
  await using t = await testWorkspace({ "src/old.ts": "const a = 1;\n" });
  const tool = writeFileTool(t.workspace);
  assert.deepEqual(await describe(tool, { path: "src/new.ts", content: "hello\n" }), {
    preview: { kind: "file_change", path: "src/new.ts", before: null, after: "hello\n" },
    scope: { kind: "tool", tool: "write_file" },
  });
  assert.deepEqual(await describe(tool, { path: "./src/../src/old.ts", content: "b\n" }), {
    preview: { kind: "file_change", path: "src/old.ts", before: "const a = 1;\n", after: "b\n" },
    scope: { kind: "tool", tool: "write_file" },
  });
  // Describing writes nothing.
  assert.equal(await t.read("src/old.ts"), "const a = 1;\n");
  await assert.rejects(Deno.stat(`${t.project}/src/new.ts`), Deno.errors.NotFound);
});

Deno.test("write_file names the file a link leads to, not the link", async () => {
  await using t = await testWorkspace({ "AGENTS.md": "rules\n" });
  await Deno.symlink("AGENTS.md", `${t.project}/CLAUDE.md`);
  const described = await describe(writeFileTool(t.workspace), {
    path: "CLAUDE.md",
    content: "new rules\n",
  });
  assert.deepEqual(described.preview, {
    kind: "file_change",
    path: "AGENTS.md",
    before: "rules\n",
    after: "new rules\n",
  });
});

Deno.test("a preview never reads what the file tools may not: .hel, outside, links and hard links", async () => {
  await using t = await testWorkspace({ "a.txt": "x" });
  await Deno.symlink(".hel/secret.txt", `${t.project}/to-hel`);
  await Deno.symlink(`${t.outside}/outside.txt`, `${t.project}/to-outside`);
  await Deno.link(`${t.project}/.hel/secret.txt`, `${t.project}/hard-link`);
  const tools = [writeFileTool(t.workspace), searchReplaceTool(t.workspace)];
  for (
    const path of [".hel/secret.txt", "to-hel", "to-outside", "hard-link", "../outside/outside.txt"]
  ) {
    for (const tool of tools) {
      const args = tool.name === "write_file"
        ? { path, content: "y" }
        : { path, search: "a", replace: "b" };
      const described = await describe(tool, args);
      assert.deepEqual(described, {
        preview: { kind: "arguments", args },
        scope: { kind: "tool", tool: tool.name },
      }, `${tool.name} ${path}`);
    }
  }
  assert.equal(await t.read(".hel/secret.txt"), "canary-secret\n");
  assert.equal(await t.read(`${t.outside}/outside.txt`), "outside-data\n");
});

Deno.test("search_replace shows the file before and after its one replacement, and writes nothing", async () => {
  await using t = await testWorkspace({ "a.ts": "const x = 1;\nconst y = 2;\n" });
  const tool = searchReplaceTool(t.workspace);
  assert.deepEqual(await describe(tool, { path: "a.ts", search: "y = 2", replace: "y = $&" }), {
    preview: {
      kind: "file_change",
      path: "a.ts",
      before: "const x = 1;\nconst y = 2;\n",
      after: "const x = 1;\nconst y = $&;\n",
    },
    scope: { kind: "tool", tool: "search_replace" },
  });
  assert.equal(await t.read("a.ts"), "const x = 1;\nconst y = 2;\n");
});

Deno.test("search_replace shows the arguments of a call that will fail", async () => {
  await using t = await testWorkspace({ "a.txt": "aa aa\n", "bin.dat": "" });
  await t.write("bin.dat", new Uint8Array([0xff, 0xfe, 0x00]));
  const tool = searchReplaceTool(t.workspace);
  for (
    const args of [
      { path: "a.txt", search: "zzz", replace: "q" },
      { path: "a.txt", search: "aa", replace: "q" },
      { path: "missing.txt", search: "a", replace: "q" },
      { path: "bin.dat", search: "a", replace: "q" },
    ]
  ) {
    assert.deepEqual((await describe(tool, args)).preview, { kind: "arguments", args });
  }
});
