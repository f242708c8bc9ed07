import assert from "node:assert/strict";
import { render, renderToString } from "ink";
import { PassThrough, Writable } from "node:stream";
import type { ApprovalRequest } from "../../core/permissions.ts";
import { PermissionBox } from "./permission_box.tsx";
import type { PermissionAnswer } from "./permission_keys.ts";
import { SessionRules } from "./session_rules.ts";

/** A bash question; a null prefix is a command that offers no rule. */
const command = (text: string, prefix: string | null = "npm test"): ApprovalRequest => ({
  toolName: "bash",
  args: { command: text },
  preview: { kind: "command", command: text, cwd: "/home/u/project" },
  scope: prefix === null ? undefined : { kind: "command", tool: "bash", prefix },
});

const numbered = (count: number) =>
  Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

function drawn(
  request: ApprovalRequest,
  options: { width?: number; rows?: number; saveFiles?: { user: string; project: string } } = {},
) {
  return renderToString(
    <PermissionBox
      request={request}
      {...(options.saveFiles ? { saveFiles: options.saveFiles } : {})}
      width={options.width ?? 70}
      rows={options.rows ?? 30}
      color={false}
      onAnswer={() => {}}
    />,
    { columns: 100 },
  );
}

/** The box's rows without the border, trailing blanks trimmed. */
const inside = (screen: string) =>
  screen.split("\n").slice(1, -1).map((row) => row.slice(2, -1).trimEnd());

Deno.test("a command question shows the tool, the command, its folder and three choices", () => {
  assert.deepEqual(inside(drawn(command("npm test -- --watch\necho done"))), [
    "bash wants to run a command",
    "in /home/u/project",
    "",
    "$ npm test -- --watch",
    "> echo done",
    "",
    "  1. Yes, once (y)",
    "  2. Yes, and don't ask again this session for bash commands",
    "     starting with `npm test` (a)",
    "  3. No, and tell hel what to do instead (n)",
    "y / a / n, or ↑↓ and Enter · Esc: no",
  ]);
});

Deno.test("a chat that can save rules offers the scope as a rule for the person's or the project's settings", () => {
  const saveFiles = { user: "~/.hel/settings.jsonc", project: ".hel/settings.jsonc" };
  assert.deepEqual(inside(drawn(command("npm test"), { saveFiles })).slice(-9, -1), [
    "  1. Yes, once (y)",
    "  2. Yes, and don't ask again this session for bash commands",
    "     starting with `npm test` (a)",
    "  3. Yes, and always allow bash(npm test:*): save it in",
    "     ~/.hel/settings.jsonc (u)",
    "  4. Yes, and allow it in this project from now on: save it in",
    "     .hel/settings.jsonc (p)",
    "  5. No, and tell hel what to do instead (n)",
  ]);
  assert.equal(
    inside(drawn(command("npm test"), { saveFiles })).at(-1),
    "y / a / u / p / n, or ↑↓ and Enter · Esc: no",
  );
});

Deno.test("a question a rule caused says which rule, and offers no don't-ask-again", () => {
  const source = "/home/u/.hel/settings.jsonc";
  const asked = (uncertain: boolean): ApprovalRequest => ({
    ...command("sudo rm -rf build", null),
    byRule: {
      effect: "ask",
      rules: [{ rule: uncertain ? "bash(rm:*)" : "bash(sudo:*)", source }],
      ...(uncertain ? { uncertain } : {}),
    },
  });
  assert.deepEqual(inside(drawn(asked(false))).slice(0, 4), [
    "bash wants to run a command",
    "in /home/u/project",
    "asked because of the rule bash(sudo:*) in",
    source,
  ]);
  assert.deepEqual(inside(drawn(asked(true))).slice(2, 4), [
    "hel cannot tell whether the deny rule bash(rm:*) in",
    `${source} covers this call, so it asks`,
  ]);
});

Deno.test("a call with no scope offers no 'don't ask again' choice", () => {
  const rows = inside(drawn(command("npm test && rm -rf ~", null)));
  assert.deepEqual(rows.slice(-3), [
    "  1. Yes, once (y)",
    "  2. No, and tell hel what to do instead (n)",
    "y / n, or ↑↓ and Enter · Esc: no",
  ]);
  assert.ok(rows.includes("$ npm test && rm -rf ~"));
});

Deno.test("a search_replace question shows the file and the -/+ lines of its diff", () => {
  const before = numbered(8);
  const rows = inside(drawn({
    toolName: "search_replace",
    args: {},
    preview: { kind: "file_change", path: "src/a.ts", before, after: before.replace("5", "five") },
    scope: { kind: "tool", tool: "search_replace" },
  }));
  assert.deepEqual(rows.slice(0, 12), [
    "search_replace wants to change a file",
    "src/a.ts",
    "",
    "@@ -2,7 +2,7 @@",
    " line 2",
    " line 3",
    " line 4",
    "-line 5",
    "+line five",
    " line 6",
    " line 7",
    " line 8",
  ]);
  assert.ok(rows.includes("  2. Yes, and don't ask again this session for search_replace (a)"));
});

Deno.test("a new file is shown as additions", () => {
  const rows = inside(drawn({
    toolName: "write_file",
    args: {},
    preview: { kind: "file_change", path: "notes.md", before: null, after: "# Notes\n\nhi\n" },
    scope: { kind: "tool", tool: "write_file" },
  }));
  assert.deepEqual(rows.slice(0, 8), [
    "write_file wants to create a file",
    "notes.md",
    "",
    "@@ -0,0 +1,3 @@",
    "+# Notes",
    "+",
    "+hi",
    "",
  ]);
});

Deno.test("an MCP question shows the server, the tool and the arguments pretty-printed", () => {
  const args = { title: "Crash", labels: ["bug"] };
  const rows = inside(drawn({
    toolName: "mcp__github__create_issue",
    args,
    preview: { kind: "arguments", args, server: "github", tool: "create_issue" },
    scope: { kind: "server", server: "github" },
  }));
  assert.deepEqual(rows.slice(0, 10), [
    "mcp__github__create_issue wants to call an MCP tool",
    "MCP server github, tool create_issue",
    "",
    "{",
    '  "title": "Crash",',
    '  "labels": [',
    '    "bug"',
    "  ]",
    "}",
    "",
  ]);
  assert.match(
    rows.join(" ").replace(/ +/g, " "),
    / 2\. Yes, and don't ask again this session for every tool of the MCP server `github` \(a\)/,
  );
});

Deno.test("long content is cut to the rows given, saying how much more there is", () => {
  const screen = drawn({
    toolName: "write_file",
    args: {},
    preview: { kind: "file_change", path: "big.txt", before: null, after: numbered(200) },
    scope: { kind: "tool", tool: "write_file" },
  }, { rows: 20 });
  assert.equal(screen.split("\n").length, 20);
  const rows = inside(screen);
  assert.ok(rows.includes("+line 8"));
  assert.ok(!rows.includes("+line 9"));
  assert.ok(rows.includes("… 192 more lines — press v to see all"), rows.join("\n"));
  assert.equal(rows.at(-1), "y / a / n, or ↑↓ and Enter · Esc: no · v: see all");
});

Deno.test("the model's escape sequences and padding are shown, not obeyed", () => {
  const evil = `echo hi${" ".repeat(5000)}\x1b[2K\x1b[1Arm -rf ~ \u202e`;
  const screen = drawn(command(evil, null));
  assert.equal(screen.includes("\x1b"), false);
  const rows = inside(screen);
  assert.ok(
    rows.includes("$ echo hi [5000 spaces] \\u001b[2K\\u001b[1Arm -rf ~ \\u202e"),
    rows.join("\n"),
  );
});

/** The box rendered live, with keys written to its stdin. */
function live(request: ApprovalRequest, rules?: SessionRules) {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => {},
    unref: () => {},
  });
  let screen = "";
  const stdout = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        screen += String(chunk);
        done();
      },
    }),
    { columns: 80, rows: 40, isTTY: true },
  );
  const answers: PermissionAnswer[] = [];
  const app = render(
    <PermissionBox
      request={request}
      {...(rules ? { rules } : {})}
      width={70}
      rows={24}
      color={false}
      onAnswer={(answer) => answers.push(answer)}
    />,
    // deno-lint-ignore no-explicit-any
    { stdin: stdin as any, stdout: stdout as any, debug: true, exitOnCtrlC: false },
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
  return {
    answers,
    screen: () => screen,
    /** The last frame drawn. */
    lastFrame: () => screen.slice(screen.lastIndexOf("╭")),
    async type(...keys: string[]) {
      await settle();
      for (const key of keys) {
        stdin.write(key);
        await settle();
      }
    },
    [Symbol.dispose]: () => app.unmount(),
  };
}

Deno.test("pressing a answers yes for the session and adds the rule", async () => {
  const rules = new SessionRules();
  using box = live(command("npm test"), rules);
  await box.type("a", "y");
  assert.deepEqual(box.answers, [{ approval: "approved", always: true }]);
  assert.deepEqual(rules.list(), [{ kind: "command", tool: "bash", prefix: "npm test" }]);
});

Deno.test("pressing n then typing sends what to do instead with the no", async () => {
  using box = live(command("npm test"));
  await box.type("n");
  assert.match(box.screen(), /No\. What should hel do instead\?/);
  await box.type("use yarn test", "\r");
  assert.deepEqual(box.answers, [{ approval: "denied", instead: "use yarn test" }]);
});

Deno.test("v shows all of a long command and folds it again", async () => {
  const long = Array.from({ length: 40 }, (_, i) => `echo step ${i + 1}`).join("\n");
  using box = live(command(long, null));
  await box.type();
  assert.doesNotMatch(box.screen(), /echo step 40/);
  await box.type("v");
  assert.match(box.lastFrame(), /echo step 40/);
  assert.match(box.lastFrame(), /v: fold/);
  await box.type("v");
  assert.doesNotMatch(box.lastFrame(), /echo step 40/);
  assert.match(box.lastFrame(), /more lines — press v to see all/);
  assert.deepEqual(box.answers, []);
});
