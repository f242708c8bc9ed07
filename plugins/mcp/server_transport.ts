/**
 * The two kinds of transport behind one connection layer (connection.ts): a server hel starts
 * (transport.ts: launched, sandboxed, its command looked up first) and a remote one
 * (remote_transport.ts: its headers' values read from your environment, its OAuth login
 * from `$HEL_HOME/mcp-auth/`). Both answer the same
 * questions (pid, exit, stderr, why it ended) and shut down the same way.
 *
 * @module
 */
import type { ServerConfig } from "./config.ts";
import { findMissingCommand } from "./find_command.ts";
import type { Launcher } from "./launch.ts";
import { loginCommand } from "./oauth_run.ts";
import { RemoteTransport } from "./remote_transport.ts";
import { StartupError } from "./startup_failure.ts";
import { ProcessTransport } from "./transport.ts";

/** A started server's transport or a remote one. */
export type ServerTransport = ProcessTransport | RemoteTransport;

/** What making a transport needs. */
export interface TransportOptions {
  project: string;
  launcher: Launcher;
  shutdownWaitMs: number;
}

/** The transport for `config`, not yet started. */
export function createTransport(config: ServerConfig, options: TransportOptions): ServerTransport {
  if (config.remote) {
    return new RemoteTransport({
      remote: config.remote,
      maxMessageBytes: config.maxMessageBytes,
      shutdownWaitMs: options.shutdownWaitMs,
      loginCommand: loginCommand(config),
    });
  }
  return new ProcessTransport({
    cwd: options.project,
    name: config.name,
    maxMessageBytes: config.maxMessageBytes,
    shutdownWaitMs: options.shutdownWaitMs,
  });
}

/**
 * Gets the transport ready to start: the program to spawn (launched as the entry and the run
 * say, and found), or the headers to send. Throws a {@link StartupError} saying what is missing.
 */
export async function prepareTransport(
  transport: ServerTransport,
  config: ServerConfig,
  options: TransportOptions,
): Promise<void> {
  if (transport instanceof RemoteTransport) {
    const headers = options.launcher.headers(config);
    if (!headers.ok) throw new StartupError(headers.reason);
    const auth = await options.launcher.auth(config);
    if (!auth.ok) throw new StartupError(auth.reason);
    transport.use(headers.headers, auth.provider);
    return;
  }
  const launch = await options.launcher.launch(config);
  if (!launch.ok) throw new StartupError(launch.reason);
  const missing = await findMissingCommand(config.command, options.project, launch.lookupEnv);
  if (missing) throw new StartupError(missing);
  transport.use({ command: launch.program, args: launch.args, env: launch.env });
}
