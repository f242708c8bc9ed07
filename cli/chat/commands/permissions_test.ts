/** /permissions: the access level and the session's rules, and removing one. */
import assert from "node:assert/strict";
import type { ApprovalScope } from "../../../core/permissions.ts";
import { startTestRun } from "../../../agent/run_testing.ts";
import { runSlashCommand } from "../slash_commands.ts";
import { fakeChat } from "./testing.ts";

Deno.test("/permissions lists the rules in the question's words and removes one by number", async () => {
  await using t = await startTestRun({ settings: { access: "confirm" } });
  const rules: ApprovalScope[] = [
    { kind: "command", tool: "bash", prefix: "npm test" },
    { kind: "server", server: "git\u001b[8mhub" },
    { kind: "tool", tool: "write_file" },
  ];
  const chat = fakeChat(t.run, { rules });
  await runSlashCommand("/permissions", chat.context);
  assert.equal(
    chat.printed[0],
    [
      "access confirm: writes and commands are asked about, unless a rule below allows them",
      "allowed without asking, this session:",
      "  1. bash commands starting with `npm test`",
      "  2. every tool of the MCP server `git\\u001b[8mhub`",
      "  3. write_file",
      "/permissions remove N removes one",
    ].join("\n"),
  );
  await runSlashCommand("/permissions remove 1", chat.context);
  await runSlashCommand("/permissions remove 7", chat.context);
  await runSlashCommand("/permissions drop all", chat.context);
  assert.deepEqual(chat.printed.slice(1), [
    "removed: bash commands starting with `npm test`; such calls are asked about again",
    "there is no rule 7; /permissions lists them",
    "usage: /permissions, or /permissions remove N (N from the list)",
  ]);
  assert.deepEqual(chat.context.rules.list().map((rule) => rule.kind), ["server", "tool"]);
});

Deno.test("/permissions without rules says how one is added", async () => {
  await using t = await startTestRun({ settings: { access: "auto" } });
  const chat = fakeChat(t.run);
  await runSlashCommand("/permissions", chat.context);
  assert.deepEqual(chat.printed, [
    'access auto: every call runs without asking\nno session rules ("a" at a permission question adds one)',
  ]);
});

Deno.test("/permissions lists the settings files' rules with their files, and the rules saved here", async () => {
  const source = "/home/me/.hel/settings.jsonc";
  await using t = await startTestRun({
    settings: {
      access: "confirm",
      permissions: {
        allow: [{ rule: "bash(npm test:*)", source }],
        ask: [],
        deny: [{ rule: "read_file(.env)", source: ".hel/settings.jsonc" }],
      },
    },
  });
  const chat = fakeChat(t.run);
  chat.context.savedRules = () => [
    { rule: "write_file", place: "project", shown: ".hel/settings.jsonc" },
  ];
  await runSlashCommand("/permissions", chat.context);
  assert.equal(
    chat.printed[0],
    [
      "access confirm: writes and commands are asked about, unless a rule below allows them",
      "rules from the settings files:",
      "  deny   read_file(.env)  (.hel/settings.jsonc)",
      `  allow  bash(npm test:*)  (${source})`,
      "saved from this chat's questions (later runs follow them):",
      "  write_file in .hel/settings.jsonc",
      'no session rules ("a" at a permission question adds one)',
    ].join("\n"),
  );
});
