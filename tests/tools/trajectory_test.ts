/**
 * End-to-end: a scripted model reads, edits and greps a small project through the real CLI
 * with the built-in tools; the files and the exact texts the model received are checked.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];

/** The `tool` messages of a request, in order. */
// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

Deno.test("a scripted model reads, fixes and greps a small project", async () => {
  await using project = await tempProject({
    "src/math.ts": "export function add(a: number, b: number) {\n  return a - b;\n}\n",
    "src/main.ts": 'import { add } from "../math.ts";\nconsole.log(add(2, 3));\n',
    "README.md": "# calc\nAdds numbers.\n",
  });
  await using model = scriptedModel([
    { toolCalls: [{ name: "glob", arguments: { pattern: "*.ts" } }] },
    { toolCalls: [{ name: "read_file", arguments: { path: "src/math.ts" } }] },
    {
      toolCalls: [{
        name: "search_replace",
        arguments: { path: "src/math.ts", search: "return a - b;", replace: "return a + b;" },
      }],
    },
    {
      toolCalls: [
        { name: "grep", arguments: { pattern: "a [-+] b", include: "*.ts" } },
        { name: "search_replace", arguments: { path: "src/math.ts", search: "b", replace: "c" } },
        { name: "write_file", arguments: { path: "CHANGES.md", content: "- add() adds\n" } },
        { name: "read_file", arguments: { path: "src/math.ts", start_line: 2, max_lines: 1 } },
      ],
    },
    { text: "Fixed add() to add." },
  ]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "fix add"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Fixed add() to add.\n");
  assert.equal(model.remaining(), 0);

  assert.equal(
    await project.read("src/math.ts"),
    "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  );
  assert.equal(await project.read("CHANGES.md"), "- add() adds\n");

  // Every request offered the six built-in tools.
  for (const request of model.requests) {
    for (const name of ["bash", "read_file", "write_file", "search_replace", "glob", "grep"]) {
      assert.ok(request.toolNames.includes(name), `${name} missing from a request`);
    }
  }
  assert.deepEqual(toolReplies(model.requests.at(-1)!.messages), [
    "src/main.ts\nsrc/math.ts",
    "export function add(a: number, b: number) {\n  return a - b;\n}\n",
    "replaced 1 occurrence in src/math.ts",
    "src/math.ts:2:  return a + b;",
    "error: search string occurs 4 times in src/math.ts; it must occur exactly once. Include " +
    "more of the surrounding lines to make it unique",
    "wrote 13 bytes to CHANGES.md",
    "  return a + b;\n",
  ]);
});
