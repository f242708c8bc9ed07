/**
 * One line saying what a tool call does, for the chat's activity list: the command of `bash`,
 * the path of a file tool, the pattern of a search, the arguments of anything else.
 *
 * @module
 */
import { escapeControlCharacters } from "../../core/neutralise.ts";
import { columnsOf } from "../../kit/trust/review_text.ts";

/** Columns a summary takes at most when the caller gives no width. */
export const SUMMARY_COLUMNS = 200;

/**
 * The arguments of a call to `name` as one line of at most `width` columns (`npm test`,
 * `src/a.ts`, `TODO in src (*.ts)`): the chat shows it after the tool's name. Line breaks are
 * shown as `↵`, control characters escaped, and what does not fit is cut with `…`.
 */
export function callSummary(name: string, args: unknown, width = SUMMARY_COLUMNS): string {
  return fitted(oneLine(describe(name, record(args))), width);
}

function describe(name: string, args: Record<string, unknown>): string {
  const text = (key: string) => typeof args[key] === "string" ? args[key] : undefined;
  switch (name) {
    case "bash":
      return text("command") ?? compact(args);
    case "write_file":
    case "search_replace":
      return text("path") ?? compact(args);
    case "read_file": {
      const path = text("path");
      if (path === undefined) return text("cursor") === undefined ? compact(args) : "(more)";
      return typeof args.start_line === "number" ? `${path}:${args.start_line}` : path;
    }
    case "grep":
    case "glob": {
      const pattern = text("pattern");
      if (pattern === undefined) return compact(args);
      const path = text("path");
      const include = text("include");
      return pattern + (path ? ` in ${path}` : "") + (include ? ` (${include})` : "");
    }
    case "load_mcp_tool":
      return Array.isArray(args.names) ? args.names.map(String).join(", ") : compact(args);
    default:
      return compact(args);
  }
}

function record(args: unknown): Record<string, unknown> {
  return args !== null && typeof args === "object" && !Array.isArray(args)
    ? args as Record<string, unknown>
    : { arguments: args };
}

/** `{"a":1}` without the braces of an object, or nothing for no arguments. */
function compact(args: Record<string, unknown>): string {
  const json = JSON.stringify(args) ?? "";
  return json === "{}" ? "" : json;
}

function oneLine(text: string): string {
  // Escaping keeps line breaks and tabs; they go next.
  return escapeControlCharacters(text.trim())
    .replace(/\n+/g, " ↵ ")
    .replace(/\t/g, " ");
}

function fitted(text: string, width: number): string {
  if (columnsOf(text) <= width) return text;
  let kept = "";
  let used = 0;
  for (const char of text) {
    const columns = columnsOf(char);
    if (used + columns > width - 1) break;
    kept += char;
    used += columns;
  }
  return `${kept}…`;
}
