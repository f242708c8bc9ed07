/**
 * What hel says when a server fails to start: how it ended, and what to try when it missed the
 * startup deadline.
 *
 * @module
 */

/** Launchers that fetch the server on first use, which can outlast the startup time. */
const FETCHING_LAUNCHERS = new Set(["npx", "uvx", "bunx", "pnpx", "pipx", "docker", "podman"]);

/** What to try when a server missed the startup deadline. */
export function slowStartHint(
  { command, remote }: { command: string; remote?: { url: string } },
): string {
  if (remote) {
    return `Check that ${remote.url} answers MCP (a slow server can be given longer with ` +
      "--mcp-startup-timeout SECONDS)";
  }
  const program = command.split("/").pop() ?? command;
  return FETCHING_LAUNCHERS.has(program)
    ? `A first ${program} run may still be downloading the server: run the command once by ` +
      "hand, then start hel again, or give it longer with --mcp-startup-timeout SECONDS"
    : "Run the command by hand to check that it answers MCP on its standard output";
}

/** "it exited with code 1", "it was ended by SIGKILL". */
export function exitText(exit: { code: number; signal: string | null }): string {
  return exit.signal ? `it was ended by ${exit.signal}` : `it exited with code ${exit.code}`;
}
