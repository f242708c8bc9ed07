/**
 * `write_file`: creates a file or replaces its contents, inside the working directory. The
 * parent folder must already exist.
 *
 * @module
 */
import {
  type CallDescription,
  defineTool,
  type Tool,
  type ToolResult,
  z,
} from "../../../core/mod.ts";
import { type Resolved, resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import { argumentsDescription, fileChangeDescription, readConfinedText } from "./change_preview.ts";
import { FILE_PATH } from "./file_path.ts";
import { pathTarget } from "../workspace/rule_path.ts";
import { replaceContents } from "./replace_contents.ts";
import description from "./write_file.txt" with { type: "text" };

const NAME = "write_file";

const parameters = z.strictObject({
  path: FILE_PATH,
  content: z.string().describe("The complete new contents of the file"),
});

type Args = z.infer<typeof parameters>;

/** Creates the tool. */
export function writeFileTool(workspace: Workspace): Tool {
  return defineTool({
    name: NAME,
    description,
    parameters,
    toolClass: "write",
    category: "edit",
    describeCall: (args) => describeWrite(workspace, args),
    ruleTarget: ({ path }) => pathTarget(workspace, path, { create: true, write: true }),
    run: (args) => writeFile(workspace, args),
  });
}

const fail = (text: string): ToolResult => ({ ok: false, text });

/** The file the call writes (canonical), whether it exists, or why the call fails. */
function resolveTarget(workspace: Workspace, path: string): Promise<Resolved> {
  // Path resolution drops a trailing "/", which would create a file where a folder was meant.
  if (/\/\.?$/.test(path)) {
    return Promise.resolve({
      ok: false,
      text: `${path}: the path ends in "/" and so names a folder; write_file writes a file, ` +
        "so give the file's path (its folder must exist already)",
    });
  }
  return resolveInWorkspace(workspace, path, { create: true, write: true });
}

/** The file's text now (none for a new file) and the content it will have. */
async function describeWrite(workspace: Workspace, args: Args): Promise<CallDescription> {
  const resolved = await resolveTarget(workspace, args.path);
  if (!resolved.ok) return argumentsDescription(NAME, args);
  if (!resolved.exists) {
    return fileChangeDescription(workspace, NAME, resolved.path, null, args.content);
  }
  // A file that is not text, or too large to read whole, is shown by the arguments instead.
  const before = await readConfinedText(workspace, resolved.path, args.path, NAME);
  if (!before.ok) return argumentsDescription(NAME, args);
  return fileChangeDescription(workspace, NAME, resolved.path, before.text, args.content);
}

async function writeFile(workspace: Workspace, { path, content }: Args): Promise<ToolResult> {
  const resolved = await resolveTarget(workspace, path);
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
