import assert from "node:assert/strict";
import { LISTING_MAX_BYTES, omittedNote, skillsListing } from "./listing.ts";
import { skillsSection } from "./mod.ts";

const entry = (i: number) => ({
  path: `.agents/skills/s${i}/SKILL.md`,
  name: `s${i}`,
  description: "d".repeat(4000),
});

Deno.test("the skills list keeps the entries within its limit and counts the rest", () => {
  const catalog = Array.from({ length: 300 }, (_, i) => entry(i));
  const { listed, omitted } = skillsListing(catalog);
  assert.equal(listed.length, 8);
  assert.equal(omitted, 292);
  assert.deepEqual(listed[0], catalog[0]);
  const section = skillsSection(catalog)!;
  assert.ok(section.length < LISTING_MAX_BYTES + 2048, `${section.length} characters`);
  assert.match(section, /292 more skills are not listed here, to keep this list within 32 KiB/);
  assert.deepEqual(skillsListing(catalog.slice(0, 3)), { listed: catalog.slice(0, 3), omitted: 0 });
  assert.doesNotMatch(skillsSection(catalog.slice(0, 3))!, /not listed/);
  assert.match(omittedNote(1), /^1 more skill is not listed/);
});
