/**
 * `search_replace`: replaces the one occurrence of an exact text in a file. Zero or several
 * occurrences fail with the count, and the file is left as it was.
 *
 * @module
 */
import { defineTool, type Tool, type ToolResult, z } from "../../../core/mod.ts";
import { resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import { argumentsDescription, fileChangeDescription, readConfinedText } from "./change_preview.ts";
import { FILE_PATH } from "./file_path.ts";
import { pathTarget } from "../workspace/rule_path.ts";
import { replaceContents } from "./replace_contents.ts";
import description from "./search_replace.txt" with { type: "text" };

const NAME = "search_replace";

const parameters = z.strictObject({
  path: FILE_PATH,
  search: z.string().min(1).describe("Exact text to find; must occur exactly once"),
  replace: z.string().describe("Text to put in its place"),
});

type Args = z.infer<typeof parameters>;

/** Creates the tool. */
export function searchReplaceTool(workspace: Workspace): Tool {
  return defineTool({
    name: NAME,
    description,
    parameters,
    toolClass: "write",
    category: "edit",
    async describeCall(args) {
      const planned = await planReplacement(workspace, args);
      if (!planned.ok) return argumentsDescription(NAME, args);
      return fileChangeDescription(workspace, NAME, planned.path, planned.before, planned.after);
    },
    ruleTarget: ({ path }) => pathTarget(workspace, path, { write: true }),
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

/** `text` with its one occurrence of `search` replaced, or why not (for the model). */
function replaceOnce(
  text: string,
  { path, search, replace }: Args,
): { ok: true; text: string } | { ok: false; text: string } {
  const count = countOccurrences(text, search);
  if (count === 0) {
    return {
      ok: false,
      text: `search string occurs 0 times in ${path}; it must occur exactly once. ` +
        "Read the file and copy the text exactly, including whitespace and indentation",
    };
  }
  if (count > 1) {
    return {
      ok: false,
      text: `search string occurs ${count} times in ${path}; it must occur exactly once. ` +
        "Include more of the surrounding lines to make it unique",
    };
  }
  const at = text.indexOf(search);
  return { ok: true, text: text.slice(0, at) + replace + text.slice(at + search.length) };
}

/** The call's file (canonical) and its text before and after, or why the call fails. */
async function planReplacement(
  workspace: Workspace,
  args: Args,
): Promise<
  { ok: true; path: string; before: string; after: string } | { ok: false; text: string }
> {
  const { path } = args;
  const resolved = await resolveInWorkspace(workspace, path, { write: true });
  if (!resolved.ok) return resolved;
  const info = await Deno.stat(resolved.path).catch(() => undefined);
  if (!info?.isFile) return { ok: false, text: `${path} is not a regular file; give a file path` };
  const loaded = await readConfinedText(workspace, resolved.path, path, NAME);
  if (!loaded.ok) return loaded;
  const replaced = replaceOnce(loaded.text, args);
  if (!replaced.ok) return replaced;
  return { ok: true, path: resolved.path, before: loaded.text, after: replaced.text };
}

async function searchReplace(workspace: Workspace, args: Args): Promise<ToolResult> {
  const planned = await planReplacement(workspace, args);
  if (!planned.ok) return fail(planned.text);
  const error = await replaceContents(
    workspace,
    planned.path,
    args.path,
    new TextEncoder().encode(planned.after),
    true,
  );
  if (error) return fail(error);
  return { ok: true, text: `replaced 1 occurrence in ${args.path}` };
}
