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
  type Edit,
  getNodeValue,
  type JSONPath,
  modify,
  parse,
  type ParseError,
  parseTree,
} from "jsonc-parser";
import { dirname } from "node:path";
import { withFileLock } from "../private_file.ts";
import { lstatOrUndefined, UnsafePathError, writeFileAtomic } from "../safe_write.ts";

/** The formatting new text gets: two spaces, as hel writes its examples. */
const FORMATTING = { insertSpaces: true, tabSize: 2, eol: "\n" } as const;

/**
 * The text of `text` with the value at `path` set to `value` (`undefined` removes it). Comments
 * and every other byte stay as they were. Empty text is treated as `{}`.
 */
export function editJsoncText(text: string, path: JSONPath, value: unknown): string {
  const base = text.trim() === "" ? "{}\n" : text;
  const edited = afterLineComment(base, modify(base, path, value, {})) ??
    applyEdits(base, modify(base, path, value, { formattingOptions: FORMATTING }));
  return edited.endsWith("\n") ? edited : `${edited}\n`;
}

/**
 * jsonc-parser adds an entry right after the value before it, so a comment ending that line
 * (`"model": "x" // the big one`) would end up describing the new entry. When the one edit is
 * such an addition, `,` goes after the value and the entry on a line of its own after the
 * comment, indented as that line. Undefined when the edit is anything else.
 */
function afterLineComment(text: string, edits: Edit[]): string | undefined {
  const [edit] = edits;
  if (edits.length !== 1 || edit!.length !== 0 || !edit!.content.startsWith(",")) return;
  const lineEnd = text.indexOf("\n", edit!.offset);
  if (lineEnd === -1) return;
  const rest = text.slice(edit!.offset, lineEnd);
  if (!/^\s*(\/\/.*|\/\*(?:(?!\*\/).)*\*\/\s*)$/.test(rest)) return;
  const indent = /^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", edit!.offset) + 1))![0];
  const entry = edit!.content.slice(1);
  // The entry is `"key": value` in an object, `value` in a list: JSON either way.
  const errors: ParseError[] = [];
  const asProperty = parse(`{${entry}}`, errors) as Record<string, unknown>;
  const shown = (value: unknown) => JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
  const line = errors.length > 0
    ? shown(parse(entry))
    : Object.entries(asProperty).map(([key, value]) => `${JSON.stringify(key)}: ${shown(value)}`)
      .join("");
  return `${text.slice(0, edit!.offset)},${rest}\n${indent}${line}${text.slice(lineEnd)}`;
}

/**
 * Sets (or, with `undefined`, removes) the value at `path` in the JSONC file at `file`, creating
 * the file (mode 0600) and its folder when missing. `root` is the folder the write may not leave
 * through a link (the project for `.hel/…`, `$HEL_HOME` for the person's files). Refuses a file
 * that is not JSON with comments, so a broken file is reported, not overwritten.
 * `change` may read the current value and return the one to write, under the lock; `check` may
 * refuse the whole edited text (by throwing) before it is written. Returns the file's bytes
 * before (undefined when there was no file) and the text written.
 */
export async function editJsoncFile(
  root: string,
  file: string,
  path: JSONPath,
  change: (current: unknown) => unknown,
  check?: (edited: string) => void,
): Promise<{ before: Uint8Array | undefined; written: string }> {
  const lock = `${dirname(file)}/.${file.slice(dirname(file).length + 1)}.lock`;
  await Deno.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  return await withFileLock(lock, async () => {
    const info = await lstatOrUndefined(file);
    // Checked before reading, not only before the write: a planted link to a FIFO or
    // /dev/zero would hang hel or fill its memory, and one to a secret would be read.
    if (info && !info.isFile) {
      throw new UnsafePathError(
        file,
        `refused to change ${file}: it is ${
          info.isSymlink ? "a symbolic link" : "not a plain file"
        }` +
          "; hel never reads or writes its configuration through links, which a command or a " +
          "cloned repository could plant; remove it, then run again",
      );
    }
    const before = info ? await Deno.readFile(file) : undefined;
    const text = before ? new TextDecoder().decode(before) : "";
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
    check?.(edited);
    await writeFileAtomic(root, file, edited, { mode: info ? info.mode ?? 0o600 : 0o600 });
    return { before, written: edited };
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
