import assert from "node:assert/strict";
import { parseHooksConfig } from "./config.ts";
import { summarizeHooks } from "./summary.ts";

const parse = (value: unknown) => {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const parsed = parseHooksConfig(bytes, "/p/.hel/hooks.json");
  if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
  return parsed.config;
};
const handler = (command: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command,
  ...extra,
});

Deno.test("each handler, in the order they run: its shell command and when it runs", () => {
  const summary = summarizeHooks(parse({
    hooks: {
      PostToolUse: [{ hooks: [handler("deno fmt")] }],
      PreToolUse: [
        { matcher: "^bash$", hooks: [handler("./guard.sh", { on_error: "block" })] },
        { matcher: "*", hooks: [handler("echo all")] },
      ],
    },
  }));
  assert.deepEqual(summary.noun, { one: "hook", many: "hooks" });
  const base = { shell: true, envNames: [], sandbox: true };
  assert.deepEqual(summary.entries, [
    {
      ...base,
      label: "PreToolUse hook 1",
      details: '(for tools matching "^bash$", blocks on failure)',
      command: "./guard.sh",
    },
    { ...base, label: "PreToolUse hook 2", details: "(for every tool)", command: "echo all" },
    { ...base, label: "PostToolUse hook 1", details: "(for every tool)", command: "deno fmt" },
  ]);
});

Deno.test('a handler with "sandbox": false is summarised as outside the sandbox', () => {
  const config = parse({ hooks: { PreToolUse: [{ hooks: [handler("x")] }] } });
  config.PreToolUse[0] = Object.assign({}, config.PreToolUse[0]!, { sandbox: false });
  assert.equal(summarizeHooks(config).entries[0]!.sandbox, false);
});
