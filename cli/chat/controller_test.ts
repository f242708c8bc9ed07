import assert from "node:assert/strict";
import type { Run } from "../../agent/run.ts";
import type { LoopOutcome } from "../../core/loop.ts";
import type { StreamListeners } from "../../core/model.ts";
import { emptyUsage } from "../../core/usage.ts";
import { ChatController, EXIT_WINDOW_MS } from "./controller.ts";
import { SessionRules } from "./session_rules.ts";
import { ChatStore } from "./store.ts";

/** A run whose turns wait until the test releases them (or they are aborted). */
function heldRun() {
  const sent: string[] = [];
  const pending: (() => void)[] = [];
  const run = {
    session: { id: "s1" },
    usage: emptyUsage(),
    plugins: [],
    turn(text: string, signal: AbortSignal, stream?: StreamListeners): Promise<LoopOutcome> {
      sent.push(text);
      return new Promise((resolve) => {
        const done = () => {
          stream?.onText?.(`answer to ${text}`);
          resolve({ termination: "completed", finalText: `answer to ${text}`, error: null });
        };
        pending.push(done);
        signal.addEventListener("abort", () => {
          resolve({ termination: "interrupted", finalText: null, error: "interrupted" });
        });
      });
    },
    compact: () => Promise.resolve(false),
    chatCommands: () => [],
  } as unknown as Run;
  return { run, sent, release: () => pending.shift()?.() };
}

function setUp(now = () => 0) {
  const held = heldRun();
  const store = new ChatStore({ width: () => 80, color: false });
  let idle = 0;
  const controller = new ChatController({
    run: held.run,
    store,
    rules: new SessionRules(),
    nextSignal: () => new AbortController().signal,
    idle: () => idle++,
    clearScreen: () => {},
    now,
  });
  return { ...held, store, controller, idleCount: () => idle };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const shown = (store: ChatStore) =>
  store.snapshot().transcript.items.map((item) =>
    "text" in item ? `${item.kind}:${item.text}` : item.kind
  );

Deno.test("a message sent during a turn is queued and sent when the turn ends", async () => {
  const { controller, store, sent, release } = setUp();
  controller.submit("first");
  assert.ok(controller.busy);
  controller.submit("second");
  assert.deepEqual(sent, ["first"]);
  assert.ok(shown(store).includes("notice:queued, sent when this answer ends: second"));
  release();
  await tick();
  assert.deepEqual(sent, ["first", "second"]);
  release();
  await controller.settled();
  assert.equal(controller.busy, false);
  assert.deepEqual(shown(store).filter((line) => line.startsWith("answer:")), [
    "answer:answer to first",
    "answer:answer to second",
  ]);
});

Deno.test("Esc interrupts the turn in flight and the transcript says so", async () => {
  const { controller, store, idleCount } = setUp();
  assert.equal(controller.interrupt(), false, "nothing to interrupt");
  controller.submit("long job");
  assert.equal(controller.interrupt(), true);
  await controller.settled();
  assert.deepEqual(shown(store), ["user:long job", "notice:interrupted"]);
  assert.equal(idleCount(), 1);
});

Deno.test("a second Ctrl-C within two seconds leaves, a later one only warns again", async () => {
  let clock = 0;
  const { controller, store } = setUp(() => clock);
  let left = false;
  void controller.exited.then(() => left = true);
  controller.ctrlC();
  assert.equal(store.snapshot().footerNotice, "press Ctrl-C again to exit");
  clock += EXIT_WINDOW_MS + 1;
  controller.ctrlC();
  await tick();
  assert.equal(left, false);
  clock += 500;
  controller.ctrlC();
  await tick();
  assert.equal(left, true);
});

Deno.test("/exit leaves even while a turn runs, and interrupts it", async () => {
  const { controller, sent } = setUp();
  controller.submit("work");
  controller.submit("/exit");
  await controller.exited;
  await controller.settled();
  assert.deepEqual(sent, ["work"]);
});

Deno.test("slash commands are shown and run, unknown ones answered, and paths sent as messages", async () => {
  const { controller, store, sent, release } = setUp();
  controller.submit("/help");
  await controller.settled();
  controller.submit("/nope");
  await controller.settled();
  controller.submit("/usr/bin holds what?");
  release();
  await controller.settled();
  const lines = shown(store);
  assert.equal(lines[0], "user:/help");
  assert.match(lines[1]!, /^notice:Commands:[\s\S]*\/exit/);
  assert.ok(lines.includes("notice:unknown command /nope — /help lists them"), lines.join("|"));
  assert.deepEqual(sent, ["/usr/bin holds what?"], "a path is a message for the model");
});

Deno.test("a command's model request shows the spinner and Esc interrupts it", async () => {
  const { controller, store } = setUp();
  const context = controller.commandContext();
  let aborted = false;
  const request = context.request!((signal) =>
    new Promise<void>((resolve) =>
      signal.addEventListener("abort", () => {
        aborted = true;
        resolve();
      })
    )
  );
  assert.ok(store.snapshot().busy, "the spinner shows");
  assert.equal(controller.interrupt(), true);
  await request;
  assert.ok(aborted);
  assert.equal(store.snapshot().busy, undefined);
});
