/**
 * The run's MCP tools as they stand now: the catalog built from every server's latest listing
 * (and hel's resource tools), the tool behind each name, the loaded set, and what changed
 * since the model was last told. A server's list change rebuilds it (`update`): a tool that is
 * gone is unloaded, a changed one offers its new definition from the next request, and
 * {@link OfferedTools.changes} says what the model has not heard of yet.
 *
 * @module
 */
import { type Tool, type ToolDefinition, toolDefinition } from "../../core/mod.ts";
import {
  buildCatalog,
  type Catalog,
  type CatalogEntry,
  type Exclusion,
  type ListedTool,
} from "./catalog.ts";
import type { ResourceTool } from "./resource_tools.ts";

/** One server's part: its latest listing, its `tools` allowlist, its resource tools. */
export interface ServerTools {
  name: string;
  tools: readonly ListedTool[];
  allow?: readonly string[];
  /** Its entry's `"trustAnnotations": true` (readOnlyHint tools count as reads). */
  trustAnnotations?: boolean;
  resources: readonly ResourceTool[];
}

/** What changed in the tools since the model was last told. */
export interface ToolChanges {
  added: CatalogEntry[];
  removed: { fullName: string; wasLoaded: boolean }[];
  changed: { entry: CatalogEntry; loaded: boolean }[];
  /** Whether added tools are loaded already (`--mcp-eager`). */
  eager: boolean;
}

/** What the tools of a server call it with. */
export type MakeServerTool = (entry: CatalogEntry) => Tool;

/** See the module comment. */
export class OfferedTools {
  readonly #servers = new Map<string, ServerTools>();
  readonly #reserved: ReadonlySet<string>;
  readonly #eager: boolean;
  readonly #makeTool: MakeServerTool;
  #catalog: Catalog = { entries: [], excluded: [], leftOut: new Map(), unmatched: [] };
  #tools = new Map<string, Tool>();
  #definitions = new Map<string, ToolDefinition>();
  /** Loaded names, in load order. */
  readonly loaded = new Set<string>();
  /** What the model knows: each name's definition as of the system message or the last note. */
  #told = new Map<string, string>();
  /** Loaded tools that went away since the last note. */
  #unloaded = new Set<string>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    options: { reserved: ReadonlySet<string>; eager: boolean; makeTool: MakeServerTool },
  ) {
    this.#reserved = options.reserved;
    this.#eager = options.eager;
    this.#makeTool = options.makeTool;
  }

  /** The catalog now. */
  get catalog(): Catalog {
    return this.#catalog;
  }

  /** The tool named `name`, loaded or not. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** The definitions of the loaded tools, in load order. */
  loadedDefinitions(): ToolDefinition[] {
    return [...this.loaded].flatMap((name) => this.#definitions.get(name) ?? []);
  }

  /**
   * Sets the listings of the servers in `servers` (the others keep theirs) and rebuilds;
   * returns the exclusions that are new. Updates run one after another.
   */
  update(servers: readonly ServerTools[]): Promise<Exclusion[]> {
    const work = this.#queue.then(() => this.#rebuild(servers));
    this.#queue = work.catch(() => {});
    return work;
  }

  /** The model has just been shown every tool (a system message built now). */
  told(): void {
    this.#told = new Map(this.#catalog.entries.map((entry) => [entry.fullName, signature(entry)]));
    this.#unloaded.clear();
  }

  /** What changed since the model was last told, and marks it told; undefined for nothing. */
  changes(): ToolChanges | undefined {
    const now = new Map(this.#catalog.entries.map((entry) => [entry.fullName, entry]));
    const added = [...now.values()].filter((entry) => !this.#told.has(entry.fullName));
    const removed = [...this.#told.keys()].filter((name) => !now.has(name))
      .map((fullName) => ({ fullName, wasLoaded: this.#unloaded.has(fullName) }));
    const changed = [...now.values()]
      .filter((entry) => {
        const before = this.#told.get(entry.fullName);
        return before !== undefined && before !== signature(entry);
      })
      .map((entry) => ({ entry, loaded: this.loaded.has(entry.fullName) }));
    // A loaded tool that went and came back is unloaded now: the model must load it again.
    for (const name of this.#unloaded) {
      const entry = now.get(name);
      if (entry && !this.loaded.has(name) && !changed.some((item) => item.entry === entry)) {
        changed.push({ entry, loaded: false });
      }
    }
    this.told();
    if (added.length + removed.length + changed.length === 0) return undefined;
    return { added, removed, changed, eager: this.#eager };
  }

  async #rebuild(servers: readonly ServerTools[]): Promise<Exclusion[]> {
    for (const server of servers) this.#servers.set(server.name, server);
    const all = [...this.#servers.values()];
    const built = await buildCatalog(all, this.#reserved);
    const own = new Set(built.entries.map((entry) => entry.fullName));
    const tools = new Map<string, Tool>();
    for (const entry of built.entries) tools.set(entry.fullName, this.#makeTool(entry));
    // hel's resource tools yield to a tool of the server's own with the same name.
    for (const server of all) {
      for (const { entry, tool } of server.resources) {
        if (own.has(entry.fullName) || this.#reserved.has(entry.fullName)) {
          built.excluded.push({
            server: server.name,
            toolName: entry.toolName,
            reason: `hel's resource tool ${entry.fullName} is not offered: another tool has ` +
              "that name",
          });
          continue;
        }
        built.entries.push(entry);
        tools.set(entry.fullName, tool);
      }
    }
    built.entries.sort((a, b) => a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0);
    const before = new Set(this.#catalog.excluded.map(exclusionKey));
    this.#catalog = built;
    this.#tools = tools;
    this.#definitions = new Map([...tools].map(([name, tool]) => [name, toolDefinition(tool)]));
    for (const name of this.loaded) {
      if (!tools.has(name)) {
        this.loaded.delete(name);
        this.#unloaded.add(name);
      }
    }
    if (this.#eager) { for (const name of tools.keys()) this.loaded.add(name); }
    return built.excluded.filter((item) => !before.has(exclusionKey(item)));
  }
}

/** Signatures made: every request compares the whole catalog, which only a rebuild changes. */
const signatures = new WeakMap<CatalogEntry, string>();

/** What the model sees of a tool: a change here is a changed definition. */
function signature(entry: CatalogEntry): string {
  let made = signatures.get(entry);
  if (made === undefined) {
    made = JSON.stringify([entry.description, entry.inputSchema]);
    signatures.set(entry, made);
  }
  return made;
}

function exclusionKey(item: Exclusion): string {
  return JSON.stringify([item.server, item.toolName, item.reason]);
}
