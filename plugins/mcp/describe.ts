/**
 * How `hel mcp list` and `hel mcp get` write a server's entry: its command line as a shell
 * would need it typed, and its call timeout with what progress reports can stretch it to.
 *
 * @module
 */
import { callMaximumMs, type ServerConfig } from "./config.ts";
import { shownOAuth } from "./oauth_shown.ts";
import { type RemoteServer, shownHeaders, transportText } from "./remote_config.ts";

/** The program and its arguments, each quoted only when a shell would need it. */
export function commandText(server: Pick<ServerConfig, "command" | "args" | "remote">): string {
  if (server.remote) return server.remote.url;
  return [server.command, ...server.args]
    .map((word) => /^[\w./:=@+-]+$/.test(word) ? word : JSON.stringify(word))
    .join(" ");
}

/** `300 s (up to 3000 s while it reports progress)`: see callMaximumMs. */
export function callTimeoutText(callTimeoutMs: number): string {
  const maximumMs = callMaximumMs(callTimeoutMs);
  return `${callTimeoutMs / 1000} s` +
    (maximumMs > callTimeoutMs ? ` (up to ${maximumMs / 1000} s while it reports progress)` : "");
}

/**
 * A remote server's lines in `hel mcp list`: its address and transport, where the entry comes
 * from, that nothing runs (so nothing is sandboxed), the headers it is sent with the variables
 * they come from, what its OAuth settings send where (names only, never values) and its login
 * (`login`, login_state.ts).
 */
export function remoteLines(
  remote: RemoteServer,
  file: string,
  variables: { unset: string[] },
  login?: string,
): string[] {
  const headers = shownHeaders(remote);
  const oauth = shownOAuth(remote.oauth);
  return [
    `  url: ${remote.url}`,
    `  transport: ${transportText(remote)}`,
    `  from: ${file}`,
    "  sandbox: none needed: a remote server runs elsewhere; hel starts no program for it",
    `  headers: ${headers.length > 0 ? headers.join(", ") : "none"}` +
    (variables.unset.length > 0
      ? `; not set in your environment: ${variables.unset.join(", ")}`
      : ""),
    ...(oauth ? [`  oauth: ${oauth}`] : []),
    ...(login ? [`  login: ${login}`] : []),
  ];
}
