/**
 * What the permission question shows of a call that changes a file (`write_file`,
 * `search_replace`): the file's text now and after the call. The file is read through the same
 * confinement as the tools' own reads (a checked path, a verified open, the whole-file limit),
 * so a preview never shows what the tool itself could not read; nothing is written.
 *
 * @module
 */
import { relative } from "node:path";
import type { CallDescription } from "../../../core/mod.ts";
import { openVerified, type Workspace } from "../workspace/confinement.ts";
import { readWholeText } from "./whole_file.ts";

/**
 * The text of the checked canonical `path` (`shown` as messages name it), read whole as UTF-8
 * through a verified open, or why it cannot be.
 */
export async function readConfinedText(
  workspace: Workspace,
  path: string,
  shown: string,
  tool: string,
): Promise<{ ok: true; text: string } | { ok: false; text: string }> {
  const opened = await openVerified(workspace, path, shown, { read: true });
  if (!opened.ok) return opened;
  using file = opened.file;
  return await readWholeText(file, opened.info.size, tool, shown);
}

/**
 * A file change as the question shows it: the path is the file that will change, relative to
 * the project, so a link or a `..` in the model's path cannot make it look like another file.
 */
export function fileChangeDescription(
  workspace: Workspace,
  tool: string,
  canonicalPath: string,
  before: string | null,
  after: string,
): CallDescription {
  return {
    preview: {
      kind: "file_change",
      path: relative(workspace.project, canonicalPath),
      before,
      after,
    },
    scope: { kind: "tool", tool },
  };
}

/** A call that will fail (or whose file cannot be shown as text): its arguments, as given. */
export function argumentsDescription(
  tool: string,
  args: Record<string, unknown>,
): CallDescription {
  return { preview: { kind: "arguments", args }, scope: { kind: "tool", tool } };
}
