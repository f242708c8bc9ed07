/**
 * Changing one value of a JSONC file the person keeps (settings.jsonc, mcp.json) without losing
 * their comments or layout: jsonc-parser's edit functions compute the smallest text change, and
 * the file is replaced whole or not at all, never through a link. Concurrent hel processes
 * changing the same file take turns (a lock file beside it).
 *
 * @module
 */
import {
  applyEdits,
  getNodeValue,
  type JSONPath,
  modify,
  type ParseError,
  parseTree,
} from "jsonc-parser";
import { dirname } from "node:path";
import { withFileLock } from "../private_file.ts";
import { lstatOrUndefined, writeFileAtomic } from "../safe_write.ts";

/** The formatting new text gets: two spaces, as hel writes its examples. */
const FORMATTING = { insertSpaces: true, tabSize: 2, eol: "\n" } as const;

/**
 * The text of `text` with the value at `path` set to `value` (`undefined` removes it). Comments
 * and every other byte stay as they were. Empty text is treated as `{}`.
 */
export function editJsoncText(text: string, path: JSONPath, value: unknown): string {
  const base = text.trim() === "" ? "{}\n" : text;
  const edits = modify(base, path, value, { formattingOptions: FORMATTING });
  const edited = applyEdits(base, edits);
  return edited.endsWith("\n") ? edited : `${edited}\n`;
}

/**
 * Sets (or, with `undefined`, removes) the value at `path` in the JSONC file at `file`, creating
 * the file (mode 0600) and its folder when missing. `root` is the folder the write may not leave
 * through a link (the project for `.hel/…`, `$HEL_HOME` for the person's files). Refuses a file
 * that is not JSON with comments, so a broken file is reported, not overwritten.
 * `change` may read the current value and return the one to write, under the lock.
 */
export async function editJsoncFile(
  root: string,
  file: string,
  path: JSONPath,
  change: (current: unknown) => unknown,
): Promise<void> {
  const lock = `${dirname(file)}/.${file.slice(dirname(file).length + 1)}.lock`;
  await Deno.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await withFileLock(lock, async () => {
    const info = await lstatOrUndefined(file);
    const text = info ? await Deno.readTextFile(file) : "";
    const errors: ParseError[] = [];
    const tree = text.trim() === "" ? undefined : parseTree(text, errors, {
      allowTrailingComma: true,
    });
    if (errors.length > 0 || (tree !== undefined && tree.type !== "object")) {
      throw new Error(
        `${file} is not a JSON object (with comments); fix it by hand, then run the command again`,
      );
    }
    const current = valueAt(tree ? getNodeValue(tree) : {}, path);
    const edited = editJsoncText(text, path, change(current));
    await writeFileAtomic(root, file, edited, { mode: info ? info.mode ?? 0o600 : 0o600 });
  });
}

function valueAt(value: unknown, path: JSONPath): unknown {
  let here = value;
  for (const key of path) {
    if (here === null || typeof here !== "object") return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}
