/**
 * How `hel mcp list` and `hel mcp get` write a server's entry: its command line as a shell
 * would need it typed, and its call timeout with what progress reports can stretch it to.
 *
 * @module
 */
import { callMaximumMs, type ServerConfig } from "./config.ts";

/** The program and its arguments, each quoted only when a shell would need it. */
export function commandText(server: Pick<ServerConfig, "command" | "args">): string {
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
