/**
 * MCP servers for a benchmark project: `.hel/mcp.json` naming copies of the benchmark's
 * fixture server, trusted in the project's HEL_HOME the way `hel trust mcp --sha256` records
 * it, so runs start the servers without asking.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { createTrustFileStore } from "../kit/mod.ts";

/** The benchmark's fixture server (python3, standard library only). */
export const FIXTURE_SERVER = fileURLToPath(new URL("./fixture_server.py", import.meta.url));

/** How many servers, with how many tools each and how long each takes to start. */
export interface ServerSpec {
  count: number;
  toolsPerServer: number;
  delayMs: number;
  /** False writes `"sandbox": false` into every entry (default: sandboxed, as hel does). */
  sandbox?: boolean;
}

/** The command line of one fixture server. */
export function fixtureArgs(spec: Pick<ServerSpec, "toolsPerServer" | "delayMs">): string[] {
  return [
    FIXTURE_SERVER,
    "--tools",
    String(spec.toolsPerServer),
    "--delay-ms",
    String(spec.delayMs),
  ];
}

/** Server names: `bench` for one server, `s00`..`s09` for several. */
export function serverNames(count: number): string[] {
  if (count === 1) return ["bench"];
  return Array.from({ length: count }, (_, index) => `s${String(index).padStart(2, "0")}`);
}

/** Writes and trusts `.hel/mcp.json` in `project`; no file at all for zero servers. */
export async function configureServers(project: string, home: string, spec: ServerSpec) {
  if (spec.count === 0) return;
  await trustServers(
    project,
    home,
    Object.fromEntries(
      serverNames(spec.count).map((name) => [name, {
        command: "python3",
        args: fixtureArgs(spec),
        ...(spec.sandbox === false ? { sandbox: false } : {}),
      }]),
    ),
  );
}

/** Writes `servers` as the project's `.hel/mcp.json` and trusts it. */
export async function trustServers(
  project: string,
  home: string,
  servers: Record<string, unknown>,
): Promise<void> {
  await Deno.mkdir(`${project}/.hel`, { recursive: true });
  await Deno.writeTextFile(`${project}/.hel/mcp.json`, JSON.stringify({ servers }, null, 2));
  const store = createTrustFileStore(home, (message) => {
    throw new Error(message);
  });
  await store.record("mcp", project, await Deno.readFile(`${project}/.hel/mcp.json`));
}
