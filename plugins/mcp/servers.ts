/**
 * The run's MCP servers as a group: start every server concurrently under
 * one startup deadline, and shut them all down on every exit path — with a synchronous SIGKILL
 * of any group still alive if hel exits before an orderly shutdown could run.
 *
 * @module
 */
import type { ListedTool } from "./catalog.ts";
import type { ListingCut, ToolListing } from "./listing_budget.ts";
import type { ServerConfig } from "./config.ts";
import type { McpConnection, Trace } from "./connection.ts";
import type { Launcher } from "./launch.ts";
import type { ClientFeature } from "./client_features.ts";
import { groupAlive, killGroupsNow } from "./shutdown.ts";

/** The run record's trace of the MCP servers (`raw/mcp.jsonl`). */
export const MCP_TRACE = "mcp";

/** One configured server after startup. */
export type ServerState =
  | {
    name: string;
    status: "connected";
    connection: McpConnection;
    tools: ListedTool[];
    /** How hel cut its tool listing (listing_budget.ts); absent when it is whole. */
    cut?: ListingCut;
  }
  | { name: string; status: "skipped"; reason: string };

/** What starting and stopping servers needs. */
export interface ServerGroupOptions {
  project: string;
  /** How servers are started (see launch.ts). */
  launcher: Launcher;
  /** One deadline for all servers' spawn, `initialize` and `tools/list`. */
  startupMs: number;
  shutdownWaitMs: number;
  trace: Trace;
  /** What each server's client offers beyond tool calls (client_features.ts). */
  features?: readonly ClientFeature[];
}

/** Told when a server was started again by a call (restarts.ts). */
export type RestartListener = (server: string, listing: ToolListing, note: string) => void;

/** Every server this run started; shut down together. */
export class ServerGroup {
  #options: ServerGroupOptions;
  #connections: McpConnection[] = [];
  #shutdown: Promise<void> | undefined;
  #restarted: RestartListener | undefined;
  /**
   * The last resort: core shuts plugins down on every exit path it controls (including
   * SIGTERM and SIGHUP), but a `Deno.exit` elsewhere must still not leave servers behind.
   */
  #onUnload = () => killGroupsNow(this.#livePids());

  constructor(options: ServerGroupOptions) {
    this.#options = options;
  }

  /**
   * Tells `listener` of each server a call started again. Set once the run that takes the
   * tools exists (after the servers started); a restart before then has no one to tell.
   */
  onRestarted(listener: RestartListener): void {
    this.#restarted = listener;
  }

  /** Starts every server concurrently; those that fail are shut down and reported skipped. */
  async startAll(servers: readonly ServerConfig[]): Promise<ServerState[]> {
    globalThis.addEventListener("unload", this.#onUnload);
    // The MCP SDK (and the zod schemas and ajv it builds on load) costs a run without servers
    // a tenth of a second of CPU, so it is loaded only once there is a server to start.
    const { McpConnection, StartupError } = await import("./connection.ts");
    const deadline = Date.now() + this.#options.startupMs;
    return await Promise.all(servers.map(async (config): Promise<ServerState> => {
      const connection = new McpConnection(config, {
        ...this.#options,
        onRestarted: (server, listing, note) => this.#restarted?.(server, listing, note),
      });
      this.#connections.push(connection);
      try {
        const { tools, cut } = await connection.start(deadline, this.#options.startupMs);
        this.#options.trace({
          event: "server",
          server: config.name,
          status: "connected",
          pid: connection.pid,
          sandboxed: this.#options.launcher.sandboxed(config),
          tools: tools.length,
        });
        return {
          name: config.name,
          status: "connected",
          connection,
          tools,
          ...(cut ? { cut } : {}),
        };
      } catch (error) {
        const reason = error instanceof StartupError
          ? error.message
          : `could not start: ${(error as Error)?.message ?? error}`;
        this.#options.trace({ event: "server", server: config.name, status: "skipped", reason });
        return { name: config.name, status: "skipped", reason };
      }
    }));
  }

  /** Shuts every server down (once; later calls wait for the first). Never throws. */
  shutdownAll(): Promise<void> {
    this.#shutdown ??= (async () => {
      await Promise.all(this.#connections.map(async (connection) => {
        const step = await connection.close();
        this.#options.trace({ event: "shutdown", server: connection.name, step });
        this.#traceStderr(connection);
      }));
      globalThis.removeEventListener("unload", this.#onUnload);
    })();
    return this.#shutdown;
  }

  #traceStderr(connection: McpConnection): void {
    const data = connection.stderrTrace();
    if (data) this.#options.trace(data);
  }

  #livePids(): number[] {
    return this.#connections.map((c) => c.pid).filter((pid): pid is number =>
      pid !== undefined && groupAlive(pid)
    );
  }
}
