/**
 * `search_replace`: replaces the one occurrence of an exact text in a file. Zero or several
 * occurrences fail with the count, and the file is left as it was.
 *
 * @module
 */
import { defineTool, type Tool, type ToolResult, z } from "../../../core/mod.ts";
import { openVerified, resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import { FILE_PATH } from "./file_path.ts";
import { replaceContents } from "./replace_contents.ts";
import description from "./search_replace.txt" with { type: "text" };
import { readWholeText } from "./whole_file.ts";

const parameters = z.strictObject({
  path: FILE_PATH,
  search: z.string().min(1).describe("Exact text to find; must occur exactly once"),
  replace: z.string().describe("Text to put in its place"),
});

/** Creates the tool. */
export function searchReplaceTool(workspace: Workspace): Tool {
  return defineTool({
    name: "search_replace",
    description,
    parameters,
    toolClass: "write",
    category: "edit",
    run: (args) => searchReplace(workspace, args),
  });
}

const fail = (text: string): ToolResult => ({ ok: false, text });

/** Non-overlapping occurrences of `search` in `text`. */
export function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) {
    count++;
  }
  return count;
}

async function searchReplace(
  workspace: Workspace,
  { path, search, replace }: z.infer<typeof parameters>,
): Promise<ToolResult> {
  const resolved = await resolveInWorkspace(workspace, path, { write: true });
  if (!resolved.ok) return fail(resolved.text);
  const info = await Deno.stat(resolved.path).catch(() => undefined);
  if (!info?.isFile) return fail(`${path} is not a regular file; give a file path`);

  const opened = await openVerified(workspace, resolved.path, path, { read: true });
  if (!opened.ok) return fail(opened.text);
  let text: string;
  {
    using file = opened.file;
    const loaded = await readWholeText(file, opened.info.size, "search_replace", path);
    if (!loaded.ok) return fail(loaded.text);
    text = loaded.text;
  }

  const count = countOccurrences(text, search);
  if (count === 0) {
    return fail(
      `search string occurs 0 times in ${path}; it must occur exactly once. ` +
        "Read the file and copy the text exactly, including whitespace and indentation",
    );
  }
  if (count > 1) {
    return fail(
      `search string occurs ${count} times in ${path}; it must occur exactly once. ` +
        "Include more of the surrounding lines to make it unique",
    );
  }
  const at = text.indexOf(search);
  const updated = text.slice(0, at) + replace + text.slice(at + search.length);
  const error = await replaceContents(
    workspace,
    resolved.path,
    path,
    new TextEncoder().encode(updated),
    true,
  );
  if (error) return fail(error);
  return { ok: true, text: `replaced 1 occurrence in ${path}` };
}
