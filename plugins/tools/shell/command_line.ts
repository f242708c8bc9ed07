/**
 * What a bash command line runs, read with a real bash parser (tree-sitter-bash) rather than by
 * splitting on characters: every simple command at any depth (in `&&`, `|`, `;`, subshells,
 * substitutions, loops), each with its words as bash passes them, and whether the line is
 * plain — only those commands joined by `&&`, `||`, `;`, `|`, newlines or grouped in `( )` /
 * `{ }`, nothing that could change what they do. Only a plain line can be covered by allow
 * rules or "don't ask again".
 *
 * Not plain: command or process substitution, redirection to a file (`2>&1` and `/dev/null` are
 * fine), here-documents and here-strings, backgrounding, variable assignments, functions,
 * loops and conditionals, and any wrapper of other commands (wrappers.ts). A word known only
 * when the line runs (`$VAR`, a glob, `~`) is `null`; in the program's place it makes the line
 * not plain. Whatever could run code hel cannot see (an expansion that evaluates arithmetic, a
 * wrapper, `eval`, a here-document with substitutions, a parse error, a control character)
 * adds a part with no known words, which a deny rule cannot be ruled out for.
 *
 * @module
 */
import type { CommandPart } from "../../../core/mod.ts";
import { type Node, withBashTree } from "./bash_parser.ts";
import { runsOtherCommands } from "./wrappers.ts";

/** A command line as permission rules see it. */
export interface CommandLine {
  parts: CommandPart[];
  plain: boolean;
}

/** A command hel cannot name: no deny rule can be ruled out for it. */
const HIDDEN: CommandPart = { words: [null] };

/** Node kinds a plain line may hold. */
const PLAIN_KINDS = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "negated_command",
  "comment",
  "command",
  "command_name",
  "word",
  "number",
  "string",
  "string_content",
  "raw_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "variable_name",
  "special_variable_name",
  "redirected_statement",
  "file_redirect",
  "file_descriptor",
]);

/** Node kinds that make a line not plain, but run nothing that hel cannot see in the tree. */
const VISIBLE_KINDS = new Set([
  "if_statement",
  "elif_clause",
  "else_clause",
  "while_statement",
  "for_statement",
  "case_statement",
  "case_item",
  "do_group",
  "function_definition",
  "command_substitution",
  "process_substitution",
  "herestring_redirect",
  "heredoc_redirect",
  "heredoc_start",
  "heredoc_body",
  "heredoc_content",
  "heredoc_end",
  "variable_assignment",
  "ansi_c_string",
  "translated_string",
]);

/** Tokens a plain line may hold: the joining operators, grouping, quotes and harmless redirects. */
const PLAIN_TOKENS = new Set([
  "&&",
  "||",
  ";",
  "|",
  "|&",
  "(",
  ")",
  "{",
  "}",
  "!",
  '"',
  "$",
  "${",
  ">",
  ">>",
  "<",
  "&>",
  "&>>",
  ">&",
  "<&",
  ">&-",
  "<&-",
]);

/** Tokens of arithmetic and `[[ ]]`, where bash evaluates variables' values as code. */
const HIDING_TOKENS = new Set(["((", "))", "$((", "$[", "[[", "]]"]);

/** Control characters (tab and newline aside), where the parser and bash may split differently. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Reads `command`; a parser that cannot load leaves it unreadable (`problem` says why). */
export async function readCommandLine(
  command: string,
): Promise<CommandLine & { problem?: string }> {
  const read = await withBashTree(command, (root) => {
    const reader = new LineReader(command);
    reader.visit(root);
    return reader.result(root.hasError);
  });
  if (!read.ok) return { parts: [HIDDEN], plain: false, problem: read.problem };
  // A line continuation joins words the parser keeps apart (`npm test\` + `x` runs `npm testx`).
  if (CONTROL.test(command) || /\\\r?\n/.test(command)) {
    const { parts } = read.value;
    return { parts: parts.includes(HIDDEN) ? parts : [...parts, HIDDEN], plain: false };
  }
  return read.value;
}

class LineReader {
  readonly #source: string;
  readonly #parts: CommandPart[] = [];
  #plain = true;
  #hidden = false;

  constructor(source: string) {
    this.#source = source;
  }

  result(hasError: boolean): CommandLine {
    const hidden = this.#hidden || hasError;
    const parts = hidden ? [...this.#parts, HIDDEN] : this.#parts;
    return { parts, plain: this.#plain && !hidden };
  }

  visit(node: Node): void {
    if (node.isMissing || node.isError) this.#hide();
    if (!node.isNamed) {
      if (HIDING_TOKENS.has(node.type)) this.#hide();
      else if (!PLAIN_TOKENS.has(node.type)) this.#plain = false;
      return;
    }
    switch (node.type) {
      case "command":
        return this.#command(node);
      case "file_redirect":
        if (!harmlessRedirect(node)) this.#plain = false;
        break;
      case "expansion":
        // `${NAME}` only: any operator may evaluate a value as arithmetic, so as code.
        if (node.namedChildren.length !== 1 || node.namedChildren[0]?.type !== "variable_name") {
          this.#hide();
        }
        break;
      case "heredoc_redirect":
        this.#plain = false;
        if (expandingHeredoc(node)) this.#hide();
        break;
      default:
        if (VISIBLE_KINDS.has(node.type)) this.#plain = false;
        else if (!PLAIN_KINDS.has(node.type)) this.#hide();
    }
    this.#children(node);
  }

  #children(node: Node): void {
    for (const child of node.children) if (child) this.visit(child);
  }

  #hide(): void {
    this.#hidden = true;
    this.#plain = false;
  }

  #command(node: Node): void {
    const words: (string | null)[] = [];
    let end: number | undefined;
    for (const child of node.children) {
      if (!child) continue;
      // Only blanks between words: anything else is read differently by the parser and bash.
      if (end !== undefined && !/^[ \t]+$/.test(this.#source.slice(end, child.startIndex))) {
        this.#hide();
      }
      end = child.endIndex;
      if (child.type === "command_name") {
        const name = child.namedChildren[0];
        words.push(name ? wordValue(name) : null);
        this.#children(child);
      } else if (child.type === "variable_assignment") {
        // `PATH=. npm test` runs another npm; `LD_PRELOAD=...` runs other code in it.
        this.#plain = false;
        this.visit(child);
      } else if (child.type.endsWith("_redirect")) {
        this.visit(child);
      } else if (!child.isNamed) {
        this.visit(child);
        this.#plain = false;
      } else {
        words.push(wordValue(child));
        this.visit(child);
      }
    }
    if (words.length === 0) return;
    this.#parts.push({ words });
    if (runsOtherCommands(words)) this.#hide();
  }
}

/** `2>&1`, `>&-`, `<&0`, or to and from `/dev/null`: a redirect that touches no file. */
function harmlessRedirect(node: Node): boolean {
  const operator = node.children.find((child) => child && !child.isNamed)?.type ?? "";
  const target = node.namedChildren.filter((child) => child?.type !== "file_descriptor");
  if (target.length === 0) return operator === ">&-" || operator === "<&-";
  if (target.length !== 1) return false;
  const text = target[0]!.type === "word" || target[0]!.type === "number" ? target[0]!.text : "";
  if (operator === ">&" || operator === "<&") return /^(\d+|-)$/.test(text);
  return text === "/dev/null";
}

/** A here-document whose body bash expands (`<<EOF`, not `<<'EOF'`) and that has `$` or `` ` ``. */
function expandingHeredoc(node: Node): boolean {
  const start = node.namedChildren.find((child) => child?.type === "heredoc_start");
  const body = node.namedChildren.find((child) => child?.type === "heredoc_body");
  if (!start || !body) return true;
  if (/['"\\]/.test(start.text)) return false;
  return /[$`]/.test(body.text);
}

/** Characters that make an unquoted word expand: globs, braces, `~`. */
const EXPANDING = /[*?[\]{}~]/;

/**
 * A word's text as bash passes it to the program, or `null` when it is known only when the
 * line runs (expansions, globs, `$'...'`).
 */
function wordValue(node: Node): string | null {
  switch (node.type) {
    case "word":
      // An escaped character is itself (`\\*` is a star); a lone trailing backslash is not.
      if (EXPANDING.test(node.text.replace(/\\./gsu, "")) || /\\$/.test(node.text)) return null;
      return node.text.replace(/\\(.)/gsu, "$1");
    case "number":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      if (node.namedChildren.some((child) => child?.type !== "string_content")) return null;
      // Inside double quotes a backslash escapes only these.
      return node.text.slice(1, -1).replace(/\\([$`"\\])/g, "$1");
    case "concatenation": {
      let text = "";
      for (const child of node.children) {
        const value = child ? wordValue(child) : null;
        if (value === null) return null;
        text += value;
      }
      return text;
    }
    default:
      return null;
  }
}
