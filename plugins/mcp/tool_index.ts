/**
 * The search index over the MCP catalog, for search mode (`search_mcp_tools`): BM25 ranking by
 * MiniSearch over each tool's name (split at `_`, `-`, `.` and camelCase), its description and
 * its parameters (names and the start of their descriptions), with English words reduced to
 * their stems (Porter, `stemmer`) so "commits" finds "commit" and "directories" "directory".
 * Built once, in slices while the model answers the first request (warm) and at the latest at
 * the first search, and kept in step with the catalog after that: a list change adds, replaces
 * and removes only the tools that changed, so the cost grows with the number of tools, never
 * faster.
 *
 * @module
 */
import MiniSearch from "minisearch";
import { stemmer } from "stemmer";
import { isRecord } from "../../core/mod.ts";
import type { CatalogEntry } from "./catalog.ts";

/** What the index stores of a tool. */
interface Document {
  id: string;
  name: string;
  server: string;
  description: string;
  parameters: string;
}

/** A match: the catalog entry and its score. */
export interface ToolMatch {
  entry: CatalogEntry;
  score: number;
}

// Words so common in tool descriptions and requests that they only add noise to the ranking.
// deno-fmt-ignore
const STOP_WORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "i", "in", "into", "is", "it",
  "its", "me", "my", "of", "on", "or", "that", "the", "this", "to", "with", "you", "your", "all",
  "please", "can", "do", "want", "need", "some",
]);

/** Words of a text: split at anything not a letter or digit and at camelCase humps. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/**
 * Stems already made: tool texts repeat a small vocabulary, and stemming every occurrence again
 * was most of the cost of indexing. It holds at most the distinct words indexed and searched.
 */
const stems = new Map<string, string | null>();

function term(word: string): string | null {
  const known = stems.get(word);
  if (known !== undefined) return known;
  const lower = word.toLowerCase();
  const stem = STOP_WORDS.has(lower) ? null : stemmer(lower);
  if (stems.size < 100_000) stems.set(word, stem);
  return stem;
}

/**
 * A schema's top-level parameters: each name with the start of its description, which often
 * names what the tool acts on ("Type of resource to get (e.g., pods, deployments ...)").
 */
function parameterText(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  if (!isRecord(properties)) return "";
  return Object.entries(properties).map(([name, value]) => {
    const description = (value as { description?: unknown } | null)?.description;
    return typeof description === "string" ? `${name} ${description.slice(0, 200)}` : name;
  }).join("\n");
}

function toDocument(entry: CatalogEntry): Document {
  return {
    id: entry.fullName,
    name: entry.toolName,
    server: entry.server,
    // The first part of a long description says what the tool is for; the rest (examples,
    // caveats) would only dilute it and enlarge the index.
    description: entry.description.slice(0, 2_000),
    parameters: parameterText(entry.inputSchema),
  };
}

/** What decides a tool's place in the index: a change here re-indexes it. */
function signature(document: Document): string {
  return `${document.name}\n${document.description}\n${document.parameters}`;
}

/** Tools indexed per slice of {@link ToolIndex.warm}: a few milliseconds of work. */
const WARM_SLICE = 200;

/** See the module comment. */
export class ToolIndex {
  readonly #search = new MiniSearch<Document>({
    fields: ["name", "server", "description", "parameters"],
    tokenize: words,
    processTerm: term,
    searchOptions: {
      // A tool's name says most about it; the server's name helps "on the inventory server".
      boost: { name: 3, server: 1.5, description: 1, parameters: 1 },
      fuzzy: (word) => word.length >= 6 ? 0.15 : false,
      combineWith: "OR",
      // Stems already join word forms; fuzzy matching forgives a model's typo, weighed low.
      weights: { fuzzy: 0.3, prefix: 0.5 },
    },
  });
  /** What is indexed: each name's entry and signature. */
  #indexed = new Map<string, { entry: CatalogEntry; signature: string }>();
  #source: readonly CatalogEntry[] | undefined;
  #warming = false;

  /**
   * Brings the index in step with `entries` (the catalog now). Nothing is done when they are
   * the same list as last time; otherwise only tools that came, went or changed are touched.
   */
  sync(entries: readonly CatalogEntry[]): void {
    if (entries === this.#source) return;
    this.#source = entries;
    const next = new Map<string, { entry: CatalogEntry; signature: string }>();
    for (const entry of entries) {
      const before = this.#indexed.get(entry.fullName);
      // Indexed by warm() from this very catalog: nothing to compare.
      if (before?.entry === entry) {
        next.set(entry.fullName, before);
        continue;
      }
      const document = toDocument(entry);
      const now = { entry, signature: signature(document) };
      next.set(entry.fullName, now);
      if (before === undefined) this.#search.add(document);
      else if (before.signature !== now.signature) this.#search.replace(document);
    }
    for (const name of this.#indexed.keys()) {
      if (!next.has(name)) this.#search.discard(name);
    }
    this.#indexed = next;
  }

  /**
   * Indexes `entries` a slice at a time, letting other work run in between, so that a search
   * made while the model thinks about its first request finds the index (most of) built: at
   * 10,000 tools building it takes about half a second. The first {@link ToolIndex.sync} ends
   * it and does what is left. Never rejects.
   */
  async warm(entries: readonly CatalogEntry[]): Promise<void> {
    if (this.#warming) return;
    this.#warming = true;
    try {
      for (let start = 0; start < entries.length; start += WARM_SLICE) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (this.#source !== undefined) return;
        for (const entry of entries.slice(start, start + WARM_SLICE)) {
          if (this.#indexed.has(entry.fullName)) continue;
          const document = toDocument(entry);
          this.#search.add(document);
          this.#indexed.set(entry.fullName, { entry, signature: signature(document) });
        }
      }
    } catch {
      // A failure here leaves the work to sync(), which reports its own.
    }
  }

  /** The best `limit` matches for `query`, best first. */
  search(query: string, limit: number): ToolMatch[] {
    const found = this.#search.search(query);
    return found.slice(0, limit).flatMap((result) => {
      const indexed = this.#indexed.get(String(result.id));
      return indexed ? [{ entry: indexed.entry, score: result.score }] : [];
    });
  }

  /** How many tools are indexed. */
  get size(): number {
    return this.#indexed.size;
  }
}
