/**
 * The two MCP configuration files as `hel mcp add` and `remove` change them: where each is,
 * the folder a write may not leave through a link, which server names a file holds (read as
 * JSON with comments, so a file with a bad entry can still lose it), and the one-entry change
 * itself, made with the kit's comment-keeping editor.
 *
 * @module
 */
import { resolve } from "node:path";
import { parse, type ParseError } from "jsonc-parser";
import { errorMessage, isRecord, type PluginContext } from "../../core/mod.ts";
import { editJsoncFile, makeHelFolder, readProjectConfig } from "../../kit/mod.ts";
import { CONFIG_PATH, type Scope, userMcpConfigPath } from "./config_files.ts";

/** One file as a target of a change. */
export interface EntryFile {
  scope: Scope;
  /** How messages name it: `.hel/mcp.json`, or the absolute path of the person's file. */
  shown: string;
  /** The file itself. */
  path: string;
  /** The folder the write may not leave through a link: the project, or `$HEL_HOME`. */
  root: string;
}

/** The file of `scope` for this project and person. */
export function entryFile(scope: Scope, context: PluginContext): EntryFile {
  if (scope === "user") {
    const path = userMcpConfigPath(context.helHome);
    return { scope, shown: path, path, root: resolve(context.helHome) };
  }
  return {
    scope,
    shown: CONFIG_PATH,
    path: `${context.project}/.hel/mcp.json`,
    root: context.project,
  };
}

/** What a file holds as far as names go. */
export type NamesIn =
  | { kind: "absent" }
  | { kind: "names"; names: string[] }
  | { kind: "unreadable"; message: string };

/**
 * The server names the file defines (`servers` keys), whatever else is wrong in it, so that a
 * broken entry can be removed. The project's file is read with the same care as for a run.
 */
export async function serverNamesIn(file: EntryFile): Promise<NamesIn> {
  let bytes: Uint8Array;
  if (file.scope === "project") {
    const read = await readProjectConfig(file.root, "mcp.json");
    if (read.kind === "absent") return read;
    if (read.kind === "unusable") return { kind: "unreadable", message: read.message };
    bytes = read.bytes;
  } else {
    try {
      bytes = await Deno.readFile(file.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { kind: "absent" };
      return { kind: "unreadable", message: `cannot read ${file.shown}: ${errorMessage(error)}` };
    }
  }
  const errors: ParseError[] = [];
  const value = parse(new TextDecoder().decode(bytes), errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    return {
      kind: "unreadable",
      message: `${file.shown} is not valid JSON with comments (hel mcp list shows where)`,
    };
  }
  const servers = (value as { servers?: unknown } | null)?.servers;
  return { kind: "names", names: isRecord(servers) ? Object.keys(servers) : [] };
}

/** The name is taken and the command was not told to replace it. */
export class NameTakenError extends Error {}

/**
 * Sets (`entry`) or removes (`undefined`) server `name` in the file, keeping its comments and
 * layout; writes through no link. With `replace` false, an existing entry is a
 * {@link NameTakenError} and nothing is written.
 */
export async function writeEntry(
  file: EntryFile,
  name: string,
  entry: Record<string, unknown> | undefined,
  { replace }: { replace: boolean },
): Promise<void> {
  // As for a session, a new `.hel/` gets the `.gitignore` that leaves hel's own state out of
  // git; the configuration written here is for sharing.
  if (file.scope === "project") await makeHelFolder(file.root);
  await editJsoncFile(file.root, file.path, ["servers", name], (current) => {
    if (entry !== undefined && current !== undefined && !replace) throw new NameTakenError();
    return entry;
  });
}
