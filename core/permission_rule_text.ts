/**
 * The text of a permission rule, as a settings file writes it: `Tool` (every call of the tool),
 * `Tool(content)` (the calls whose command or path the content covers), with `*` in the tool's
 * name standing for any characters (`mcp__github__*`). What the content means depends on what
 * the tool says a call is about ({@link RuleTarget} in permission_rules.ts): a command's words
 * (`npm test` exactly, `npm test:*` as its first words) or a path glob inside the project
 * (`src/**`). Pure: no I/O.
 *
 * @module
 */
import type { ApprovalScope } from "./permissions.ts";

/** A rule taken apart: the tool-name pattern and, when given, the content. */
export interface RuleText {
  /** The tool's name, `*` matching any characters. */
  tool: string;
  /** The content between the parentheses, trimmed; undefined for every call of the tool. */
  content?: string;
}

/** A tool name pattern: what tool names are made of, and `*`. */
const TOOL_PATTERN = /^[A-Za-z0-9_.*-]+$/;

/** The shape every rule has, for the error messages. */
const SHAPE = "a rule is a tool's name, or a name and what it covers in parentheses, such as " +
  "read_file, bash(npm test:*), write_file(src/**) or mcp__github__*";

/**
 * Takes a rule apart, or says what is wrong with it (without naming where it came from; the
 * caller adds the file). `Tool(*)` is the same as `Tool`.
 */
export function parseRuleText(text: string): RuleText | { problem: string } {
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) {
    return { problem: "it holds a control character or a line break; write it on one line" };
  }
  const trimmed = text.trim();
  if (trimmed === "") return { problem: `it is empty; ${SHAPE}` };
  const open = trimmed.indexOf("(");
  const tool = (open < 0 ? trimmed : trimmed.slice(0, open)).trim();
  if (tool === "" || !TOOL_PATTERN.test(tool) || !/[A-Za-z0-9_]/.test(tool)) {
    return {
      problem: `"${tool}" is not a tool name (letters, digits, _ . - and * for any ` +
        `characters); ${SHAPE}`,
    };
  }
  if (open < 0) return { tool };
  if (!trimmed.endsWith(")")) {
    return { problem: `it does not end with ")" after what it covers; ${SHAPE}` };
  }
  const content = trimmed.slice(open + 1, -1).trim();
  if (content === "") {
    return { problem: `the parentheses are empty; write ${tool} alone for every call of it` };
  }
  return content === "*" ? { tool } : { tool, content };
}

/**
 * What is wrong with the rule `text`, or undefined when it is well formed. For settings
 * validation: the message says what to write instead, and the caller names the file.
 */
export function checkRule(text: string): string | undefined {
  const parsed = parseRuleText(text);
  return "problem" in parsed ? parsed.problem : undefined;
}

/** A command rule's content: the exact words of a command, or its first words (`:*`). */
export interface CommandRule {
  words: string[];
  /** True for `words:*`: the command's words start with `words`. */
  prefix: boolean;
}

/**
 * Characters a command rule's word cannot hold: a rule names plain words, as the command's
 * words are after quoting is taken away, so quotes, operators, expansions and globs have no
 * place in it.
 */
const NOT_IN_COMMAND_WORD = /[\s'"`$\\;&|<>(){}*?[\]]/;

/**
 * The content of a rule for a command-running tool (`bash(npm test:*)`), or what is wrong.
 */
export function commandRule(content: string): CommandRule | { problem: string } {
  const prefix = content.endsWith(":*");
  const body = (prefix ? content.slice(0, -2) : content).trim();
  const words = body === "" ? [] : body.split(/[ \t]+/);
  const bad = words.find((word) => NOT_IN_COMMAND_WORD.test(word));
  if (words.length === 0 || bad !== undefined || /^[#~]/.test(words[0]!)) {
    return {
      problem: `"${content}" is not a command's words: write the words of one command, ` +
        "without quotes, operators (; && | >), expansions or globs, as `npm test` (that " +
        "command exactly) or `npm test:*` (every command starting with those words)",
    };
  }
  return { words, prefix };
}

/**
 * The content of a rule for a tool that acts on a path (`write_file(src/**)`): a glob relative
 * to the project, `./` taken off; or what is wrong.
 */
export function pathRule(content: string): { glob: string } | { problem: string } {
  const glob = content.replace(/^(\.\/)+/, "");
  const fix = "write a glob relative to the project, such as src/**, docs/*.md or **/*.test.ts";
  if (glob.startsWith("/") || glob.startsWith("~")) {
    return { problem: `"${content}" is not inside the project; ${fix}` };
  }
  if (glob.split("/").includes("..")) {
    return { problem: `"${content}" leaves the project with ".."; ${fix}` };
  }
  if (glob.startsWith("!")) {
    return { problem: `"${content}" is negated, which rules do not support; ${fix}` };
  }
  if (glob === "") return { problem: `"${content}" names no path; ${fix}` };
  return { glob };
}

/**
 * The rule that covers what a "don't ask again" answer covered, for saving it in a settings
 * file: a tool (`write_file`), a command's leading words (`bash(npm test:*)`), or every tool of
 * an MCP server (`mcp__github__*`).
 */
export function ruleForScope(scope: ApprovalScope): string {
  switch (scope.kind) {
    case "tool":
      return scope.tool;
    case "command":
      return `${scope.tool}(${scope.prefix}:*)`;
    case "server":
      return `mcp__${scope.server}__*`;
  }
}
