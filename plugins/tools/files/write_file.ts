/**
 * `write_file`: creates a file or replaces its contents, inside the working directory. The
 * parent folder must already exist.
 *
 * @module
 */
import { defineTool, type Tool, type ToolResult, z } from "../../../core/mod.ts";
import { resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import { FILE_PATH } from "./file_path.ts";
import { replaceContents } from "./replace_contents.ts";
import description from "./write_file.txt" with { type: "text" };

const parameters = z.strictObject({
  path: FILE_PATH,
  content: z.string().describe("The complete new contents of the file"),
});

/** Creates the tool. */
export function writeFileTool(workspace: Workspace): Tool {
  return defineTool({
    name: "write_file",
    description,
    parameters,
    toolClass: "write",
    category: "edit",
    run: (args) => writeFile(workspace, args),
  });
}

const fail = (text: string): ToolResult => ({ ok: false, text });

async function writeFile(
  workspace: Workspace,
  { path, content }: z.infer<typeof parameters>,
): Promise<ToolResult> {
  // Path resolution drops a trailing "/", which would create a file where a folder was meant.
  if (/\/\.?$/.test(path)) {
    return fail(
      `${path}: the path ends in "/" and so names a folder; write_file writes a file, ` +
        "so give the file's path (its folder must exist already)",
    );
  }
  const resolved = await resolveInWorkspace(workspace, path, {
    create: true,
    write: true,
  });
  if (!resolved.ok) return fail(resolved.text);
  const bytes = new TextEncoder().encode(content);
  const written = await replaceContents(
    workspace,
    resolved.path,
    path,
    bytes,
    resolved.exists,
  );
  if (written) return fail(written);
  return { ok: true, text: `wrote ${bytes.length} bytes to ${path}` };
}
