/**
 * `hel mcp get NAME`: one server's entry as written, from the person's file, the project's, or
 * both (saying which a run uses), and whether the project's file is trusted. It starts nothing
 * (`hel mcp list` does) and shows the names of the variables an entry sets, never their values.
 *
 * @module
 */
import type { PluginContext } from "../../core/mod.ts";
import { didYouMean, escapeControlCharacters, writeErr, writeOut } from "../../kit/mod.ts";
import type { ServerConfig } from "./config.ts";
import { CONFIG_PATH, MCP_TRUST, type McpConfigFile, readMcpConfigs } from "./config_files.ts";
import { DEFAULT_LOG_LEVEL } from "./log_level.ts";
import { callTimeoutText, commandText, remoteLines } from "./describe.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, limitText } from "./message_size.ts";
import { shownEnvNames } from "./server_env.ts";
import { loginState, loginText } from "./login_state.ts";

const print = (text: string) => writeOut(escapeControlCharacters(text) + "\n");

/** Prints the server's entries; 1 when no file defines it. */
export async function getServer(name: string, context: PluginContext): Promise<number> {
  const files = await readMcpConfigs(context.helHome, context.project);
  const found: { file: McpConfigFile & { kind: "ok" }; server: ServerConfig }[] = [];
  for (const file of files) {
    if (file.kind === "invalid" || file.kind === "unusable") {
      writeErr(
        `hel mcp: ${
          escapeControlCharacters(
            file.kind === "invalid" ? `${file.path} is invalid` : file.message,
          )
        }, so its servers are not shown; hel mcp list says what is wrong\n`,
      );
    }
    if (file.kind !== "ok") continue;
    const server = file.servers.find((s) => s.name === name);
    if (server) found.push({ file, server });
  }
  if (found.length === 0) {
    const known = files.flatMap((file) =>
      file.kind === "ok" ? file.servers.map((s) => s.name) : []
    );
    writeErr(
      `hel mcp: no MCP server ${escapeControlCharacters(name)} in ${files[0].path} or ` +
        `${CONFIG_PATH}${didYouMean(name, known)}; hel mcp list shows the servers\n`,
    );
    return 1;
  }
  for (const { file, server } of found) {
    const trust = file.scope === "user"
      ? "your own file: no trust question"
      : await context.trust.isTrusted(MCP_TRUST.kind, context.project, file.bytes)
      ? "the project's file: trusted"
      : `the project's file: not trusted, so it does not start; review it with "hel trust mcp"`;
    print(`${server.name}: from ${file.path} (${trust})`);
    // From the token store only: get reaches no server.
    const login = await loginState(context.helHome, server);
    for (const line of entryLines(server, login && loginText(login, server))) print(`  ${line}`);
  }
  if (found.length > 1) {
    print(`Both files define ${name}: a run uses the entry of ${CONFIG_PATH} while it is trusted.`);
  }
  return 0;
}

function entryLines(server: ServerConfig, login?: string): string[] {
  const common = [
    `call timeout: ${callTimeoutText(server.callTimeoutMs)}`,
    `tools: ${server.tools ? server.tools.map((t) => JSON.stringify(t)).join(", ") : "all"}`,
    `log level: ${server.logLevel ?? `${DEFAULT_LOG_LEVEL} (the default)`}`,
    ...sizeLine(server),
  ];
  // Only an entry that widens access says so; by default hints are untrusted, as everywhere.
  const annotations = server.trustAnnotations
    ? ['annotations: trusted ("trustAnnotations": true): its readOnlyHint tools count as reads']
    : [];
  if (server.remote) {
    // remoteLines is indented for hel mcp list; the caller indents these.
    return [
      ...remoteLines(server.remote, server.file, { unset: [] }, login).map((line) => line.trim())
        .filter((line) => !line.startsWith("from: ")),
      ...common,
      ...annotations,
    ];
  }
  const env = shownEnvNames(server.env);
  return [
    `command: ${commandText(server)}`,
    `environment: ${env.length > 0 ? env.join(", ") : "nothing"} (besides the base)`,
    ...common,
    server.sandbox
      ? "sandbox: on (unless hel runs with --sandbox off)"
      : 'sandbox: OFF ("sandbox": false): runs with your rights',
    ...annotations,
  ];
}

/** The entry's `maxMessageBytes`, shown only when it is not the default. */
function sizeLine(server: ServerConfig): string[] {
  if (server.maxMessageBytes === DEFAULT_MAX_MESSAGE_BYTES) return [];
  return [`largest message: ${limitText(server.maxMessageBytes)} ("maxMessageBytes")`];
}
