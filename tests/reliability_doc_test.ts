/**
 * tests/RELIABILITY.md names tests by their titles; this keeps those names true as tests are
 * renamed or removed (a name ending in "…" is the start of a title).
 */
import assert from "node:assert/strict";
import { REPO_ROOT } from "./_helpers.ts";

async function testSources(dir: string, found: string[] = []): Promise<string[]> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !["node_modules", ".git", "results", "dist"].includes(entry.name)) {
      await testSources(path, found);
    } else if (entry.name.endsWith("_test.ts")) found.push(await Deno.readTextFile(path));
  }
  return found;
}

Deno.test("every test RELIABILITY.md names exists", async () => {
  const doc = await Deno.readTextFile(`${REPO_ROOT}/tests/RELIABILITY.md`);
  const sources = (await testSources(REPO_ROOT)).join("\n");
  const names = [...doc.matchAll(/"([^"\n]{12,})"/g)].map((match) => match[1]!);
  assert.ok(names.length > 40, `only ${names.length} test names found`);
  const missing = names
    .map((name) => name.replace(/…$/, ""))
    .filter((name) => !sources.includes(name));
  assert.deepEqual(missing, [], "RELIABILITY.md names tests that do not exist");
});
