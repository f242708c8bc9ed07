/**
 * `hel mcp list`: the one place to look when a server does not work. It reads the
 * configuration, says whether it is trusted (it never asks; `hel trust mcp` does), starts the
 * trusted servers, and prints each one's status, its tools and the tools it excluded and why.
 *
 * @module
 */
import type { PluginCommand, PluginContext } from "../../core/mod.ts";
import { escapeControlCharacters, writeErr, writeOut } from "../../kit/mod.ts";
import { sandboxSettingsFor } from "../../kit/mod.ts";
import { buildCatalog, listingLine, modelName, withAllowlists } from "./catalog.ts";
import { callMaximumMs, type ServerConfig } from "./config.ts";
import { CONFIG_PATH, MCP_TRUST, readMcpConfig, ServerGroup } from "./servers.ts";
import { createLauncher, type Launcher } from "./launch.ts";
import { unmatchedText } from "./tool_filter.ts";
import { type McpPluginOptions, timings } from "./options.ts";
import { shownEnvName } from "./server_env.ts";

/** The `hel mcp` command. */
export function createListCommand(options: McpPluginOptions): PluginCommand {
  return {
    name: "mcp",
    description: "show the project's MCP servers, their status and their tools",
    usage: "list",
    async run(args, context) {
      if (args.length !== 1 || args[0] !== "list") {
        writeErr("hel: usage: hel mcp list\n");
        return 2;
      }
      return await list(options, context);
    },
  };
}

async function list(options: McpPluginOptions, context: PluginContext): Promise<number> {
  const print = (text: string) => writeOut(escapeControlCharacters(text) + "\n");
  const file = await readMcpConfig(context.project);
  if (file.kind === "absent") {
    print(`No MCP servers: ${CONFIG_PATH} does not exist in ${context.project}.`);
    return 0;
  }
  if (file.kind === "unusable") {
    print(`${file.message}; no MCP server can start.`);
    return 1;
  }
  if (file.kind === "invalid") {
    print(`${CONFIG_PATH} is invalid, so no MCP server can start:`);
    for (const problem of file.problems) print(`  ${problem}`);
    return 1;
  }
  if (file.servers.length === 0) {
    print(`${CONFIG_PATH} lists no servers.`);
    return 0;
  }
  const command = (server: { command: string; args: string[] }) =>
    [server.command, ...server.args].map((word) =>
      /^[\w./:=@+-]+$/.test(word) ? word : JSON.stringify(word)
    )
      .join(" ");
  if (!await context.trust.isTrusted(MCP_TRUST.kind, context.project, file.bytes)) {
    print(
      `${CONFIG_PATH} (sha256 ${file.sha256}) is not trusted for this project, so no server ` +
        `was started. Review it with "hel trust mcp", or pin these bytes with ` +
        `"hel trust mcp --sha256 ${file.sha256}".`,
    );
    for (const server of file.servers) print(`${server.name}: untrusted (${command(server)})`);
    return 1;
  }

  print(`${CONFIG_PATH}: trusted (sha256 ${file.sha256})`);
  const launcher = createLauncher(context, await sandboxSettingsFor(context));
  const group = new ServerGroup({
    project: context.project,
    launcher,
    ...timings(options, context),
    trace: () => {},
  });
  // Ctrl-C while servers start or answer: stop them before leaving.
  const onInterrupt = () => void group.shutdownAll().finally(() => Deno.exit(130));
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    const states = await group.startAll(file.servers);
    const connected = states.flatMap((state) => state.status === "connected" ? [state] : []);
    const catalog = await buildCatalog(withAllowlists(connected, file.servers), new Set());
    for (const state of states) {
      const config = file.servers.find((server) => server.name === state.name)!;
      if (state.status === "skipped") {
        print(`${state.name}: skipped: ${state.reason}`);
        print(`  command: ${command(config)}`);
        for (const line of launchLines(launcher, config)) print(line);
        continue;
      }
      const usable = catalog.entries.filter((entry) => entry.server === state.name);
      const excluded = catalog.excluded.filter((item) => item.server === state.name);
      const leftOut = catalog.leftOut.get(state.name);
      print(
        `${state.name}: connected, ${usable.length} tool${usable.length === 1 ? "" : "s"}` +
          (excluded.length > 0 ? `, ${excluded.length} excluded` : "") +
          (leftOut !== undefined ? `, ${leftOut} left out by "tools"` : "") +
          `, call timeout ${config.callTimeoutMs / 1000} s` + progressNote(config.callTimeoutMs),
      );
      print(`  command: ${command(config)}`);
      for (const line of launchLines(launcher, config)) print(line);
      if (config.tools) print(`  tools: ${config.tools.map((t) => JSON.stringify(t)).join(", ")}`);
      for (const entry of usable) {
        // A `tools` list names the server's own tool names, which the model-facing name may hide.
        const own = modelName(entry.server, entry.toolName).endsWith(`__${entry.toolName}`)
          ? ""
          : ` (server's name: ${JSON.stringify(entry.toolName)})`;
        print(`  ${listingLine(entry)}${own}`);
      }
      for (const item of excluded) {
        print(`  excluded ${JSON.stringify(item.toolName)}: ${item.reason}`);
      }
      for (const item of catalog.unmatched.filter((u) => u.server === state.name)) {
        print(`  warning: ${unmatchedText(item)}`);
      }
    }
    return connected.length === states.length ? 0 : 1;
  } finally {
    await group.shutdownAll();
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

/** Whether the server is sandboxed, and the names (never the values) of its variables. */
function launchLines(launcher: Launcher, config: ServerConfig): string[] {
  const { names, unset } = launcher.variableNames(config);
  const own = names.filter((name) => name in config.env);
  return [
    launcher.sandboxed(config)
      ? "  sandbox: on"
      : "  sandbox: OFF: runs with your rights and whatever project code it loads" +
        (config.sandbox ? " (--sandbox off)" : ' ("sandbox": false)'),
    `  environment: from its "env": ${
      own.length > 0
        ? own.map((name) => shownEnvName(name, config.env[name]!)).join(", ")
        : "nothing"
    }` +
    (unset.length > 0 ? `; not set in hel's environment, so not passed: ${unset.join(", ")}` : "") +
    `; base: ${names.filter((name) => !own.includes(name)).join(", ")}`,
  ];
}

/** How far progress reports can stretch a call, when they can (see callMaximumMs). */
function progressNote(callTimeoutMs: number): string {
  const maximumMs = callMaximumMs(callTimeoutMs);
  return maximumMs > callTimeoutMs
    ? ` (up to ${maximumMs / 1000} s while it reports progress)`
    : "";
}
