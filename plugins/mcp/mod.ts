/**
 * The MCP connector: stdio servers from the person's `$HEL_HOME/mcp.json` and the project's
 * `.hel/mcp.json` (trusted by content), started with the run, their tools listed by name in the
 * system message and loaded on demand with `load_mcp_tool`. Loaded tools run through the core's single tool-call path (hooks,
 * permissions, spilling) as class `execute` (`read` for a read-only tool of a server whose
 * annotations the person trusts).
 *
 * @module
 */
import {
  type Host,
  type Plugin,
  type PluginHooks,
  type Tool,
  toolDefinition,
  type ToolLookup,
} from "../../core/mod.ts";
import { sandboxSettingsFor } from "../../kit/mod.ts";
import { buildCatalog, systemSection, withAllowlists } from "./catalog.ts";
import { instructionsSection } from "./instructions.ts";
import type { Trace } from "./connection.ts";
import { parseMcpConfig } from "./config.ts";
import { CONFIG_PATH, MCP_TRUST } from "./config_files.ts";
import { serversForRun } from "./run_config.ts";
import { createLoadTool, LOAD_TOOL_NAME } from "./load_tool.ts";
import { createMcpCommand } from "./mcp_command.ts";
import { serverTool } from "./server_tool.ts";
import { summarizeServers } from "./summary.ts";
import { type ServerStatus, serverStatusLines } from "./status.ts";
import { unmatchedText } from "./tool_filter.ts";
import { renamedText } from "./tool_names.ts";
import { MCP_TRACE, ServerGroup } from "./servers.ts";
import { createLauncher } from "./launch.ts";
import { clientFeatures } from "./features.ts";
import {
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
    hooks: ["systemPrompt", "toolDefinitions", "lookupTool", "status", "shutdown"],
    toolNames: [LOAD_TOOL_NAME, "mcp__<server>__<tool>"],
    options: MCP_OPTIONS,
    commands: [createMcpCommand(options)],
    trustedConfigs: [MCP_TRUST],
    traceChannels: [MCP_TRACE],

    checkConfig(kind, bytes, path) {
      if (kind !== MCP_TRUST.kind) return undefined;
      const parsed = parseMcpConfig(bytes, path);
      return parsed.ok ? undefined : parsed.problems.join("\n  ");
    },

    summarizeConfig(kind, bytes) {
      if (kind !== MCP_TRUST.kind) return undefined;
      // Named as the run's own review names it: each server says it is from .hel/mcp.json.
      const parsed = parseMcpConfig(bytes, CONFIG_PATH);
      return parsed.ok ? summarizeServers(parsed.servers) : undefined;
    },

    async setup(host: Host): Promise<PluginHooks | void> {
      const trace: Trace = (data) => host.emit({ type: "trace", channel: MCP_TRACE, data });
      const warn = (text: string) => host.emit({ type: "warning", text });
      const { servers: configured, notes } = await serversForRun(host, trace, warn);
      if (configured.length === 0) return { status: () => notes };

      const { startupMs, shutdownWaitMs } = timings(options, host);
      const launcher = createLauncher(host, await sandboxSettingsFor(host));
      for (const server of configured.filter((server) => !launcher.sandboxed(server))) {
        warn(
          `MCP server ${server.name} runs outside the sandbox (${
            server.sandbox ? "--sandbox off" : `"sandbox": false in ${server.file}`
          }), with your rights and whatever project code it loads`,
        );
      }
      const group = new ServerGroup({
        project: host.project,
        launcher,
        startupMs,
        shutdownWaitMs,
        trace,
        features: clientFeatures({ project: host.project, warn, askForm: host.askForm }),
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
          ? { name: state.name, status: "connected", connected: () => state.connection.connected }
          : state
      );
      if (connected.length === 0) {
        return { status: () => [...notes, ...serverStatusLines(servers, [], new Set())] };
      }
      const catalog = await buildCatalog(
        withAllowlists(connected, configured),
        new Set(host.registeredToolNames()),
      );
      // Tools an allowlist leaves out are counted, never warned about one by one; an entry that
      // matched nothing is warned about, since a typo would otherwise silently offer nothing.
      for (const [server, leftOut] of catalog.leftOut) {
        const unmatched = catalog.unmatched.filter((item) => item.server === server);
        trace({
          event: "tools_filter",
          server,
          left_out: leftOut,
          unmatched: unmatched.map((item) => item.entry),
        });
        for (const item of unmatched) warn(unmatchedText(item));
      }
      for (const item of catalog.excluded) {
        trace({
          event: "tool_excluded",
          server: item.server,
          tool: item.toolName,
          reason: item.reason,
        });
        warn(
          `MCP tool ${
            JSON.stringify(item.toolName)
          } of server ${item.server} excluded: ${item.reason}`,
        );
      }
      // A hashed name is the model's only name for the tool: the trace keeps which tool it is.
      for (const entry of catalog.entries.filter((entry) => entry.renamed)) {
        trace({
          event: "tool_renamed",
          server: entry.server,
          tool: entry.toolName,
          name: entry.fullName,
          reason: renamedText(entry.renamed!, entry.server, entry.toolName),
        });
      }
      const connections = new Map(connected.map((state) => [state.name, state.connection]));
      const tools = new Map<string, Tool>();
      for (const entry of catalog.entries) {
        tools.set(entry.fullName, serverTool(entry, connections.get(entry.server)!));
      }
      const loaded = new Set<string>();
      const loadTool = createLoadTool(catalog, loaded);
      // Definitions are asked for on every request; each is built once.
      const definitions = new Map(
        [loadTool, ...tools.values()].map((tool) => [tool.name, toolDefinition(tool)]),
      );
      const eager = eagerLoading(options, host);
      if (eager) { for (const name of tools.keys()) loaded.add(name); }
      const instructions = new Map(
        connected.flatMap((state) => {
          const text = state.connection.instructions;
          return text === undefined ? [] : [[state.name, text] as const];
        }),
      );
      // Eager loading puts every definition in the tool list, so only the instructions remain.
      const parts = [
        eager ? undefined : systemSection(catalog.entries),
        instructionsSection(instructions),
      ]
        .filter((part) => part !== undefined);
      // Built once: the listing goes into the system message only at start and on resume.
      const section = parts.length > 0 ? parts.join("\n\n") : undefined;
      return {
        systemPrompt: () => section,
        status: () => [...notes, ...serverStatusLines(servers, catalog.entries, loaded)],
        toolDefinitions() {
          const names = eager ? [...loaded] : [LOAD_TOOL_NAME, ...loaded];
          return names.map((name) => definitions.get(name)!);
        },
        lookupTool(name): ToolLookup | undefined {
          if (name === LOAD_TOOL_NAME) return { kind: "tool", tool: loadTool };
          const tool = tools.get(name);
          if (!tool) return undefined;
          if (loaded.has(name)) return { kind: "tool", tool };
          return {
            kind: "not-loaded",
            message: `${name} is not loaded; call load_mcp_tool with this name first`,
          };
        },
      };
    },
  };
}
