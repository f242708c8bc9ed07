import assert from "node:assert/strict";
import { createTrustFileStore } from "../trust/file_store.ts";
import { editTrustedJsonc } from "./trusted_edit.ts";

async function setting() {
  const root = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(`${root}/home`);
  await Deno.mkdir(`${root}/project`);
  const trust = createTrustFileStore(`${root}/home`, () => {});
  const project = `${root}/project`;
  const file = `${project}/.hel/settings.jsonc`;
  const target = { trust, kind: "settings", project, file };
  const trusted = async () => await trust.isTrusted("settings", project, await Deno.readFile(file));
  return { root, trust, project, file, target, trusted };
}

const ALLOW_END = ["permissions", "allow", -1];

Deno.test("a file hel creates, or one whose bytes were trusted, is trusted after hel's change", async () => {
  const { root, file, target, trusted, trust, project } = await setting();
  await editTrustedJsonc(target, ALLOW_END, "write_file");
  assert.equal(
    await Deno.readTextFile(file),
    '{\n  "permissions": {\n    "allow": [\n      "write_file"\n    ]\n  }\n}\n',
  );
  assert.equal(await trusted(), true);
  // The person adds a comment and trusts the file; hel's next change keeps both.
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace("{", "{ // mine"));
  await trust.record("settings", project, await Deno.readFile(file));
  await editTrustedJsonc(target, ALLOW_END, "bash(npm test:*)");
  assert.match(
    await Deno.readTextFile(file),
    /\/\/ mine[\s\S]*"write_file",\n\s*"bash\(npm test:\*\)"/,
  );
  assert.equal(await trusted(), true);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a file whose bytes were not trusted stays untrusted after hel adds to it", async () => {
  const { root, file, target, trusted } = await setting();
  await Deno.mkdir(`${target.project}/.hel`);
  await Deno.writeTextFile(file, '{ "permissions": { "allow": ["bash"] } }\n');
  await editTrustedJsonc(target, ALLOW_END, "write_file");
  assert.match(await Deno.readTextFile(file), /"bash",\s*"write_file"/);
  assert.equal(await trusted(), false);
  await Deno.remove(root, { recursive: true });
});
