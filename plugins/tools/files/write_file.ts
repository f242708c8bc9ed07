/**
 * `write_file`: creates a file or replaces its contents, inside the working directory. The
 * parent folder must already exist.
 *
 * @module
 */
import type { Tool, ToolResult } from "../../../core/mod.ts";
import { requiredString, unknownArguments } from "../args.ts";
import { openVerified, resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import description from "./write_file.txt" with { type: "text" };

const ARGS = ["path", "content"] as const;

/** Creates the tool. */
export function writeFileTool(workspace: Workspace): Tool {
  return {
    name: "write_file",
    description,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the working directory" },
        content: { type: "string", description: "The complete new contents of the file" },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    toolClass: "write",
    category: "edit",
    run: (args) => writeFile(workspace, args),
  };
}

const fail = (text: string): ToolResult => ({ ok: false, text });

async function writeFile(workspace: Workspace, args: Record<string, unknown>): Promise<ToolResult> {
  const unknown = unknownArguments(args, ARGS);
  if (unknown) return fail(unknown);
  const path = requiredString(args, "path", true);
  if (!path.ok) return fail(path.text);
  const content = requiredString(args, "content");
  if (!content.ok) return fail(content.text);
  // Path resolution drops a trailing "/", which would create a file where a folder was meant.
  if (/\/\.?$/.test(path.value)) {
    return fail(
      `${path.value}: the path ends in "/" and so names a folder; write_file writes a file, ` +
        "so give the file's path (its folder must exist already)",
    );
  }
  const resolved = await resolveInWorkspace(workspace, path.value, {
    create: true,
    write: true,
  });
  if (!resolved.ok) return fail(resolved.text);
  const bytes = new TextEncoder().encode(content.value);
  const written = await replaceContents(
    workspace,
    resolved.path,
    path.value,
    bytes,
    resolved.exists,
  );
  if (written) return fail(written);
  return { ok: true, text: `wrote ${bytes.length} bytes to ${path.value}` };
}

/**
 * Writes `bytes` as the whole contents of the checked canonical `path`. A new file is created
 * exclusively (a symlink planted after the check makes that fail instead of being followed);
 * an existing one is opened, verified, then truncated. Returns an error text or undefined.
 */
export async function replaceContents(
  workspace: Workspace,
  path: string,
  shown: string,
  bytes: Uint8Array,
  exists: boolean,
): Promise<string | undefined> {
  if (exists) {
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isDirectory) return `${shown} is a directory; give a file path`;
    if (info && !info.isFile) return `${shown} is not a regular file; give a file path`;
  }
  const opened = await openVerified(
    workspace,
    path,
    shown,
    exists ? { write: true } : { write: true, createNew: true },
  );
  if (!opened.ok) return opened.text;
  using file = opened.file;
  try {
    await file.truncate(0);
    let done = 0;
    while (done < bytes.length) done += await file.write(bytes.subarray(done));
  } catch (error) {
    return `${shown}: could not write (${(error as Error).message})`;
  }
  return undefined;
}
