/**
 * `hel mcp list`: the one place to look when a server does not work. It reads both
 * configuration files, says whether the project's is trusted (it never asks; `hel trust mcp`
 * does), starts the servers a run would start, and prints each one's status, the file it comes
 * from, its tools (with the server's own names and their annotations: list_tool.ts) and the
 * tools it excluded and why.
 *
 * @module
 */
import type { PluginContext } from "../../core/mod.ts";
import { escapeControlCharacters, writeErr, writeOut } from "../../kit/mod.ts";
import { listingCutText } from "./listing_budget.ts";
import { sandboxSettingsFor } from "../../kit/mod.ts";
import { buildCatalog, withAllowlists } from "./catalog.ts";
import type { ServerConfig } from "./config.ts";
import {
  clashText,
  CONFIG_PATH,
  MCP_TRUST,
  type McpConfigFile,
  mergeServers,
  readMcpConfigs,
} from "./config_files.ts";
import { callTimeoutText, commandText, remoteLines } from "./describe.ts";
import { ServerGroup } from "./servers.ts";
import { createLauncher, type Launcher } from "./launch.ts";
import { unmatchedText } from "./tool_filter.ts";
import { type McpPluginOptions, timings } from "./options.ts";
import { shownEnvName } from "./server_env.ts";
import { listChanges } from "./list_changes.ts";
import { extraLines } from "./list_extras.ts";
import { clientFeatures } from "./features.ts";
import { toolLines } from "./list_tool.ts";
import { type LoginState, loginState, loginText } from "./login_state.ts";
import {
  asciiJson,
  fileJson,
  type ListJson,
  serverJson,
  untrustedServerJson,
} from "./list_json.ts";

/**
 * Prints each file's state, starts the servers a run would start (the person's, and the
 * project's once trusted) and prints each one's status; 1 when anything does not work. With
 * `json` the same facts are one JSON object on stdout (list_json.ts), and no lines.
 */
export async function listServers(
  options: McpPluginOptions,
  context: PluginContext,
  format: "text" | "json" = "text",
  given?: ServerConfig,
): Promise<number> {
  // A server given with --url: the person typed it, so no file and no trust question.
  const show = given
    ? (report?: ListJson) =>
      startAndShow(options, context, [given], report).then((ok) => ok ? 0 : 1)
    : (report?: ListJson) => listAndShow(options, context, report);
  if (format === "text") return await show();
  const report: ListJson = { ok: true, files: [], clashes: [], servers: [] };
  printing = false;
  try {
    const code = await show(report);
    writeOut(asciiJson({ ...report, ok: code === 0 }) + "\n");
    return code;
  } finally {
    printing = true;
  }
}

async function listAndShow(
  options: McpPluginOptions,
  context: PluginContext,
  report?: ListJson,
): Promise<number> {
  const [user, project] = await readMcpConfigs(context.helHome, context.project);
  if (user.kind === "absent" && project.kind === "absent") {
    report?.files.push(fileJson(user), fileJson(project));
    print(
      `No MCP servers: neither ${user.path} nor ${CONFIG_PATH} exists in ${context.project}. ` +
        "Add one with: hel mcp add NAME -- COMMAND [ARGS...]",
    );
    return 0;
  }
  let working = true;
  const userServers = fileState(user);
  let projectServers = fileState(project);
  if (userServers === undefined || projectServers === undefined) working = false;
  const trusted = project.kind === "ok" && project.servers.length > 0
    ? await context.trust.isTrusted(MCP_TRUST.kind, context.project, project.bytes)
    : undefined;
  report?.files.push(fileJson(user), fileJson(project, trusted));
  if (project.kind === "ok" && trusted === false) {
    print(
      `${CONFIG_PATH} (sha256 ${project.sha256}) is not trusted for this project, so no server ` +
        `was started from it. Review it with "hel trust mcp", or pin these bytes with ` +
        `"hel trust mcp --sha256 ${project.sha256}".`,
    );
    for (const server of project.servers) {
      print(`${server.name}: untrusted (${commandText(server)})`);
      report?.servers.push(untrustedServerJson(server));
    }
    projectServers = [];
    working = false;
  } else if (project.kind === "ok" && project.servers.length > 0) {
    print(`${CONFIG_PATH}: trusted (sha256 ${project.sha256})`);
  }
  const merged = mergeServers(userServers ?? [], projectServers ?? []);
  for (const clash of merged.clashes) print(`warning: ${clashText(clash)}`);
  report?.clashes.push(...merged.clashes.map((clash) => clash.name));
  if (merged.servers.length === 0) return working ? 0 : 1;
  return await startAndShow(options, context, merged.servers, report) && working ? 0 : 1;
}

/** False while `--json` builds its object: the lines are not printed then. */
let printing = true;
const print = (text: string) => {
  if (printing) writeOut(escapeControlCharacters(text) + "\n");
};
/** What servers say while listed (their error log messages) goes to stderr, not the listing. */
const warn = (text: string) => writeErr(`hel: warning: ${escapeControlCharacters(text)}\n`);

/** Says what is wrong with a file that cannot be used; its servers, or undefined then. */
function fileState(file: McpConfigFile): ServerConfig[] | undefined {
  switch (file.kind) {
    case "absent":
      return [];
    case "unusable":
      print(`${file.message}; no MCP server can start from it.`);
      return undefined;
    case "invalid":
      print(`${file.path} is invalid, so no MCP server can start from it:`);
      for (const problem of file.problems) print(`  ${problem}`);
      return undefined;
    case "ok":
      if (file.servers.length === 0) print(`${file.path} lists no servers.`);
      else if (file.scope === "user") {
        print(`${file.path}: your own file, used without a trust question`);
      }
      return file.servers;
  }
}

/** Starts the servers and prints each one's state; false when one did not start. */
async function startAndShow(
  options: McpPluginOptions,
  context: PluginContext,
  servers: ServerConfig[],
  report?: ListJson,
): Promise<boolean> {
  const launcher = createLauncher(context, await sandboxSettingsFor(context));
  const lists = listChanges();
  const group = new ServerGroup({
    project: context.project,
    launcher,
    ...timings(options, context),
    trace: () => {},
    features: [
      ...clientFeatures({ project: context.project, warn, askForm: context.askForm }),
      lists,
    ],
  });
  // Ctrl-C while servers start or answer: stop them before leaving.
  const onInterrupt = () => void group.shutdownAll().finally(() => Deno.exit(130));
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    const states = await group.startAll(servers);
    const connected = states.flatMap((state) => state.status === "connected" ? [state] : []);
    const catalog = await buildCatalog(withAllowlists(connected), new Set());
    // Read after the start, so a token a connection just renewed shows as it is now.
    const logins = new Map<string, LoginState | undefined>();
    for (const config of servers) {
      logins.set(config.name, await loginState(context.helHome, config));
    }
    for (const state of states) {
      const config = servers.find((server) => server.name === state.name)!;
      const login = logins.get(config.name);
      const loginLine = login && loginText(login, config);
      if (state.status === "skipped") {
        print(`${state.name}: skipped: ${state.reason}`);
        for (const line of entryLines(launcher, config, loginLine)) print(line);
        continue;
      }
      const usable = catalog.entries.filter((entry) => entry.server === state.name);
      const excluded = catalog.excluded.filter((item) => item.server === state.name);
      const leftOut = catalog.leftOut.get(state.name);
      print(
        `${state.name}: connected, ${usable.length} tool${usable.length === 1 ? "" : "s"}` +
          (excluded.length > 0 ? `, ${excluded.length} excluded` : "") +
          (leftOut !== undefined ? `, ${leftOut} left out by "tools"` : "") +
          `, call timeout ${callTimeoutText(config.callTimeoutMs)}`,
      );
      for (const line of entryLines(launcher, config, loginLine)) print(line);
      if (state.cut) print(`  warning: ${listingCutText(state.name, state.cut)}`);
      if (config.tools) print(`  tools: ${config.tools.map((t) => JSON.stringify(t)).join(", ")}`);
      if (config.trustAnnotations) {
        print(
          '  annotations: trusted ("trustAnnotations": true): readOnlyHint tools count as reads',
        );
      }
      for (const entry of usable) for (const line of toolLines(entry)) print(line);
      for (const item of excluded) {
        print(`  excluded ${JSON.stringify(item.toolName)}: ${item.reason}`);
      }
      for (const item of catalog.unmatched.filter((u) => u.server === state.name)) {
        print(`  warning: ${unmatchedText(item)}`);
      }
      const handle = {
        name: state.name,
        client: lists.clients.get(state.name)!,
        connected: () => state.connection.connected,
      };
      // Resources and prompts are in the lines only (--json has tools).
      if (printing) {
        for (const line of await extraLines(handle, timings(options, context).startupMs)) {
          print(line);
        }
      }
    }
    for (const state of states) {
      const config = servers.find((server) => server.name === state.name)!;
      report?.servers.push(serverJson(state, config, catalog, launcher, logins.get(config.name)));
    }
    return connected.length === states.length;
  } finally {
    await group.shutdownAll();
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

/** What it runs or where it connects, where it comes from, and what it gets of your environment. */
function entryLines(launcher: Launcher, config: ServerConfig, login?: string): string[] {
  if (config.remote) {
    return remoteLines(config.remote, config.file, launcher.variableNames(config), login);
  }
  return [
    `  command: ${commandText(config)}`,
    `  from: ${config.file}`,
    ...launchLines(launcher, config),
  ];
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
