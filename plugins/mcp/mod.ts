/**
 * The MCP connector: stdio and remote servers from the person's `$HEL_HOME/mcp.json` and the
 * project's `.hel/mcp.json` (trusted by content), started with the run (and again by the next
 * call when one goes away: restarts.ts), their tools listed by name in the system message and
 * loaded on demand with `load_mcp_tool` (or, for a catalog too large to list, found and loaded
 * with `search_mcp_tools`: model_view.ts). Loaded tools run through the core's single
 * tool-call path (hooks, permissions, spilling) as class `execute` (`read` for a read-only tool
 * of a server whose annotations the person trusts). Resources are read through deferred tools,
 * prompts are chat commands, and list changes reach the model as a note (mcp_run.ts).
 *
 * @module
 */
import type { Host, Plugin, PluginHooks } from "../../core/mod.ts";
import { sandboxSettingsFor } from "../../kit/mod.ts";
import type { Trace } from "./connection.ts";
import { parseMcpConfig } from "./config.ts";
import { CONFIG_PATH, MCP_TRUST } from "./config_files.ts";
import { serversForRun } from "./run_config.ts";
import { LOAD_TOOL_NAME } from "./load_tool.ts";
import { SEARCH_TOOL_NAME } from "./search_tool.ts";
import { modelView } from "./model_view.ts";
import { createMcpCommand } from "./mcp_command.ts";
import { serverTool } from "./server_tool.ts";
import { summarizeServers } from "./summary.ts";
import { type ServerStatus, serverStatusLines } from "./status.ts";
import { MCP_TRACE, ServerGroup } from "./servers.ts";
import { createLauncher } from "./launch.ts";
import { reportAllowlists, reportExcluded, reportRenamed } from "./catalog_reports.ts";
import {
  catalogueSettings,
  eagerLoading,
  MCP_OPTIONS,
  mcpOptions,
  type McpPluginOptions,
  timings,
} from "./options.ts";

/** Creates the plugin. */
export default function mcp(given: Partial<McpPluginOptions> = {}): Plugin {
  const options = mcpOptions(given);
  return {
    name: "mcp",
    description: "MCP servers from $HEL_HOME/mcp.json and .hel/mcp.json; their tools are loaded " +
      "on demand",
    hooks: [
      "systemPrompt",
      "toolDefinitions",
      "requestNote",
      "lookupTool",
      "chatCommands",
      "status",
      "shutdown",
    ],
    toolNames: [LOAD_TOOL_NAME, SEARCH_TOOL_NAME, "mcp__<server>__<tool>"],
    options: MCP_OPTIONS,
    commands: [createMcpCommand(options)],
    trustedConfigs: [MCP_TRUST],
    traceChannels: [MCP_TRACE],

    checkConfig(kind, bytes, path) {
      if (kind !== MCP_TRUST.kind) return undefined;
      const parsed = parseMcpConfig(bytes, path, true);
      return parsed.ok ? undefined : parsed.problems.join("\n  ");
    },

    summarizeConfig(kind, bytes) {
      if (kind !== MCP_TRUST.kind) return undefined;
      // Named as the run's own review names it: each server says it is from .hel/mcp.json.
      const parsed = parseMcpConfig(bytes, CONFIG_PATH, true);
      return parsed.ok ? summarizeServers(parsed.servers) : undefined;
    },

    async setup(host: Host): Promise<PluginHooks | void> {
      const trace: Trace = (data) => host.emit({ type: "trace", channel: MCP_TRACE, data });
      const warn = (text: string) => host.emit({ type: "warning", text });
      const { servers: configured, notes } = await serversForRun(host, trace, warn);
      if (configured.length === 0) return { status: () => notes };

      const { startupMs, shutdownWaitMs } = timings(options, host);
      const launcher = createLauncher(host, await sandboxSettingsFor(host));
      for (const server of configured.filter((s) => !s.remote && !launcher.sandboxed(s))) {
        warn(
          `MCP server ${server.name} runs outside the sandbox (${
            server.sandbox ? "--sandbox off" : `"sandbox": false in ${server.file}`
          }), with your rights and whatever project code it loads`,
        );
      }
      // The MCP SDK (its schemas) loads only now, with a server to start: a run without servers,
      // and every other command, does without it.
      const [{ clientFeatures }, { listChanges }, { McpRun }] = await Promise.all([
        import("./features.ts"),
        import("./list_changes.ts"),
        import("./mcp_run.ts"),
      ]);
      const lists = listChanges();
      const group = new ServerGroup({
        project: host.project,
        launcher,
        startupMs,
        shutdownWaitMs,
        trace,
        features: [
          ...clientFeatures({ project: host.project, warn, askForm: host.askForm }),
          lists,
        ],
      });
      // Registered before any server starts: Ctrl-C during start-up must stop them too.
      host.onShutdown(() => group.shutdownAll());
      const states = await group.startAll(configured);
      const connected = states.flatMap((state) => state.status === "connected" ? [state] : []);
      for (const state of states) {
        if (state.status === "skipped") warn(`MCP server ${state.name} skipped: ${state.reason}`);
      }
      const servers = states.map((state): ServerStatus =>
        state.status === "connected"
          ? {
            name: state.name,
            status: "connected",
            connected: () => state.connection.connected,
            restarts: () => state.connection.restarts,
          }
          : state
      );
      if (connected.length === 0) {
        return { status: () => [...notes, ...serverStatusLines(servers, [], new Set())] };
      }
      const eager = eagerLoading(options, host);
      const connections = new Map(connected.map((state) => [state.name, state.connection]));
      const run = await McpRun.start(
        connected.map(({ name, tools, cut, connection }) => ({
          handle: {
            name,
            client: lists.clients.get(name)!,
            connected: () => connection.connected,
            revive: () => connection.reviveIfLost(),
          },
          tools,
          ...(cut ? { cut } : {}),
          ...(connection.config.tools ? { allow: connection.config.tools } : {}),
          trustAnnotations: connection.config.trustAnnotations === true,
          callTimeoutMs: connection.config.callTimeoutMs,
          sandboxed: launcher.sandboxed(connection.config),
        })),
        {
          reserved: new Set(host.registeredToolNames()),
          eager,
          listMs: startupMs,
          makeTool: (entry) => serverTool(entry, connections.get(entry.server)!),
          trace,
          warn,
          excluded: (items) => reportExcluded(items, trace, warn),
        },
      );
      // A server restarted by a call (restarts.ts) lists its tools again; the run takes them.
      group.onRestarted((server, listing, note) => void run.restarted(server, listing, note));
      reportAllowlists(run.tools.catalog, trace, warn);
      reportExcluded(run.tools.catalog.excluded, trace, warn);
      reportRenamed(run.tools.catalog.entries, trace);
      lists.listen((server, kind) => run.changed(server, kind));
      host.onShutdown(() => run.scheduler.close());
      const instructions = new Map(
        connected.flatMap((state) => {
          const text = state.connection.instructions;
          return text === undefined ? [] : [[state.name, text] as const];
        }),
      );
      return {
        ...modelView(run, {
          eager,
          catalogue: catalogueSettings(options, host),
          servers: connected.map((state) => state.name),
          instructions,
        }),
        status: () => [
          ...notes,
          ...serverStatusLines(servers, run.tools.catalog.entries, run.tools.loaded),
        ],
        chatCommands: () => run.chatCommands(),
      };
    },
  };
}
