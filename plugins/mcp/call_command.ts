/**
 * `hel mcp call SERVER TOOL [JSON]`: one tool of one configured server, called without a
 * model, for scripts, debugging and conformance checks. It starts only that server, under the
 * rules `hel mcp list` follows (the person's file as it is, the project's only once trusted;
 * it never asks), checks the arguments against the tool's inputSchema, calls it and prints the
 * result as the model would read it (result.ts), server text escaped for the terminal: the
 * answer on stdout and exit 0, an error result on stderr and exit 1, a mistake in the command
 * (a server or tool that is not there, arguments that do not fit) exit 2.
 *
 * @module
 */
import { errorMessage, isRecord, type PluginContext } from "../../core/mod.ts";
import { escapeControlCharacters, sandboxSettingsFor, writeErr, writeOut } from "../../kit/mod.ts";
import { buildCatalog, type CatalogEntry, withAllowlists } from "./catalog.ts";
import type { ServerConfig } from "./config.ts";
import { CONFIG_PATH, MCP_TRUST, mergeServers, readMcpConfigs } from "./config_files.ts";
import { createLauncher } from "./launch.ts";
import { clientFeatures } from "./features.ts";
import { type McpPluginOptions, timings } from "./options.ts";
import { resultConverter } from "./server_tool.ts";
import { ServerGroup, type ServerState } from "./servers.ts";

/** What `hel mcp call` was given. */
export interface CallRequest {
  server: string;
  /** The server's name for the tool, or its model-facing `mcp__<server>__<tool>`. */
  tool: string;
  /** The arguments as one JSON object; none is `{}`. */
  json?: string;
  /** A server given on the command line (`--url`), used instead of the files' `server`. */
  given?: ServerConfig;
}

const fail = (text: string, code: number) => {
  writeErr(`hel mcp call: ${escapeControlCharacters(text)}\n`);
  return code;
};

/** Server text for the terminal: controls and invisibles escaped, CRLF line ends as LF. */
const shown = (text: string) => escapeControlCharacters(text.replaceAll("\r\n", "\n"));

/** Runs `hel mcp call`; returns the exit code. */
export async function callTool(
  request: CallRequest,
  options: McpPluginOptions,
  context: PluginContext,
): Promise<number> {
  const args = parseArguments(request.json);
  if (typeof args === "string") return fail(args, 2);
  // A server given with --url was typed by the person: no file, no trust question.
  const config = request.given ?? await configuredServer(request.server, context);
  if (typeof config === "string") return fail(config, 2);
  const launcher = createLauncher(context, await sandboxSettingsFor(context));
  if (!config.remote && !launcher.sandboxed(config)) {
    writeErr(
      `hel mcp call: warning: MCP server ${config.name} runs outside the sandbox (${
        config.sandbox ? "--sandbox off" : `"sandbox": false in ${config.file}`
      }), with your rights and whatever project code it loads\n`,
    );
  }
  const group = new ServerGroup({
    project: context.project,
    launcher,
    ...timings(options, context),
    trace: () => {},
    features: clientFeatures({
      project: context.project,
      warn: (text) => writeErr(`hel: warning: ${escapeControlCharacters(text)}\n`),
      askForm: context.askForm,
    }),
  });
  const controller = new AbortController();
  let calling = false;
  // Ctrl-C cancels a call in flight (the server is told); before it, it stops the servers.
  const onInterrupt = () => {
    controller.abort();
    if (!calling) void group.shutdownAll().finally(() => Deno.exit(130));
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    const [state] = await group.startAll([config]);
    if (state!.status !== "connected") {
      return fail(`MCP server ${config.name} did not start: ${state!.reason}`, 1);
    }
    const entry = await toolEntry(state!, config, request.tool);
    if (typeof entry === "string") return fail(entry, 2);
    const unusable = entry.compileCheck?.();
    if (unusable !== undefined) {
      return fail(`tool "${entry.toolName}" of ${config.name} cannot be called: ${unusable}`, 2);
    }
    const checked = entry.check(args);
    if (!checked.ok) {
      return fail(
        `the arguments do not fit ${entry.toolName}'s inputSchema: ${checked.problems.join("; ")}`,
        2,
      );
    }
    calling = true;
    const result = await state!.connection.call(
      entry.toolName,
      checked.args,
      controller.signal,
      resultConverter(entry),
    );
    if (controller.signal.aborted) return fail(result.text, 130);
    if (!result.ok) {
      writeErr(`error: ${shown(result.text)}\n`);
      return 1;
    }
    writeOut(`${shown(result.text)}\n`);
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await group.shutdownAll();
  }
}

/** The arguments object, or what is wrong with the JSON. */
function parseArguments(json: string | undefined): Record<string, unknown> | string {
  if (json === undefined || json.trim() === "") return {};
  const example = `give one JSON object, e.g. '{"path": "README.md"}'`;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return `the arguments are not valid JSON (${errorMessage(error)}); ${example}`;
  }
  return isRecord(value) ? value : `the arguments must be a JSON object; ${example}`;
}

/** The server a run would start under `name`, or why there is none to start. */
export async function configuredServer(
  name: string,
  context: PluginContext,
): Promise<ServerConfig | string> {
  const [user, project] = await readMcpConfigs(context.helHome, context.project);
  const fromProject = project.kind === "ok" ? project.servers : [];
  const trusted = project.kind !== "ok" || fromProject.length === 0 ||
    await context.trust.isTrusted(MCP_TRUST.kind, context.project, project.bytes);
  const servers = mergeServers(
    user.kind === "ok" ? user.servers : [],
    trusted ? fromProject : [],
  ).servers;
  const found = servers.find((server) => server.name === name);
  if (found) return found;
  if (!trusted && project.kind === "ok" && fromProject.some((server) => server.name === name)) {
    return `${CONFIG_PATH} (sha256 ${project.sha256}) is not trusted for this project, so ` +
      `server ${name} does not start. Review it with "hel trust mcp", or pin these bytes with ` +
      `"hel trust mcp --sha256 ${project.sha256}"`;
  }
  const broken = [user, project].flatMap((file) =>
    file.kind === "invalid"
      ? [`${file.path} is invalid (see "hel mcp list")`]
      : file.kind === "unusable"
      ? [file.message]
      : []
  );
  const known = servers.map((server) => server.name);
  return `no MCP server named ${JSON.stringify(name)}; ` +
    (known.length > 0 ? `configured: ${known.join(", ")}` : "none is configured") +
    (broken.length > 0 ? `; ${broken.join("; ")}` : "");
}

/** The tool as a run would offer it, by either of its names; or why it is not offered. */
async function toolEntry(
  state: Extract<ServerState, { status: "connected" }>,
  config: ServerConfig,
  name: string,
): Promise<CatalogEntry | string> {
  const catalog = await buildCatalog(withAllowlists([state]), new Set());
  const entry = catalog.entries.find((item) => item.toolName === name || item.fullName === name);
  if (entry) return entry;
  const excluded = catalog.excluded.find((item) => item.toolName === name);
  if (excluded) {
    return `tool ${JSON.stringify(name)} of ${config.name} is excluded: ${excluded.reason}`;
  }
  const listed = state.tools.some((tool) => (tool as { name?: unknown })?.name === name);
  if (listed) {
    return `tool ${JSON.stringify(name)} of ${config.name} is left out by its "tools" list in ` +
      config.file;
  }
  const names = catalog.entries.map((item) => item.toolName);
  const shown = names.length > 20
    ? [...names.slice(0, 20), `and ${names.length - 20} more`]
    : names;
  return `MCP server ${config.name} has no tool ${JSON.stringify(name)}; its tools: ` +
    (names.length > 0 ? shown.join(", ") : "none");
}
