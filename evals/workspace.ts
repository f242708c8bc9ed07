/**
 * A run's folder before hel starts: a fresh copy of the task's fixture as the workspace, and
 * trust for the task's MCP configuration recorded for exactly the bytes the lab pins. A
 * configuration whose hash differs from the pin aborts the whole command before any model
 * call: nobody reviewed those bytes.
 *
 * @module
 */
import { createTrustFileStore, sha256Hex } from "../kit/mod.ts";
import { readPlainFile, writeResultFile } from "./result_file.ts";

/** The pinned MCP configuration differs from the bytes on disk (or is missing). */
export class PinError extends Error {}

/** The project file whose bytes `mcp_sha256` pins. */
export const MCP_CONFIG = ".hel/mcp.json";

/** Copies a folder tree; symlinks are skipped so a fixture cannot point outside itself. */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = `${from}/${entry.name}`;
    const target = `${to}/${entry.name}`;
    if (entry.isSymlink) continue;
    if (entry.isDirectory) await copyTree(source, target);
    else if (entry.isFile) await Deno.copyFile(source, target);
  }
}

/** Reads `<project>/.hel/mcp.json` and fails unless its SHA-256 is `pinned`. */
export async function checkPin(project: string, pinned: string, where: string) {
  const path = `${project}/${MCP_CONFIG}`;
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    throw new PinError(
      `${where}: mcp_sha256 pins ${MCP_CONFIG}, but ${path} cannot be read ` +
        `(${(error as Error).message}); add the file or drop the pin`,
    );
  }
  const actual = await sha256Hex(bytes);
  if (actual !== pinned) {
    throw new PinError(
      `${where}: ${path} has SHA-256 ${actual}, but the lab pins ${pinned}; nothing was run. ` +
        "Review the file, then put its new hash into the lab's mcp_sha256",
    );
  }
  return bytes;
}

/**
 * Records trust (kind `mcp`) for the workspace's pinned configuration in the run's own
 * `HEL_HOME`, and keeps the bytes and the trust file under `raw/`.
 */
export async function pinMcpTrust(
  workspace: string,
  helHome: string,
  rawDir: string,
  pinned: string,
  where: string,
): Promise<void> {
  const bytes = await checkPin(workspace, pinned, where);
  const project = await Deno.realPath(workspace);
  const problems: string[] = [];
  const store = createTrustFileStore(helHome, (message) => problems.push(message));
  await store.record("mcp", project, bytes);
  if (problems.length > 0) throw new PinError(`${where}: ${problems.join("; ")}`);
  await Deno.mkdir(rawDir, { recursive: true });
  await writeResultFile(`${rawDir}/mcp-config.json`, bytes);
  await writeResultFile(`${rawDir}/mcp-trust.json`, await readPlainFile(`${helHome}/trust.json`));
}

/** Empties (or creates) a run folder. */
export async function resetDir(dir: string): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.mkdir(dir, { recursive: true });
}
