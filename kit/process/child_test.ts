import assert from "node:assert/strict";
import { runChild } from "./child.ts";

const base = {
  program: "/bin/sh",
  cwd: "/",
  env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  captureBytes: 1000,
  drainGraceMs: 1000,
};

Deno.test("runChild: past the capture bound, 'drop' reads on and 'kill' stops the group", async () => {
  const script = "head -c 5000 /dev/zero; echo finished >&2; sleep 300";
  const dropped = await runChild({
    ...base,
    args: ["-c", "head -c 5000 /dev/zero; echo finished >&2"],
    onOverflow: "drop",
  });
  assert.equal(dropped.kind === "finished" && dropped.stdout.length, 1000);
  assert.equal(dropped.kind === "finished" && dropped.stderr, "finished\n");
  assert.deepEqual(dropped.kind === "finished" && [dropped.code, dropped.stops], [0, []]);
  assert.equal(dropped.kind === "finished" && dropped.truncated, true);

  const killed = await runChild({ ...base, args: ["-c", script], onOverflow: "kill" });
  assert.equal(killed.kind, "finished");
  if (killed.kind !== "finished") return;
  assert.deepEqual([killed.code, killed.signal, killed.stops], [null, "SIGKILL", [
    "stdout-overflow",
  ]]);
  assert.equal(killed.stdout.length, 1000);
});

Deno.test("runChild: stdin is fed and closed; an aborted signal starts nothing", async () => {
  const fed = await runChild({ ...base, args: ["-c", "cat"], stdin: "hello", onOverflow: "drop" });
  assert.equal(fed.kind === "finished" && fed.stdout, "hello");
  const controller = new AbortController();
  controller.abort();
  const dir = await Deno.makeTempDir();
  try {
    const aborted = await runChild({
      ...base,
      cwd: dir,
      args: ["-c", "touch started"],
      onOverflow: "drop",
      signal: controller.signal,
    });
    assert.deepEqual(aborted.kind === "finished" && aborted.stops, ["interrupted"]);
    assert.equal(await Deno.lstat(`${dir}/started`).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runChild: onOutput hears each stream as it arrives, characters whole", async () => {
  const heard: { text: string; at: number }[] = [];
  // "é" is two bytes; the pause between them makes two reads of one character.
  const script = "printf 'one\\n'; printf '\\303' >&2; sleep 0.4; printf '\\251\\n' >&2; " +
    "sleep 0.4; printf 'two\\n'";
  const outcome = await runChild({
    ...base,
    args: ["-c", script],
    onOverflow: "drop",
    onOutput: (text) => heard.push({ text, at: Date.now() }),
  });
  const ended = Date.now();
  assert.equal(outcome.kind, "finished");
  if (outcome.kind !== "finished") return;
  assert.deepEqual([outcome.stdout, outcome.stderr], ["one\ntwo\n", "é\n"]);
  assert.deepEqual(heard.map((piece) => piece.text), ["one\n", "é\n", "two\n"]);
  assert.ok(ended - heard[0]!.at >= 500, "the first line came before the program ended");
});

Deno.test("runChild: a throwing onOutput leaves the capture whole", async () => {
  const outcome = await runChild({
    ...base,
    args: ["-c", "echo a; sleep 0.1; echo b"],
    onOverflow: "drop",
    onOutput: () => {
      throw new Error("watcher broke");
    },
  });
  assert.equal(outcome.kind === "finished" && outcome.stdout, "a\nb\n");
});
