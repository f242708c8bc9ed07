import assert from "node:assert/strict";
import type { PluginContext } from "../plugin.ts";
import { escapeControlCharacters, reviewTrust } from "./trust_review.ts";
import type { TrustKind, TrustStore } from "./trust_store.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A context with an in-memory store and scripted answers; records what was asked. */
function fakeContext(options: {
  interactive: boolean;
  answers?: (string | undefined)[];
  trusted?: boolean;
  failRecord?: boolean;
}) {
  const questions: string[] = [];
  const warnings: string[] = [];
  const recorded: { kind: TrustKind; project: string; text: string }[] = [];
  const answers = [...(options.answers ?? [])];
  const trust: TrustStore = {
    isTrusted: () => Promise.resolve(options.trusted ?? false),
    record(kind, project, data) {
      if (options.failRecord) return Promise.reject(new Error("disk full"));
      recorded.push({ kind, project, text: new TextDecoder().decode(data) });
      return Promise.resolve();
    },
    revoke: () => Promise.resolve(false),
    list: () => Promise.resolve([]),
  };
  const context: PluginContext = {
    project: "/work/project",
    helHome: "/home/me/.hel",
    flags: {},
    log: { warn: (text) => warnings.push(text), info: () => {} },
    interactive: options.interactive,
    ask(question) {
      questions.push(question);
      return Promise.resolve(answers.shift());
    },
    trust,
    childEnv: () => ({}),
  };
  return { context, questions, warnings, recorded };
}

Deno.test("already trusted bytes are accepted without a question", async () => {
  const fake = fakeContext({ interactive: true, trusted: true });
  assert.equal(
    await reviewTrust(fake.context, "hooks", "/p/.hel/hooks.json", bytes("{}")),
    "trusted",
  );
  assert.deepEqual(fake.questions, []);
});

Deno.test("without a terminal nothing is asked and nothing is trusted", async () => {
  const fake = fakeContext({ interactive: false, answers: ["y"] });
  assert.equal(
    await reviewTrust(fake.context, "mcp", "/p/.hel/mcp.json", bytes("{}")),
    "no-terminal",
  );
  assert.deepEqual(fake.questions, []);
  assert.deepEqual(fake.recorded, []);
});

Deno.test("only y or yes trusts, and records exactly the reviewed bytes", async () => {
  for (const answer of ["y", "Y", "yes", "YES"]) {
    const fake = fakeContext({ interactive: true, answers: [answer] });
    const outcome = await reviewTrust(fake.context, "hooks", "/p/.hel/hooks.json", bytes("A"));
    assert.equal(outcome, "trusted", answer);
    assert.deepEqual(fake.recorded, [{ kind: "hooks", project: "/work/project", text: "A" }]);
  }
  for (const answer of ["", "n", "no", "yeah", "y y", "ok"]) {
    const fake = fakeContext({ interactive: true, answers: [answer] });
    const outcome = await reviewTrust(fake.context, "hooks", "/p/.hel/hooks.json", bytes("A"));
    assert.equal(outcome, "refused", JSON.stringify(answer));
    assert.deepEqual(fake.recorded, []);
  }
  const ended = fakeContext({ interactive: true, answers: [undefined] });
  assert.equal(
    await reviewTrust(ended.context, "hooks", "/p/.hel/hooks.json", bytes("A")),
    "no-terminal",
  );
  assert.deepEqual(ended.recorded, []);
});

Deno.test("the review shows the project, the path and the whole file with controls escaped", async () => {
  const fake = fakeContext({ interactive: true, answers: ["n"] });
  const long = "x".repeat(20_000);
  const file = `{"hooks": {}, "description": "${long}\u001b[2J\u0007 end"}\n`;
  await reviewTrust(fake.context, "hooks", "/p/.hel/hooks.json", bytes(file));
  const question = fake.questions[0]!;
  assert.match(question, /project: \/work\/project\n/);
  assert.match(question, /\/p\/\.hel\/hooks\.json/);
  assert.ok(question.includes(long), "untruncated");
  assert.ok(question.includes("\\u001b[2J\\u0007 end"), "escaped controls");
  assert.ok(!question.includes("\u001b") && !question.includes("\u0007"), "no raw controls");
  assert.ok(question.endsWith("Trust this project's hook configuration? [y/N] "));
  const mcp = fakeContext({ interactive: true, answers: ["n"] });
  await reviewTrust(mcp.context, "mcp", "/p/.hel/mcp.json", bytes("{}"));
  assert.ok(mcp.questions[0]!.endsWith("Trust this project's MCP configuration? [y/N] "));
});

Deno.test("control characters in the project path are escaped too", async () => {
  const fake = fakeContext({ interactive: true, answers: ["n"] });
  const context = { ...fake.context, project: "/tmp/evil\u001b[2J\ndir" };
  await reviewTrust(context, "hooks", "/tmp/evil\u001b[2J\ndir/.hel/hooks.json", bytes("{}"));
  const question = fake.questions[0]!;
  assert.ok(!question.includes("\u001b"), question);
  assert.match(question, /project: \/tmp\/evil\\u001b\[2J\\ndir\n/);
});

Deno.test("a record that cannot be saved is a warning; the approval holds for this run", async () => {
  const fake = fakeContext({ interactive: true, answers: ["yes"], failRecord: true });
  assert.equal(
    await reviewTrust(fake.context, "hooks", "/p/.hel/hooks.json", bytes("A")),
    "trusted",
  );
  assert.match(fake.warnings.join("\n"), /could not save the trust record \(disk full\)/);
});

Deno.test("escapeControlCharacters keeps newlines and tabs, escapes C0, DEL and C1", () => {
  assert.equal(escapeControlCharacters("a\tb\nc"), "a\tb\nc");
  assert.equal(escapeControlCharacters("\u001b]0;x\u0007"), "\\u001b]0;x\\u0007");
  assert.equal(escapeControlCharacters("\r\u007f\u009b"), "\\u000d\\u007f\\u009b");
});
