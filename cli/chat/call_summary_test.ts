import assert from "node:assert/strict";
import { callSummary } from "./call_summary.ts";

Deno.test("a call reads as what it acts on", () => {
  assert.equal(callSummary("bash", { command: "npm test" }), "npm test");
  assert.equal(callSummary("read_file", { path: "src/a.ts" }), "src/a.ts");
  assert.equal(callSummary("read_file", { path: "src/a.ts", start_line: 40 }), "src/a.ts:40");
  assert.equal(callSummary("read_file", { cursor: "c1" }), "(more)");
  assert.equal(
    callSummary("write_file", { path: "notes.md", content: "x".repeat(9000) }),
    "notes.md",
  );
  assert.equal(
    callSummary("search_replace", { path: "a.ts", search: "old", replace: "new" }),
    "a.ts",
  );
  assert.equal(
    callSummary("grep", { pattern: "TODO", path: "src", include: "*.ts" }),
    "TODO in src (*.ts)",
  );
  assert.equal(callSummary("glob", { pattern: "**/*.json" }), "**/*.json");
  assert.equal(
    callSummary("load_mcp_tool", { names: ["mcp__a__b", "mcp__a__c"] }),
    "mcp__a__b, mcp__a__c",
  );
});

Deno.test("a tool hel does not know reads as its arguments", () => {
  assert.equal(
    callSummary("mcp__docs__search", { query: "ink", limit: 3 }),
    '{"query":"ink","limit":3}',
  );
  assert.equal(callSummary("mcp__docs__list", {}), "");
  assert.equal(callSummary("bash", { cmd: "ls" }), '{"cmd":"ls"}');
});

Deno.test("a summary stays on one line and shows no control character raw", () => {
  assert.equal(callSummary("bash", { command: "cd src\nnpm test\n" }), "cd src ↵ npm test");
  assert.equal(
    callSummary("bash", { command: "printf '\x1b[2J'\tdone" }),
    "printf '\\u001b[2J' done",
  );
  assert.equal(callSummary("bash", { command: "echo a\u202eb" }), "echo a\\u202eb");
});

Deno.test("a summary wider than asked is cut with an ellipsis", () => {
  assert.equal(callSummary("bash", { command: "echo 0123456789" }, 10), "echo 0123…");
  assert.equal(callSummary("bash", { command: "echo 漢字漢字漢字" }, 10), "echo 漢字…");
  assert.equal(callSummary("bash", { command: "x".repeat(500) }).length, 200);
});
