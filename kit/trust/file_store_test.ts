import assert from "node:assert/strict";
import { createTrustFileStore, sha256Hex } from "./file_store.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

async function tempDirs() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-trust-" }));
  const home = `${root}/hel-home`;
  const project = `${root}/project`;
  await Deno.mkdir(`${project}/.hel`, { recursive: true });
  return {
    root,
    home,
    project,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test("a recorded config is trusted for exactly its kind, project and bytes", async () => {
  await using dirs = await tempDirs();
  const store = createTrustFileStore(dirs.home, (m) => assert.fail(m));
  const config = bytes('{"hooks": {}}\n');
  assert.equal(await store.isTrusted("hooks", dirs.project, config), false);
  await store.record("hooks", dirs.project, config);
  assert.equal(await store.isTrusted("hooks", dirs.project, config), true);
  assert.equal(await store.isTrusted("mcp", dirs.project, config), false, "other kind");
  assert.equal(await store.isTrusted("hooks", `${dirs.root}/copy`, config), false, "other path");
  assert.equal(
    await store.isTrusted("hooks", dirs.project, bytes('{"hooks": {}}\n\n')),
    false,
    "one added byte",
  );
});

Deno.test("the store file is mode 0600 in $HEL_HOME and no temp file is left", async () => {
  await using dirs = await tempDirs();
  const store = createTrustFileStore(dirs.home, (m) => assert.fail(m));
  await store.record("hooks", dirs.project, bytes("a"));
  const info = await Deno.stat(`${dirs.home}/trust.json`);
  assert.equal(info.mode! & 0o777, 0o600);
  const names = [...Deno.readDirSync(dirs.home)].map((entry) => entry.name).sort();
  assert.deepEqual(names, ["trust.json", "trust.lock"]);
});

Deno.test("recording again replaces the record instead of adding one; revoke removes it", async () => {
  await using dirs = await tempDirs();
  const store = createTrustFileStore(dirs.home, (m) => assert.fail(m));
  await store.record("hooks", dirs.project, bytes("first"));
  await store.record("mcp", dirs.project, bytes("servers"));
  await store.record("hooks", dirs.project, bytes("second"));
  const records = await store.list();
  assert.equal(records.length, 2);
  const hooks = records.filter((r) => r.kind === "hooks");
  assert.equal(hooks.length, 1);
  assert.equal(hooks[0]!.sha256, await sha256Hex(bytes("second")));
  assert.equal(await store.isTrusted("hooks", dirs.project, bytes("first")), false);

  assert.equal(await store.revoke("hooks", dirs.project), true);
  assert.equal(await store.revoke("hooks", dirs.project), false);
  assert.equal(await store.isTrusted("hooks", dirs.project, bytes("second")), false);
  assert.equal(await store.isTrusted("mcp", dirs.project, bytes("servers")), true, "mcp kept");
});

Deno.test("a damaged store is reported and trusts nothing", async () => {
  await using dirs = await tempDirs();
  const config = bytes("x");
  const valid = {
    version: 1,
    records: [{
      kind: "hooks",
      project: dirs.project,
      sha256: await sha256Hex(config),
      trustedAt: "2026-01-01T00:00:00.000Z",
    }],
  };
  const damaged = [
    JSON.stringify(valid).slice(0, 40), // truncated
    "not json at all",
    JSON.stringify({ ...valid, version: 2 }),
    JSON.stringify({ version: 1, records: "everything" }),
  ];
  for (const text of damaged) {
    await Deno.mkdir(dirs.home, { recursive: true });
    await Deno.writeTextFile(`${dirs.home}/trust.json`, text);
    const warnings: string[] = [];
    const store = createTrustFileStore(dirs.home, (m) => warnings.push(m));
    assert.equal(await store.isTrusted("hooks", dirs.project, config), false, text);
    assert.equal(warnings.length, 1, text);
    assert.match(warnings[0]!, /trust\.json.*nothing is trusted/);
  }
});

Deno.test("trusting again over a damaged store keeps the damaged file beside the new one", async () => {
  await using dirs = await tempDirs();
  await Deno.mkdir(dirs.home, { recursive: true });
  // A hand edit gone wrong: the other approvals are still there for the user to recover.
  const damaged = '{"version": 1, "records": [{"kind": "mcp", "project": "/elsewhere",}';
  await Deno.writeTextFile(`${dirs.home}/trust.json`, damaged);
  const warnings: string[] = [];
  const store = createTrustFileStore(dirs.home, (m) => warnings.push(m));
  assert.equal(await store.revoke("hooks", dirs.project), false);
  assert.equal(await Deno.readTextFile(`${dirs.home}/trust.json`), damaged, "revoke changed it");
  await store.record("hooks", dirs.project, bytes("x"));
  assert.equal(await store.isTrusted("hooks", dirs.project, bytes("x")), true);
  const kept = [...Deno.readDirSync(dirs.home)].map((e) => e.name)
    .filter((name) => name.startsWith("trust.json.damaged-"));
  assert.equal(kept.length, 1);
  assert.equal(await Deno.readTextFile(`${dirs.home}/${kept[0]}`), damaged);
  assert.match(warnings.at(-1)!, new RegExp(`damaged trust store was kept as .*${kept[0]}`));
});

Deno.test("a store that cannot be read (a directory in its place) trusts nothing", async () => {
  await using dirs = await tempDirs();
  await Deno.mkdir(`${dirs.home}/trust.json`, { recursive: true });
  const warnings: string[] = [];
  const store = createTrustFileStore(dirs.home, (m) => warnings.push(m));
  assert.equal(await store.isTrusted("hooks", dirs.project, bytes("x")), false);
  assert.match(warnings.join("\n"), /nothing is trusted/);
});

Deno.test("a trust record planted inside the project is ignored", async () => {
  await using dirs = await tempDirs();
  const config = bytes('{"hooks": {}}');
  const planted = JSON.stringify({
    version: 1,
    records: [{
      kind: "hooks",
      project: dirs.project,
      sha256: await sha256Hex(config),
      trustedAt: "2026-01-01T00:00:00.000Z",
    }],
  });
  // Every place a repository could ship an approval from: none of them is the store.
  await Deno.writeTextFile(`${dirs.project}/.hel/trust.json`, planted);
  await Deno.writeTextFile(`${dirs.project}/trust.json`, planted);
  await Deno.writeTextFile(
    `${dirs.project}/.hel/hooks-trust.json`,
    JSON.stringify({
      schema_version: 1,
      project: dirs.project,
      sha256: await sha256Hex(config),
    }),
  );
  const store = createTrustFileStore(dirs.home, (m) => assert.fail(m));
  assert.equal(await store.isTrusted("hooks", dirs.project, config), false);
  assert.deepEqual(await store.list(), []);
});

Deno.test("records made at the same time by several writers are all kept", async () => {
  const home = await Deno.makeTempDir();
  try {
    // Separate store objects, like separate hel processes sharing one $HEL_HOME.
    const writers = Array.from({ length: 8 }, () => createTrustFileStore(home, () => {}));
    await Promise.all(
      writers.map((store, i) => store.record("mcp", `/project-${i}`, new Uint8Array([i]))),
    );
    const records = await createTrustFileStore(home, () => {}).list();
    assert.deepEqual(records.map((r) => r.project).sort(), writers.map((_, i) => `/project-${i}`));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a symlinked store trusts nothing, even when it points at valid approvals", async () => {
  await using dirs = await tempDirs();
  const config = bytes("x");
  // Approvals shipped in a repository, with the user's store linked to them.
  const planted = `${dirs.project}/.hel/planted.json`;
  await Deno.writeTextFile(
    planted,
    JSON.stringify({
      version: 1,
      records: [{
        kind: "mcp",
        project: dirs.project,
        sha256: await sha256Hex(config),
        trustedAt: "2026-01-01T00:00:00.000Z",
      }],
    }),
  );
  await Deno.mkdir(dirs.home, { recursive: true });
  await Deno.symlink(planted, `${dirs.home}/trust.json`);
  const warnings: string[] = [];
  const store = createTrustFileStore(dirs.home, (m) => warnings.push(m));
  assert.equal(await store.isTrusted("mcp", dirs.project, config), false);
  assert.match(warnings.join("\n"), /trust\.json is a symbolic link; hel does not follow it/);
});

Deno.test("a store others can write is made 0600 with a warning; its records still count", async () => {
  await using dirs = await tempDirs();
  const store = createTrustFileStore(dirs.home, (m) => assert.fail(m));
  await store.record("mcp", dirs.project, bytes("x"));
  await Deno.chmod(`${dirs.home}/trust.json`, 0o666);
  const warnings: string[] = [];
  const again = createTrustFileStore(dirs.home, (m) => warnings.push(m));
  assert.equal(await again.isTrusted("mcp", dirs.project, bytes("x")), true);
  assert.equal((await Deno.stat(`${dirs.home}/trust.json`)).mode! & 0o777, 0o600);
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0]!,
    /could be written by other users \(mode 0666\); hel made it writable only by you \(mode 0600\)/,
  );
});
