import assert from "node:assert/strict";
import type { HelEvent, Host } from "../../core/mod.ts";
import { createTrustFileStore, sha256Hex } from "../../kit/mod.ts";
import { loadTrustedHooks } from "./load.ts";

const ORIGINAL =
  '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "reviewed"}]}]}}';
const SWAPPED =
  '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "swapped"}]}]}}';

async function fakeHost(answer: (question: string) => Promise<string | undefined>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-hooks-load-" }));
  const project = `${root}/project`;
  await Deno.mkdir(`${project}/.hel`, { recursive: true });
  const events: HelEvent[] = [];
  const trust = createTrustFileStore(`${root}/home`, (m) => assert.fail(m));
  const host = {
    project,
    helHome: `${root}/home`,
    flags: {},
    log: { warn: () => {}, info: () => {} },
    interactive: true,
    ask: answer,
    trust,
    childEnv: () => ({}),
    session: { id: "s", dir: `${project}/.hel/sessions/s`, resumed: false },
    access: "auto",
    registerTool: () => {},
    registeredToolNames: () => [],
    spill: () => Promise.resolve(undefined),
    emit: (event: HelEvent) => events.push(event),
    onShutdown: () => {},
    offerFileReading: () => {},
  } satisfies Host;
  return {
    host,
    events,
    project,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test("the reviewed bytes are the bytes used, even if the file changes during the question", async () => {
  let path = "";
  await using fake = await fakeHost(async () => {
    await Deno.writeTextFile(path, SWAPPED); // edited while the user reads
    return "y";
  });
  path = `${fake.project}/.hel/hooks.json`;
  await Deno.writeTextFile(path, ORIGINAL);
  const config = await loadTrustedHooks(fake.host);
  assert.deepEqual(config?.PreToolUse.map((h) => h.command), ["reviewed"]);
  // The record is of what was shown, so the swapped file is not trusted.
  const trust = fake.host.trust;
  assert.equal(
    await trust.isTrusted("hooks", fake.project, new TextEncoder().encode(ORIGINAL)),
    true,
  );
  assert.equal(
    await trust.isTrusted("hooks", fake.project, new TextEncoder().encode(SWAPPED)),
    false,
  );
  const status = fake.events.find((e) => e.type === "trace");
  assert.deepEqual(status?.type === "trace" && status.data, {
    status: "trusted",
    path,
    project: fake.project,
    sha256: await sha256Hex(new TextEncoder().encode(ORIGINAL)),
    handlers: 1,
  });
});

Deno.test("a refusal skips the hooks with a visible warning and a trace", async () => {
  await using fake = await fakeHost(() => Promise.resolve("n"));
  await Deno.writeTextFile(`${fake.project}/.hel/hooks.json`, ORIGINAL);
  assert.equal(await loadTrustedHooks(fake.host), undefined);
  const warning = fake.events.find((e) => e.type === "warning");
  assert.match(warning?.type === "warning" ? warning.text : "", /were not trusted; hooks skipped/);
  const trace = fake.events.find((e) => e.type === "trace");
  assert.equal(trace?.type === "trace" && trace.data.status, "untrusted");
});

Deno.test("no hooks.json: nothing asked, nothing shown", async () => {
  await using fake = await fakeHost(() => assert.fail("must not ask"));
  assert.equal(await loadTrustedHooks(fake.host), undefined);
  assert.deepEqual(fake.events.filter((e) => e.type === "warning"), []);
});
