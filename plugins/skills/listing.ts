/**
 * How much of the skills catalog goes into the system message. Each entry is small (a name of
 * at most 256 bytes, a description of at most 4 KiB), but a repository can ship any number of
 * them, and the list is part of every request: 300 skills with long descriptions would add
 * more than a megabyte to each. The list keeps the entries that fit in
 * {@link LISTING_MAX_BYTES}, in catalog order, and says how many more there are and how to
 * find them; those can still be read and are tracked like the others.
 *
 * @module
 */
import type { CatalogEntry } from "./discovery.ts";

/** 32 KiB, like the context file: about 8,000 tokens, room for 100 skills of usual size. */
export const LISTING_MAX_BYTES = 32 * 1024;

/** The entries the list shows and how many it leaves out. */
export interface Listing {
  listed: CatalogEntry[];
  omitted: number;
}

const size = (entry: CatalogEntry) =>
  new TextEncoder().encode(JSON.stringify(entry, null, 2)).length;

/** The first entries of `catalog` whose JSON fits in `limit` bytes. */
export function skillsListing(
  catalog: readonly CatalogEntry[],
  limit = LISTING_MAX_BYTES,
): Listing {
  const listed: CatalogEntry[] = [];
  let used = 0;
  for (const { name, description, path } of catalog) {
    const entry = { name, description, path };
    used += size(entry);
    if (used > limit) break;
    listed.push(entry);
  }
  return { listed, omitted: catalog.length - listed.length };
}

/** The note after a cut list, for the model. */
export function omittedNote(omitted: number): string {
  return `${omitted} more skill${omitted === 1 ? " is" : "s are"} not listed here, to keep ` +
    `this list within ${LISTING_MAX_BYTES / 1024} KiB; find them with glob ` +
    '(pattern ".agents/skills/*/SKILL.md") and read the front matter of those that may apply.';
}
