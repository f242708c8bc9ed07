/**
 * `search_replace`: replaces the one occurrence of an exact text in a file. Zero or several
 * occurrences fail with the count, and the file is left as it was.
 *
 * @module
 */
import type { Tool, ToolResult } from "../../../core/mod.ts";
import { requiredString, unknownArguments } from "../args.ts";
import { openVerified, resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import description from "./search_replace.txt" with { type: "text" };
import { readWholeText } from "./whole_file.ts";
import { replaceContents } from "./write_file.ts";

const ARGS = ["path", "search", "replace"] as const;

/** Creates the tool. */
export function searchReplaceTool(workspace: Workspace): Tool {
  return {
    name: "search_replace",
    description,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the working directory" },
        search: { type: "string", description: "Exact text to find; must occur exactly once" },
        replace: { type: "string", description: "Text to put in its place" },
      },
      required: ["path", "search", "replace"],
      additionalProperties: false,
    },
    toolClass: "write",
    category: "edit",
    run: (args) => searchReplace(workspace, args),
  };
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
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const unknown = unknownArguments(args, ARGS);
  if (unknown) return fail(unknown);
  const path = requiredString(args, "path", true);
  if (!path.ok) return fail(path.text);
  const search = requiredString(args, "search");
  if (!search.ok) return fail(search.text);
  const replace = requiredString(args, "replace");
  if (!replace.ok) return fail(replace.text);
  if (search.value === "") return fail("search must not be empty");
  const resolved = await resolveInWorkspace(workspace, path.value, { write: true });
  if (!resolved.ok) return fail(resolved.text);
  const info = await Deno.stat(resolved.path).catch(() => undefined);
  if (!info?.isFile) return fail(`${path.value} is not a regular file; give a file path`);

  const opened = await openVerified(workspace, resolved.path, path.value, { read: true });
  if (!opened.ok) return fail(opened.text);
  let text: string;
  {
    using file = opened.file;
    const loaded = await readWholeText(file, opened.info.size, "search_replace", path.value);
    if (!loaded.ok) return fail(loaded.text);
    text = loaded.text;
  }

  const count = countOccurrences(text, search.value);
  if (count === 0) {
    return fail(
      `search string occurs 0 times in ${path.value}; it must occur exactly once. ` +
        "Read the file and copy the text exactly, including whitespace and indentation",
    );
  }
  if (count > 1) {
    return fail(
      `search string occurs ${count} times in ${path.value}; it must occur exactly once. ` +
        "Include more of the surrounding lines to make it unique",
    );
  }
  const at = text.indexOf(search.value);
  const updated = text.slice(0, at) + replace.value + text.slice(at + search.value.length);
  const error = await replaceContents(
    workspace,
    resolved.path,
    path.value,
    new TextEncoder().encode(updated),
    true,
  );
  if (error) return fail(error);
  return { ok: true, text: `replaced 1 occurrence in ${path.value}` };
}
