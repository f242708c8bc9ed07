/**
 * The lines of a server's stderr that say what went wrong, for the message of a server that did
 * not start. Runtimes end a crash with framing that says nothing about it: Node a code frame,
 * stack frames, the error's properties in braces and `Node.js v20.20.2`; Python its traceback
 * (boxed in `|` for an exception group, as MCP's Python SDK raises them); Go its goroutine dump;
 * Rust a note about backtraces; npm (for `npx`) its update notice. The last three lines of
 * such a tail read `} | } | Node.js v20`, so that framing is skipped, and the line naming the
 * error is always among those shown.
 *
 * @module
 */
import { clipChars, headChars } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";

/** How much of a line is read (and could be shown). */
const MAX_READ = 1_000;

/** Whole lines that only frame a runtime's report. */
const FRAMING = [
  /^Node\.js v\d+(\.\d+)*$/,
  /^\.\.\. \d+ lines? matching cause stack trace \.\.\.$/,
  /^Emitted '.*' event on .* at:$/,
  /^Traceback \(most recent call last\):$/,
  /^Exception Group Traceback \(most recent call last\):$/,
  /^During handling of the above exception, another exception occurred:$/,
  /^The above exception was the direct cause of the following exception:$/,
  /^note: run with `RUST_BACKTRACE=1`/,
  /^npm (ERR!|error) A complete log of this run can be found in/,
  // npm's update nag (`npx` prints it after the server exits when npm is old).
  /^npm notice\b/,
];

/** A stack frame: Node's and Deno's `at f (file:1:2)`, Java's `at a.B(B.java:3)`. */
const STACK_FRAME = /^at\s.*(\(.*\)|:\d+(:\d+)?|<anonymous>)( \{)?$/;
/** One property of an error Node prints in braces: `code: 'ENOENT',`, `errno: -2`. */
const PROPERTY =
  /^(\[[\w$]+\]|[\w$]+): ('.*'|".*"|-?[\d.]+(e[+-]?\d+)?n?|true|false|null|undefined|\[.*|\{.*)?,?$/;
/** The first line of Node's code frame: where the throw is, `/app/server.js:12`. */
const LOCATION = /^\S+:\d+$/;
/** A line naming an error: `TypeError: x`, `Error [ERR_X]: y`, `error: Uncaught`, `panic:`. */
const ERROR_LINE =
  /\b[\w.$]*(Error|Exception)\w*( \[[^\]]*\])?: |^(error|fatal|panic)\b|panicked at/i;

/** The last lines (at most `count`) that say something, each cut and escaped. */
export function stderrEnding(text: string, count = 3, width = 240): string[] {
  const telling = tellingLines(text);
  let shown = telling.slice(-count);
  // A server that logs on after its error must not push the error out of sight.
  const error = telling.findLast((line) => ERROR_LINE.test(line));
  if (error !== undefined && !shown.includes(error) && count > 1) {
    shown = [error, ...telling.slice(-(count - 1))];
  }
  if (shown.length === 0) {
    // Everything looked like framing: show it as it is rather than nothing.
    shown = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "")
      .slice(-count);
  }
  return shown.map((line) => escapeControlCharacters(clipChars(line, width)));
}

/** Every non-blank line of `text` that is not a runtime's framing, trimmed, in order. */
export function tellingLines(text: string): string[] {
  // Colour codes (Deno colours its errors) say nothing and would hide a line's start.
  // deno-lint-ignore no-control-regex
  const lines = text.replace(/\u001b\[[0-9;]*m/g, "").split(/\r?\n/);
  const boxed = lines.some((line) => line.includes("Exception Group Traceback"));
  const kept: { text: string; at: number }[] = [];
  let frameIndent = -1; // the indentation of Python's last `File "...", line N` line
  let inList = false; // in Node's "Require stack:" list
  let inGoroutines = false; // in Go's goroutine dump: `pkg.f(...)`, then `\t/file.go:12 +0x1d`
  lines.forEach((raw, at) => {
    // Only a line's start is ever shown, and the patterns must not take quadratic time on a
    // 64 KiB line a server wrote.
    let line = (raw.length > MAX_READ ? headChars(raw, MAX_READ) : raw).trimEnd();
    if (boxed) {
      // Python draws an exception group's tracebacks in a box: `| ` before each line, rules
      // such as `+-+---- 1 ----` between them.
      while (/^\s*[|+]( |$)/.test(line)) line = line.replace(/^\s*[|+] ?/, "");
      if (/^\s*\+[-+]+(\s.*-)?$/.test(line)) return;
    }
    const text = line.trim();
    const indent = line.length - line.trimStart().length;
    if (text === "") {
      inGoroutines = inList = false;
      return;
    }
    if (frameIndent >= 0 && indent > frameIndent) return; // a frame's source line and carets
    frameIndent = -1;
    if (/^File ".*", line \d+/.test(text)) {
      frameIndent = indent;
      return;
    }
    if (inList && text.startsWith("- ")) return;
    inList = text === "Require stack:";
    if (inList) return;
    inGoroutines &&= indent > 0 || /^([\w./*()[\]-]+\(.*\)|created by .*)$/.test(text);
    if (inGoroutines || /^goroutine \d+ \[.*\]:$/.test(text)) {
      inGoroutines = true;
      return;
    }
    if (FRAMING.some((pattern) => pattern.test(text)) || STACK_FRAME.test(text)) return;
    if (/^[{}[\]],?$/.test(text) || (indent > 0 && PROPERTY.test(text))) return;
    if (/^[\^~]+$/.test(text)) {
      // The caret under Node's code frame: drop the source line above it and the location
      // above that.
      if (kept.at(-1)?.at === at - 1) {
        kept.pop();
        const location = kept.at(-1);
        if (location?.at === at - 2 && LOCATION.test(location.text)) kept.pop();
      }
      return;
    }
    kept.push({ text, at });
  });
  return kept.map((line) => line.text);
}
