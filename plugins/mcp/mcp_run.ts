/**
 * The connected servers of a run and what they offer now: tools (with hel's resource tools),
 * resources, prompts. It starts from the listings made at start-up, re-lists a server when it
 * announces a list change (debounced and bounded, refresh_scheduler.ts), keeps the old list
 * when listing again fails, and gives the model a note of what changed with its next request.
 *
 * @module
 */
import type { ChatCommand, Tool } from "../../core/mod.ts";
import { type CatalogEntry, type Exclusion, type ListedTool, modelName } from "./catalog.ts";
import { changeNote } from "./change_note.ts";
import { KeptTools, type ListingCut, listingCutText, type ToolListing } from "./listing_budget.ts";
import type { ListKind } from "./list_changes.ts";
import { OfferedTools } from "./offered_tools.ts";
import { promptCommand, promptEntries, type PromptEntry } from "./prompt_commands.ts";
import { ResourceLists } from "./resource_changes.ts";
import { type ResourceTool, resourceTools } from "./resource_tools.ts";
import { RefreshScheduler } from "./refresh_scheduler.ts";
import { capabilitiesOf, listAll, type ServerHandle } from "./server_requests.ts";
import type { Trace } from "./connection.ts";

/** The longest a request waits for a list refresh under way. */
export const NOTE_WAIT_MS = 3_000;
/**
 * The longest listing resources and prompts may take at start-up (the tools are listed by
 * then): a server slow to answer them must not hold the run up for the whole startup timeout.
 */
export const START_LIST_MS = 5_000;

/** A connected server as the run starts with it. */
export interface RunServer {
  handle: ServerHandle;
  /** Its `tools/list` at start-up. */
  tools: readonly ListedTool[];
  /** How hel cut that listing (listing_budget.ts); absent when it is whole. */
  cut?: ListingCut;
  /** Its `tools` allowlist from the configuration. */
  allow?: readonly string[];
  /** Its entry's `"trustAnnotations": true`. */
  trustAnnotations?: boolean;
  /** Seconds a resource read or prompt may take (the server's call timeout), in ms. */
  callTimeoutMs: number;
  /**
   * Whether it runs in the sandbox. One outside it can read whatever you can, so reading its
   * resources is no plain read: its resource tools ask as its other tools do.
   */
  sandboxed: boolean;
}

/** What the run needs besides its servers. */
export interface McpRunOptions {
  /** Names other plugins' tools have. */
  reserved: ReadonlySet<string>;
  eager: boolean;
  /** The time a listing may take (the startup timeout). */
  listMs: number;
  makeTool(entry: CatalogEntry): Tool;
  trace: Trace;
  warn(text: string): void;
  /** Told of tools a listing after a change excluded that were not excluded before. */
  excluded(items: readonly Exclusion[]): void;
}

/** See the module comment. */
export class McpRun {
  readonly tools: OfferedTools;
  readonly #servers: Map<string, RunServer>;
  readonly #options: McpRunOptions;
  readonly #resources = new ResourceLists();
  readonly #resourceTools = new Map<string, ResourceTool[]>();
  readonly #prompts = new Map<string, PromptEntry[]>();
  #commands: ChatCommand[] | undefined;
  /** Tools their servers removed during the run, by name: a call says so. */
  readonly #gone = new Map<string, string>();
  readonly scheduler: RefreshScheduler;
  /** `<kind> <server>` of the listings that succeeded once. */
  readonly #listedOnce = new Set<string>();
  /** Notes of servers restarted since the last request (restarts.ts), each told once. */
  #restartNotes: string[] = [];
  /** Servers whose tool listing hel cut (listing_budget.ts): the person is warned once. */
  readonly #cutWarned = new Set<string>();

  private constructor(servers: readonly RunServer[], options: McpRunOptions) {
    this.#servers = new Map(servers.map((server) => [server.handle.name, server]));
    this.#options = options;
    this.tools = new OfferedTools(options);
    this.scheduler = new RefreshScheduler((key) => {
      const [kind, server] = JSON.parse(key) as [ListKind, string];
      return this.#refresh(server, kind);
    });
  }

  /**
   * Builds the catalog (its exclusions are the caller's to report) and lists every server's
   * resources and prompts (when it declares them).
   */
  static async start(servers: readonly RunServer[], options: McpRunOptions): Promise<McpRun> {
    const run = new McpRun(servers, options);
    for (const server of servers) {
      if (capabilitiesOf(server.handle).resources !== undefined) {
        run.#resourceTools.set(
          server.handle.name,
          resourceTools(server.handle, server.callTimeoutMs, server.sandboxed ? "read" : "execute"),
        );
      }
    }
    for (const server of servers) run.#warnCut(server.handle.name, server.cut);
    await run.tools.update(servers.map((server) => run.#serverTools(server)));
    const startMs = Math.min(START_LIST_MS, options.listMs);
    await Promise.all(servers.flatMap((server) => {
      const declared = capabilitiesOf(server.handle);
      return [
        ...(declared.resources !== undefined ? [run.#listResources(server, startMs)] : []),
        ...(declared.prompts !== undefined ? [run.#listPrompts(server, startMs)] : []),
      ];
    }));
    return run;
  }

  /** A server announced a change of `kind`. */
  changed(server: string, kind: ListKind): void {
    if (this.#servers.has(server)) this.scheduler.notify(JSON.stringify([kind, server]));
  }

  /** The model sees everything as it is now (a system message is being built). */
  told(): void {
    this.tools.told();
    this.#resources.told();
  }

  /**
   * The note for the next request, once; undefined when nothing changed. A refresh under way
   * is waited for (at most {@link NOTE_WAIT_MS}): a tool that changes its server's lists (adds
   * a tool, registers a resource) announces it just before it answers, and the model's next
   * request should already know. `loader` is the tool the model loads with (search mode's
   * `search_mcp_tools`; `load_mcp_tool` by default).
   */
  async note(loader?: string): Promise<string | undefined> {
    await this.scheduler.settled(NOTE_WAIT_MS);
    const restarts = this.#restartNotes;
    this.#restartNotes = [];
    const changes = changeNote(this.tools.changes(), this.#resources.changes(), loader);
    const notes = restarts.map((text) =>
      `[hel: this note is from hel, not from the user]\n${text}`
    );
    if (changes) notes.push(changes);
    return notes.length > 0 ? notes.join("\n\n") : undefined;
  }

  /**
   * A server was started again during a call (restarts.ts) and listed its tools anew: the
   * catalog follows (loaded tools that still exist stay loaded), and the model is told once.
   */
  async restarted(name: string, listing: ToolListing, note: string): Promise<void> {
    const server = this.#servers.get(name);
    if (!server) return;
    this.#restartNotes.push(note);
    await this.#takeTools(server, listing, "restart");
  }

  /** Why `name` cannot be called when its server removed it during the run. */
  goneText(name: string): string | undefined {
    const server = this.#gone.get(name);
    if (server === undefined) return undefined;
    return `${name} was removed by MCP server ${server} during this run, so it cannot be called; ` +
      "use another tool or tell the user";
  }

  /** The prompts as chat commands, by server name (made again only when a list changed). */
  chatCommands(): ChatCommand[] {
    this.#commands ??= [...this.#prompts].sort(([a], [b]) => a < b ? -1 : 1).flatMap(
      ([server, entries]) => {
        const run = this.#servers.get(server)!;
        return entries.map((entry) => promptCommand(entry, run.handle, run.callTimeoutMs));
      },
    );
    return this.#commands;
  }

  #serverTools(server: RunServer) {
    return {
      name: server.handle.name,
      tools: server.tools,
      ...(server.allow ? { allow: server.allow } : {}),
      trustAnnotations: server.trustAnnotations === true,
      resources: this.#resourceTools.get(server.handle.name) ?? [],
    };
  }

  async #refresh(name: string, kind: ListKind): Promise<void> {
    const server = this.#servers.get(name)!;
    if (kind === "resources") return await this.#listResources(server);
    if (kind === "prompts") return await this.#listPrompts(server);
    const { listMs } = this.#options;
    const answer = await listAll(server.handle, "tools/list", "tools", listMs, new KeptTools());
    if (!answer.ok) return this.#failed(name, kind, answer.text);
    await this.#takeTools(server, answer.value, kind);
  }

  /** `listing` is what `server` lists now (after a list change or a restart). */
  async #takeTools(server: RunServer, listing: ToolListing, why: string): Promise<void> {
    const name = server.handle.name;
    const { tools, cut } = listing;
    const before = new Set(this.tools.catalog.entries.map((entry) => entry.fullName));
    this.#warnCut(name, cut);
    server.tools = tools;
    server.cut = cut;
    this.#options.excluded(await this.tools.update([this.#serverTools(server)]));
    const after = new Set(this.tools.catalog.entries.map((entry) => entry.fullName));
    for (const gone of before) if (!after.has(gone)) this.#gone.set(gone, name);
    for (const back of after) this.#gone.delete(back);
    this.#options.trace({
      event: "relisted",
      server: name,
      kind: "tools",
      ...(why === "restart" ? { after: "restart" } : {}),
      listed: tools.length,
      offered: this.tools.catalog.entries.filter((entry) => entry.server === name).length,
    });
  }

  /** Traces a cut listing and warns of the first one of each server. */
  #warnCut(server: string, cut: ListingCut | undefined): void {
    if (!cut) return;
    this.#options.trace({ event: "tools_cut", server, ...cut });
    if (this.#cutWarned.has(server)) return;
    this.#cutWarned.add(server);
    this.#options.warn(listingCutText(server, cut));
  }

  async #listResources(server: RunServer, ms = this.#options.listMs): Promise<void> {
    const name = server.handle.name;
    const answer = await listAll(server.handle, "resources/list", "resources", ms);
    this.#resources.set(name, answer.ok ? answer.value : undefined);
    if (!answer.ok) return this.#failed(name, "resources", answer.text);
    this.#listedOnce.add(`resources ${name}`);
    this.#options.trace({
      event: "relisted",
      server: name,
      kind: "resources",
      listed: answer.value.length,
    });
  }

  async #listPrompts(server: RunServer, ms = this.#options.listMs): Promise<void> {
    const name = server.handle.name;
    const answer = await listAll(server.handle, "prompts/list", "prompts", ms);
    if (!answer.ok) return this.#failed(name, "prompts", answer.text);
    this.#listedOnce.add(`prompts ${name}`);
    const { entries, excluded } = promptEntries(name, answer.value);
    this.#prompts.set(name, entries);
    this.#commands = undefined;
    this.#options.trace({
      event: "relisted",
      server: name,
      kind: "prompts",
      listed: answer.value.length,
      ...(excluded.length > 0 ? { excluded } : {}),
    });
  }

  /**
   * A listing failed: the old list stays (none at start-up), and the person is told. Resources
   * are read through hel's resource tools whatever their listing did; it only feeds the note.
   */
  #failed(server: string, kind: ListKind, text: string): void {
    this.#options.trace({ event: "list_failed", server, kind, message: text });
    const started = kind === "tools" || this.#listedOnce.has(`${kind} ${server}`);
    const outcome = kind === "resources"
      ? `${modelName(server, "read_resource")} still reads them by URI`
      : started
      ? `hel keeps the ${kind} it had`
      : `hel offers none of its ${kind}`;
    this.#options.warn(`MCP server ${server}: listing its ${kind} failed (${text}); ${outcome}`);
  }
}
