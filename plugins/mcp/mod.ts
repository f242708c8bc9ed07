/**
 * The MCP connector: stdio servers from `.hel/mcp.json`, trusted by content, started with the
 * run, their tools listed by name in the system message and loaded on demand with
 * `load_mcp_tool`. Loaded tools run through the core's single tool-call path (hooks,
 * permissions, spilling) as class `execute`.
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
import { reviewTrust } from "../../kit/mod.ts";
import { sandboxSettingsFor } from "../../kit/mod.ts";
import { buildCatalog, systemSection, withAllowlists } from "./catalog.ts";
import { instructionsSection } from "./instructions.ts";
import type { Trace } from "./connection.ts";
import { parseMcpConfig } from "./config.ts";
import { createLoadTool, LOAD_TOOL_NAME } from "./load_tool.ts";
import { createListCommand } from "./list_command.ts";
import { serverTool } from "./server_tool.ts";
import { summarizeServers } from "./summary.ts";
import { type ServerStatus, serverStatusLines } from "./status.ts";
import { unmatchedText } from "./tool_filter.ts";
import { CONFIG_PATH, MCP_TRACE, MCP_TRUST, readMcpConfig, ServerGroup } from "./servers.ts";
import { createLauncher } from "./launch.ts";
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
    description: "MCP servers from .hel/mcp.json; their tools are loaded on demand",
    hooks: ["systemPrompt", "toolDefinitions", "lookupTool", "status", "shutdown"],
    toolNames: [LOAD_TOOL_NAME, "mcp__<server>__<tool>"],
    options: MCP_OPTIONS,
    commands: [createListCommand(options)],
    trustedConfigs: [MCP_TRUST],
    traceChannels: [MCP_TRACE],

    checkConfig(kind, bytes, path) {
      if (kind !== MCP_TRUST.kind) return undefined;
      const parsed = parseMcpConfig(bytes, path);
      return parsed.ok ? undefined : parsed.problems.join("\n  ");
    },

    summarizeConfig(kind, bytes, path) {
      if (kind !== MCP_TRUST.kind) return undefined;
      const parsed = parseMcpConfig(bytes, path);
      return parsed.ok ? summarizeServers(parsed.servers) : undefined;
    },

    async setup(host: Host): Promise<PluginHooks | void> {
      const trace: Trace = (data) => host.emit({ type: "trace", channel: MCP_TRACE, data });
      const warn = (text: string) => host.emit({ type: "warning", text });
      // Without servers the plugin still says why, when the person asks (/mcp).
      const idle = (line: string): PluginHooks => ({ status: () => [line] });
      const file = await readMcpConfig(host.project);
      if (file.kind === "absent") return idle(`no MCP servers: ${CONFIG_PATH} does not exist`);
      if (file.kind === "unusable") {
        trace({ event: "config", status: "unusable", message: file.message });
        warn(`${file.message}; no MCP server was started`);
        return idle(`no MCP server was started: ${file.message}`);
      }
      if (file.kind === "invalid") {
        trace({ event: "config", status: "invalid", problems: file.problems });
        warn(
          `${CONFIG_PATH} is invalid, so no MCP server was started:\n  ${
            file.problems.join("\n  ")
          }`,
        );
        return idle(`no MCP server was started: ${CONFIG_PATH} is invalid`);
      }
      if (file.servers.length === 0) return idle(`no MCP servers: ${CONFIG_PATH} lists none`);
      const summary = summarizeServers(file.servers);
      const trust = await reviewTrust(host, MCP_TRUST, CONFIG_PATH, file.bytes, summary);
      trace({ event: "config", status: trust, sha256: file.sha256, servers: file.servers.length });
      const untrusted = idle(
        `no MCP server was started: ${CONFIG_PATH} is not trusted (review it with "hel trust mcp")`,
      );
      if (trust === "refused") {
        warn(
          `you did not trust ${CONFIG_PATH}, so no MCP server was started; hel asks again on ` +
            `the next run, or review it now with "hel trust mcp"`,
        );
        return untrusted;
      }
      if (trust === "no-terminal") {
        warn(
          `${CONFIG_PATH} is not trusted for this project and there is no terminal to ask, so ` +
            `no MCP server was started. Review it with "hel trust mcp" on a terminal, or pin ` +
            `these exact bytes with "hel trust mcp --sha256 ${file.sha256}"`,
        );
        return untrusted;
      }

      const { startupMs, shutdownWaitMs } = timings(options, host);
      const launcher = createLauncher(host, await sandboxSettingsFor(host));
      for (const server of file.servers.filter((server) => !launcher.sandboxed(server))) {
        warn(
          `MCP server ${server.name} runs outside the sandbox (${
            server.sandbox ? "--sandbox off" : `"sandbox": false in ${CONFIG_PATH}`
          }), with your rights and whatever project code it loads`,
        );
      }
      const group = new ServerGroup({
        project: host.project,
        launcher,
        startupMs,
        shutdownWaitMs,
        trace,
      });
      // Registered before any server starts: Ctrl-C during start-up must stop them too.
      host.onShutdown(() => group.shutdownAll());
      const states = await group.startAll(file.servers);
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
        return { status: () => serverStatusLines(servers, [], new Set()) };
      }
      const catalog = await buildCatalog(
        withAllowlists(connected, file.servers),
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
        status: () => serverStatusLines(servers, catalog.entries, loaded),
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
