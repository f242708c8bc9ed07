import assert from "node:assert/strict";
import { editJsoncFile, editJsoncText } from "./jsonc_edit.ts";

Deno.test("editJsoncText keeps comments and changes only the value asked for", () => {
  const text = '{\n  // the model I use\n  "model": "a",\n  "maxTurns": 5 // enough\n}\n';
  assert.deepEqual(
    editJsoncText(text, ["model"], "b"),
    '{\n  // the model I use\n  "model": "b",\n  "maxTurns": 5 // enough\n}\n',
  );
  const removed = editJsoncText(text, ["maxTurns"], undefined);
  assert.deepEqual(removed.includes("maxTurns"), false);
  assert.deepEqual(removed.includes("// the model I use"), true);
});

Deno.test("editJsoncFile creates the file, appends under the lock, and refuses a broken file", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/home/settings.jsonc`;
  await editJsoncFile(dir, file, ["permissions", "allow"], (now) => [
    ...(Array.isArray(now) ? now : []),
    "read_file",
  ]);
  await editJsoncFile(dir, file, ["permissions", "allow"], (now) => [
    ...(Array.isArray(now) ? now : []),
    "bash(npm test:*)",
  ]);
  const written = JSON.parse(await Deno.readTextFile(file));
  assert.deepEqual(written, { permissions: { allow: ["read_file", "bash(npm test:*)"] } });
  assert.deepEqual((await Deno.stat(file)).mode! & 0o777, 0o600);
  await Deno.writeTextFile(file, '{"model": ');
  await assert.rejects(() => editJsoncFile(dir, file, ["model"], () => "x"), /fix it by hand/);
  assert.deepEqual(await Deno.readTextFile(file), '{"model": ');
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a new entry goes after the comment that ends the line before it, which stays with its own", () => {
  const settings = '{\n  "model": "deepseek-pro" // the big one\n}\n';
  assert.equal(
    editJsoncText(settings, ["maxTurns"], 20),
    '{\n  "model": "deepseek-pro", // the big one\n  "maxTurns": 20\n}\n',
  );
  const nested = '{\n  "sandbox": { "mode": "off" } /* why: no bwrap here */\n}\n';
  assert.equal(
    editJsoncText(nested, ["permissions"], { allow: ["read_file"] }),
    '{\n  "sandbox": { "mode": "off" }, /* why: no bwrap here */\n' +
      '  "permissions": {\n    "allow": [\n      "read_file"\n    ]\n  }\n}\n',
  );
  // The chat's saved rules append to a list the same way.
  const rules =
    '{\n  "permissions": {\n    "allow": [\n      "bash(npm test:*)" // the tests\n    ]\n  }\n}\n';
  assert.equal(
    editJsoncText(rules, ["permissions", "allow", -1], "read_file"),
    '{\n  "permissions": {\n    "allow": [\n      "bash(npm test:*)", // the tests\n' +
      '      "read_file"\n    ]\n  }\n}\n',
  );
});

Deno.test("editJsoncFile refuses a planted link before reading through it", async () => {
  const dir = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  // A FIFO or /dev/zero behind the link would hang or fill memory if it were read.
  await Deno.mkdir(`${dir}/.hel`);
  await Deno.symlink(outside, `${dir}/.hel/settings.jsonc`);
  await assert.rejects(
    () => editJsoncFile(dir, `${dir}/.hel/settings.jsonc`, ["model"], () => "x"),
    /is a symbolic link/,
  );
  assert.equal((await Deno.lstat(`${dir}/.hel/settings.jsonc`)).isSymlink, true);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(outside, { recursive: true });
});
