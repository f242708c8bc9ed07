/** /clear, /resume and /compact, on a real run with a scripted model and a fake chat. */
import assert from "node:assert/strict";
import { NEVER, startTestRun } from "../../../agent/run_testing.ts";
import { runSlashCommand } from "../slash_commands.ts";
import { compactionText, sessionLabel } from "./session.ts";
import { fakeChat } from "./testing.ts";

Deno.test("/clear continues in a new session, clears the screen and names both sessions", async () => {
  await using t = await startTestRun({ turns: { m: [{ text: "one" }] } });
  await t.run.turn("first task", NEVER);
  const previous = t.run.session.id;
  const chat = fakeChat(t.run);
  await runSlashCommand("/clear", chat.context);
  assert.notEqual(t.run.session.id, previous);
  assert.equal(chat.cleared, 1);
  assert.deepEqual(chat.printed, [
    `new session ${t.run.session.id}; the previous one (${previous}) is saved: /resume returns to it`,
  ]);
  assert.deepEqual(t.run.conversation(), []);
});

Deno.test("/resume offers this project's other sessions by first prompt and age, then shows the chosen one", async () => {
  await using t = await startTestRun({
    turns: {
      m: [
        { toolCalls: [{ name: "big", arguments: {} }] },
        { text: "the \u001b[31mred\u001b[0m answer" },
        { text: "two" },
      ],
    },
  });
  await t.run.turn("fix the build\nwith details", NEVER);
  const first = t.run.session.id;
  await t.run.newSession();
  await t.run.turn("second task", NEVER);
  const second = t.run.session.id;

  const chat = fakeChat(t.run);
  await runSlashCommand("/resume", chat.context);
  assert.deepEqual(chat.picks, [{
    title: "Resume which session?",
    labels: ["fix the build … · just now"],
  }]);
  assert.equal(t.run.session.id, first);
  const screen = chat.screen();
  assert.match(screen, /\[user\]\nfix the build\nwith details/);
  // A long tool result shows its first lines; hel sessions show has it all.
  assert.match(screen, /\[tool call_1\]\n(line of text\n){5}… \(\d+ more lines\)\n/);
  assert.ok(screen.length < 5_000, `${screen.length} characters shown`);
  // The model's escape sequence is shown as text, never sent to the terminal.
  assert.match(screen, /the \\u001b\[31mred\\u001b\[0m answer/);
  assert.ok(!screen.includes("\u001b"));
  assert.match(screen, new RegExp(`resumed session ${first}; the conversation goes on from here$`));

  // Cancelling the picker leaves the chat where it is.
  const cancelled = fakeChat(t.run, { choose: () => undefined });
  await runSlashCommand("/resume", cancelled.context);
  assert.equal(t.run.session.id, first);
  assert.deepEqual(cancelled.printed, ["resume cancelled; this session goes on"]);

  // An id resumes that session without a picker; its first 8 characters do too.
  const direct = fakeChat(t.run);
  await runSlashCommand(`/resume ${second}`, direct.context);
  assert.equal(t.run.session.id, second);
  assert.deepEqual(direct.picks, []);
  const short = fakeChat(t.run);
  await runSlashCommand(`/resume ${first.slice(0, 8)}`, short.context);
  assert.equal(t.run.session.id, first);
  assert.match(short.printed.at(-1)!, new RegExp(`^resumed session ${first};`));
});

Deno.test("/clear after a turn without an answer says the session left was not saved", async () => {
  await using t = await startTestRun({ turns: { m: [{ fail: 401 }] } });
  await t.run.turn("first task", NEVER);
  assert.equal(t.run.sessionSaved, false);
  const chat = fakeChat(t.run);
  await runSlashCommand("/clear", chat.context);
  assert.deepEqual(chat.printed, [
    `new session ${t.run.session.id}; the previous one had no answer and was not saved`,
  ]);
  assert.deepEqual(await t.run.savedSessions(), []);
});

Deno.test("/resume with no other session says so", async () => {
  await using t = await startTestRun();
  const chat = fakeChat(t.run);
  await runSlashCommand("/resume", chat.context);
  assert.deepEqual(chat.printed, ["no other saved session in this project to resume"]);
  assert.deepEqual(chat.picks, []);
});

Deno.test("/compact compacts now through the chat's request handling and says what it did", async () => {
  await using t = await startTestRun({
    turns: {
      m: [
        { text: "answer one ".repeat(300) },
        { text: "answer two ".repeat(300) },
        { text: "## Primary Request and Intent\n- the work" },
      ],
    },
  });
  await t.run.turn("question one ".repeat(300), NEVER);
  await t.run.turn("question two ".repeat(300), NEVER);
  const chat = fakeChat(t.run);
  await runSlashCommand("/compact", chat.context);
  assert.equal(chat.requests, 1);
  assert.match(chat.printed[0]!, /^compacted 3 messages into a summary: ~[\d,]+ → ~[\d,]+ tokens$/);
});

Deno.test("what /compact says for a summary, cut results only, and nothing done", () => {
  const base = { messagesBefore: 50, messagesAfter: 3, tokensBefore: 31_000, tokensAfter: 2_100 };
  assert.equal(
    compactionText({ ...base, summarised: 42, pruned: 0 }),
    "compacted 42 messages into a summary: ~31,000 → ~2,100 tokens",
  );
  assert.equal(
    compactionText({ ...base, summarised: 1, pruned: 2 }),
    "compacted 1 message into a summary and 2 old tool results cut to their start and end: " +
      "~31,000 → ~2,100 tokens",
  );
  assert.equal(
    compactionText({ ...base, summarised: 0, pruned: 1, skipped: "the summary was empty" }),
    "1 old tool result cut to their start and end: ~31,000 → ~2,100 tokens; no summary: " +
      "the summary was empty",
  );
  assert.equal(
    compactionText({
      ...base,
      summarised: 0,
      pruned: 0,
      skipped: "nothing old enough to summarise",
    }),
    "not compacted: nothing old enough to summarise",
  );
});

Deno.test("a session's label is its first prompt on one line and its age", () => {
  const now = Date.parse("2026-01-02T12:00:00Z");
  const session = { id: "x", busy: false, updatedAt: "2026-01-02T09:00:00Z", messages: 3 };
  assert.equal(
    sessionLabel({ ...session, firstPrompt: "  fix   the build\u200b" }, now),
    "fix the build\\u200b · 3 h ago",
  );
  assert.equal(
    sessionLabel({ ...session, firstPrompt: "x".repeat(80) }, now),
    `${"x".repeat(59)}… · 3 h ago`,
  );
  assert.equal(sessionLabel(session, now), "(first prompt too long to show) · 3 h ago");
});
