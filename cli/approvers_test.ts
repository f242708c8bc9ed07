import assert from "node:assert/strict";
import { terminalApprover } from "./approvers.ts";

Deno.test("the terminal question names the rule that made hel ask", async () => {
  const questions: string[] = [];
  const approver = terminalApprover((question) => {
    questions.push(question);
    return Promise.resolve("y");
  });
  const request = {
    toolName: "bash",
    args: { command: "git push" },
    preview: { kind: "command" as const, command: "git push", cwd: "/p" },
    scope: undefined,
  };
  const source = ".hel/settings.jsonc";
  assert.deepEqual(await approver.approve(request), { approval: "approved" });
  await approver.approve({
    ...request,
    byRule: { effect: "ask", rules: [{ rule: "bash(git push:*)", source }] },
  });
  await approver.approve({
    ...request,
    byRule: { effect: "ask", rules: [{ rule: "bash(rm:*)", source }], uncertain: true },
  });
  assert.deepEqual(questions, [
    'permission: bash {"command":"git push"}\nAllow this call once? [y/N] ',
    'permission: bash {"command":"git push"}\n(asked because of the rule bash(git push:*) in ' +
    ".hel/settings.jsonc)\nAllow this call once? [y/N] ",
    'permission: bash {"command":"git push"}\n(hel cannot tell whether the deny rule bash(rm:*) ' +
    "in .hel/settings.jsonc covers it)\nAllow this call once? [y/N] ",
  ]);
});
