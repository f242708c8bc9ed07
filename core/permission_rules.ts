/**
 * Permission rules deciding calls: the pure matcher. A rule names a tool (a `*` glob over tool
 * names) and may say which of its calls it covers; the tool says what a call is about
 * ({@link RuleTarget}: the commands a command line runs, or the path a call acts on) and this
 * module decides. Deny beats ask beats allow:
 *
 * - a deny or ask rule covers a call when it covers any of the call's commands (a program
 *   named by a path, `/bin/rm`, by its last name); when hel cannot tell (a word known only
 *   when the command runs, a command hidden behind `eval` or `sudo`), a deny rule makes the
 *   call asked instead of refused or allowed;
 * - an allow rule covers a command line only when hel could read all of it (`plain`) and
 *   every one of its commands is covered by an allow rule;
 * - a path rule covers the path resolved inside the project; a path outside never matches.
 *
 * The core knows no tool: a rule's content is read by what the tool says its calls are about.
 *
 * @module
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import type { PermissionRule, PermissionRules } from "./permissions.ts";
import {
  type CommandRule,
  commandRule,
  parseRuleText,
  pathRule,
  type RuleText,
} from "./permission_rule_text.ts";
import type { Tool } from "./types.ts";

/**
 * One simple command of a command line: its words as the program receives them, quotes taken
 * away; `null` for a word known only when the command runs (an expansion, a glob), which may
 * become no word or several. A command whose first word is `null` is one hel cannot name.
 */
export interface CommandPart {
  words: readonly (string | null)[];
}

/** What a permission rule's content is matched against for one call. */
export type RuleTarget =
  /**
   * A command line: every command it runs that hel could find, at any depth. `plain` is true
   * only when those are all it runs and nothing changes what they do (no substitution, no
   * redirection to a file, no wrapper such as `sudo`); only then can allow rules cover it.
   */
  | { kind: "command"; parts: readonly CommandPart[]; plain: boolean }
  /**
   * A path relative to the project (`.` for the project itself); undefined when outside.
   * `tree`: the call reads everything below the path (a search), so a deny or ask rule for
   * anything in there may cover it.
   */
  | { kind: "path"; path: string | undefined; tree?: boolean };

/** What a rule does to the calls it covers. */
export type RuleEffect = "allow" | "ask" | "deny";

/** The rules' say about one call. */
export interface RuleDecision {
  effect: RuleEffect;
  /** The rules that decided (an allowed command line may need one per command). */
  rules: readonly PermissionRule[];
  /** True when a deny rule may cover the call and hel could not tell, so it is asked. */
  uncertain?: boolean;
}

type Match = "yes" | "no" | "maybe";

interface CompiledRule {
  entry: PermissionRule;
  effect: RuleEffect;
  text: RuleText;
  coversTool: (name: string) => boolean;
  /** The content read as a command rule or a path rule, once the first call needs it. */
  command?: CommandRule | { problem: string };
  path?: { glob: string } | { problem: string };
}

/** What a call is about, as the matcher sees it; `unknown` when the tool could not say. */
type Target = RuleTarget | { kind: "none" } | { kind: "unknown" };

/**
 * A run's rules, compiled once. Malformed rules are left out and listed in {@link problems};
 * a rule whose content does not fit the tool it names is reported once, when first met.
 */
export class RuleBook {
  readonly #rules: CompiledRule[] = [];
  readonly #reported = new Set<string>();
  readonly #globs = new Map<string, (path: string) => boolean>();
  /** Each malformed rule: the rule, where it came from, what is wrong and the fix. */
  readonly problems: string[] = [];

  constructor(rules: PermissionRules | undefined) {
    for (const effect of ["deny", "ask", "allow"] as const) {
      for (const entry of rules?.[effect] ?? []) {
        const text = parseRuleText(entry.rule);
        if ("problem" in text) {
          this.problems.push(ruleProblem(entry, effect, text.problem));
          continue;
        }
        const coversTool = picomatch(text.tool, { nobrace: true, noextglob: true });
        this.#rules.push({ entry, effect, text, coversTool });
      }
    }
  }

  /** Whether the book holds any rule. */
  get empty(): boolean {
    return this.#rules.length === 0;
  }

  /**
   * The rules' decision on a call of `tool` with `args`, or undefined when no rule covers it.
   * `report` receives, once each, the rules that cannot apply to the tool they name.
   */
  async decide(
    tool: Pick<Tool, "name" | "ruleTarget">,
    args: Record<string, unknown>,
    report: (problem: string) => void,
  ): Promise<RuleDecision | undefined> {
    const rules = this.#rules.filter((rule) => rule.coversTool(tool.name));
    if (rules.length === 0) return undefined;
    let target: Target | undefined;
    // Asked of the tool only when a rule with content needs it (the shell parser loads lazily).
    const targetOf = async (): Promise<Target> => target ??= await callTarget(tool, args);
    for (const effect of ["deny", "ask"] as const) {
      let maybe: CompiledRule | undefined;
      for (const rule of rules.filter((rule) => rule.effect === effect)) {
        const found = await this.#coversAny(rule, tool.name, targetOf, report);
        if (found === "yes") return { effect, rules: [rule.entry] };
        if (found === "maybe") maybe ??= rule;
      }
      if (maybe) return { effect: "ask", rules: [maybe.entry], uncertain: effect === "deny" };
    }
    return await this.#allowed(
      rules.filter((rule) => rule.effect === "allow"),
      tool,
      targetOf,
      report,
    );
  }

  async #coversAny(
    rule: CompiledRule,
    toolName: string,
    targetOf: () => Promise<Target>,
    report: (problem: string) => void,
  ): Promise<Match> {
    if (rule.text.content === undefined) return "yes";
    const target = await targetOf();
    if (target.kind === "unknown") return "maybe";
    if (target.kind === "none") {
      this.#reportNoTarget(rule, toolName, report);
      return "no";
    }
    if (target.kind === "path") {
      const match = this.#pathMatch(rule, target.path, report);
      // A search of a folder reads what is below it: a rule for something in there may apply.
      if (match === "no" && target.tree && target.path !== undefined) {
        return globReachesBelow(rule.path ??= pathRule(rule.text.content!), target.path)
          ? "maybe"
          : "no";
      }
      return match;
    }
    const wanted = this.#commandRule(rule, report);
    if (!wanted) return "no";
    let found: Match = "no";
    for (const part of target.parts) {
      const match = wordsMatch(programByName(part.words, wanted), wanted);
      if (match === "yes") return "yes";
      if (match === "maybe") found = "maybe";
    }
    return found;
  }

  async #allowed(
    rules: CompiledRule[],
    tool: Pick<Tool, "name">,
    targetOf: () => Promise<Target>,
    report: (problem: string) => void,
  ): Promise<RuleDecision | undefined> {
    const whole = rules.find((rule) => rule.text.content === undefined);
    if (whole) return { effect: "allow", rules: [whole.entry] };
    if (rules.length === 0) return undefined;
    const target = await targetOf();
    if (target.kind === "path") {
      const rule = rules.find((rule) => this.#pathMatch(rule, target.path, report) === "yes");
      return rule ? { effect: "allow", rules: [rule.entry] } : undefined;
    }
    if (target.kind === "none") {
      for (const rule of rules) this.#reportNoTarget(rule, tool.name, report);
      return undefined;
    }
    if (target.kind === "unknown") return undefined;
    if (!target.plain || target.parts.length === 0) return undefined;
    const used: PermissionRule[] = [];
    for (const part of target.parts) {
      const rule = rules.find((rule) => {
        const wanted = this.#commandRule(rule, report);
        return wanted !== undefined && wordsMatch(part.words, wanted) === "yes";
      });
      if (!rule) return undefined;
      if (!used.includes(rule.entry)) used.push(rule.entry);
    }
    return { effect: "allow", rules: used };
  }

  #commandRule(rule: CompiledRule, report: (problem: string) => void): CommandRule | undefined {
    // Parsed at the first call it meets, then kept: the content never changes.
    const parsed = rule.command ??= commandRule(rule.text.content!);
    if ("problem" in parsed) {
      this.#report(rule, report, parsed.problem);
      return undefined;
    }
    return parsed;
  }

  #pathMatch(rule: CompiledRule, path: string | undefined, report: (p: string) => void): Match {
    const parsed = rule.path ??= pathRule(rule.text.content!);
    if ("problem" in parsed) {
      this.#report(rule, report, parsed.problem);
      return "no";
    }
    if (path === undefined) return "no";
    let matcher = this.#globs.get(parsed.glob);
    if (!matcher) {
      matcher = picomatch(parsed.glob, { dot: true, nonegate: true });
      this.#globs.set(parsed.glob, matcher);
    }
    return matcher(path) ? "yes" : "no";
  }

  #reportNoTarget(rule: CompiledRule, toolName: string, report: (problem: string) => void) {
    this.#report(
      rule,
      report,
      `${toolName} calls are not about a command or a path, so nothing can be matched ` +
        `against "${rule.text.content}"; name the tool alone`,
    );
  }

  #report(rule: CompiledRule, report: (problem: string) => void, problem: string): void {
    const key = `${rule.effect}\u0000${rule.entry.source}\u0000${rule.entry.rule}`;
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    report(`${ruleProblem(rule.entry, rule.effect, problem)}; the rule is ignored`);
  }
}

/** The problem of a rule, naming it, its list and its source. */
function ruleProblem(entry: PermissionRule, effect: RuleEffect, problem: string): string {
  return `permission rule "${entry.rule}" (permissions.${effect} in ${entry.source}): ${problem}`;
}

/** The tool's account of the call; a tool that fails to give one is treated as unknown. */
async function callTarget(
  tool: Pick<Tool, "ruleTarget">,
  args: Record<string, unknown>,
): Promise<Target> {
  if (!tool.ruleTarget) return { kind: "none" };
  try {
    return await tool.ruleTarget(args);
  } catch {
    return { kind: "unknown" };
  }
}

/**
 * The words with the program named as a deny or ask rule names it: `/bin/rm` and `./rm` are
 * `rm` to `bash(rm:*)`, or a path would walk around the rule. A rule that names a path keeps
 * to it. Allow rules never use this: an allowed `ls` does not cover whatever `./ls` is.
 */
function programByName(
  words: readonly (string | null)[],
  rule: CommandRule,
): readonly (string | null)[] {
  const program = words[0];
  if (typeof program !== "string" || rule.words[0]!.includes("/")) return words;
  const name = program.slice(program.lastIndexOf("/") + 1);
  return name === program ? words : [name, ...words.slice(1)];
}

/**
 * Whether a command's words are the rule's: its first words (`prefix`) or all of them. A
 * `null` word may be anything, so from the first one on the answer is `maybe`.
 */
function wordsMatch(words: readonly (string | null)[], rule: CommandRule): Match {
  for (const [at, wanted] of rule.words.entries()) {
    if (at >= words.length) return "no";
    const word = words[at];
    if (word === null) return "maybe";
    if (word !== wanted) return "no";
  }
  if (rule.prefix || words.length === rule.words.length) return "yes";
  // Words an expansion gives may be none at all; a written word is one too many.
  return words.slice(rule.words.length).every((word) => word === null) ? "maybe" : "no";
}

/**
 * Whether a path rule's glob could match something below `folder` (relative to the project):
 * its fixed start lies inside the folder, or the folder inside it.
 */
function globReachesBelow(rule: { glob: string } | { problem: string }, folder: string): boolean {
  if ("problem" in rule) return false;
  const base = picomatch.scan(rule.glob).base;
  if (folder === "." || base === "" || base === folder) return true;
  return base.startsWith(`${folder}/`) || folder.startsWith(`${base}/`);
}
