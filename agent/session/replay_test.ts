/** Unit tests of replaying a journal, and of closing one a crash cut short. */
import assert from "node:assert/strict";
import type { JournalEntry } from "./journal.ts";
import { CRASH_NOTE, INTERRUPTED_RESULT, replayJournal } from "./replay.ts";
import type { ChatMessage } from "../../core/types.ts";

const stamp = { v: 1, t: "2026-01-01T00:00:00Z", n: 0 };
const head: JournalEntry = {
  ...stamp,
  type: "session",
  session_id: "s",
  project: "/p",
  created_at: "2026-01-01T00:00:00Z",
};
const message = (message: ChatMessage): JournalEntry => ({ ...stamp, type: "message", message });
const call = (id: string) => ({
  id,
  type: "function" as const,
  function: { name: "bash", arguments: "{}" },
});
const roles = (messages: ChatMessage[]) => messages.map((m) => `${m.role}:${m.content ?? ""}`);

Deno.test("a cut-short turn: missing results are marked interrupted, then a closing note", () => {
  const state = replayJournal(
    [
      head,
      message({ role: "user", content: "go" }),
      message({ role: "assistant", content: null, tool_calls: [call("a"), call("b"), call("c")] }),
      message({ role: "tool", tool_call_id: "a", content: "A" }),
    ],
    "s",
    "/p",
  );
  assert.deepEqual(roles(state.messages), [
    "user:go",
    "assistant:",
    "tool:A",
    `tool:${INTERRUPTED_RESULT}`,
    `tool:${INTERRUPTED_RESULT}`,
    `assistant:${CRASH_NOTE}`,
  ]);
  assert.deepEqual(state.repairs.map((body) => body.type), ["message", "message", "turn_end"]);
});

Deno.test("a completed conversation needs no repair; checkpoints and plugin state replace", () => {
  const state = replayJournal(
    [
      head,
      message({ role: "user", content: "old" }),
      message({ role: "assistant", content: "old answer" }),
      { ...stamp, type: "plugins", states: { p: 1 } },
      {
        ...stamp,
        type: "checkpoint",
        messages: [{ role: "user", content: "summary" }, { role: "assistant", content: "ok" }],
        retained: 0,
        replaced: 2,
        plugins: { p: 2 },
      },
      message({ role: "user", content: "new" }),
      message({ role: "assistant", content: "new answer" }),
      { ...stamp, type: "turn_end", termination: "completed" },
    ],
    "s",
    "/p",
  );
  assert.deepEqual(roles(state.messages), [
    "user:summary",
    "assistant:ok",
    "user:new",
    "assistant:new answer",
  ]);
  assert.deepEqual(state.plugins, { p: 2 });
  assert.deepEqual(state.repairs, []);
});

Deno.test("another session's or project's journal, an unknown entry or a broken conversation is refused", () => {
  assert.throws(() => replayJournal([head], "other", "/p"), /session_id "s" is not other/);
  assert.throws(() => replayJournal([head], "s", "/q"), /saved for the project at "\/p"/);
  assert.throws(() => replayJournal([], "s", "/p"), /does not start a session/);
  const odd = { ...stamp, type: "mystery" } as unknown as JournalEntry;
  assert.throws(() => replayJournal([head, odd], "s", "/p"), /unknown entry type "mystery"/);
  const orphan = message({ role: "tool", tool_call_id: "x", content: "?" });
  assert.throws(() => replayJournal([head, orphan], "s", "/p"), /no matching call/);
});
