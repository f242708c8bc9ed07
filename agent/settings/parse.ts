/**
 * Reading one settings file's bytes: JSON with comments, checked against the schema. Every
 * mistake is reported at once, each naming `file:line:column`, the setting and the fix; a file
 * with any mistake is not used at all.
 *
 * @module
 */
import { findNodeAtLocation, getNodeValue, type Node } from "jsonc-parser";
import type { z } from "zod";
import { didYouMean, jsoncProperties, parseJsoncConfig } from "../../kit/mod.ts";
import { parseRuleText } from "../../core/permission_rule_text.ts";
import { settingAt } from "./keys.ts";
import { dottedKey, keysAt, type Settings, SETTINGS_SCHEMA, USER_ONLY_KEYS } from "./schema.ts";

/** A file's settings, or every mistake in it. */
export type SettingsParse =
  | { ok: true; settings: Settings }
  | { ok: false; problems: string[] };

const EXAMPLE = '{"model": "deepseek-flash", "permissions": {"deny": ["bash(rm:*)"]}}';

/**
 * Parses and checks the bytes of a settings file; `path` is how messages name it. Tool names
 * are checked against `knownTools` when given (the tools `--tools` can offer). In the project's
 * file (`scope` "project") a setting only the person's file may have is a mistake.
 */
export function parseSettings(
  bytes: Uint8Array,
  path: string,
  knownTools?: readonly string[],
  scope: "user" | "project" = "user",
): SettingsParse {
  const parsed = parseJsoncConfig(bytes, path, {
    emptyFix: `write {} or for example ${EXAMPLE}`,
    maxSyntaxErrors: 5,
  });
  if (!parsed.ok) return parsed;
  const { root, at } = parsed;
  const problems: string[] = [];
  const problem = (node: Node, message: string) => problems.push(`${at(node.offset)}: ${message}`);
  if (root.type !== "object") {
    problem(root, `the top level must be an object of settings, e.g. ${EXAMPLE}`);
    return { ok: false, problems };
  }
  reportRepeats(root, [], problem);
  const value = getNodeValue(root);
  const checked = checkSettings(value, knownTools);
  const userOnly = scope === "project" ? userOnlyKeys(value) : [];
  for (const mistake of [...checked.mistakes, ...userOnly]) {
    const node = nearestNode(root, mistake.path);
    // An unknown name points at the name, not at its value.
    const at = mistake.atName ? node.parent?.children?.[0] ?? node : node;
    problem(at, mistake.message);
  }
  problems.sort(byPlace);
  return problems.length > 0 || !checked.ok || userOnly.length > 0
    ? { ok: false, problems }
    : { ok: true, settings: checked.settings };
}

/** One mistake in a settings value: where, and what is wrong with the fix. */
interface Mistake {
  path: (string | number)[];
  /** True when the name at `path` is the mistake (an unknown setting). */
  atName: boolean;
  message: string;
}

type Checked = { ok: true; settings: Settings; mistakes: [] } | { ok: false; mistakes: Mistake[] };

/**
 * Checks a settings value against the schema (and tool names against `knownTools`); each
 * message names the setting and the fix. `hel config set` checks a value with it before writing.
 */
export function checkSettings(value: unknown, knownTools?: readonly string[]): Checked {
  const result = SETTINGS_SCHEMA.safeParse(value);
  const mistakes = [
    ...result.error?.issues.flatMap(describeIssue) ?? [],
    ...unknownTools(value, knownTools),
    ...misnamedRuleTools(value, knownTools),
  ];
  return result.success && mistakes.length === 0
    ? { ok: true, settings: result.data, mistakes: [] }
    : { ok: false, mistakes };
}

/** The settings of USER_ONLY_KEYS a project file sets, each a mistake that says why. */
function userOnlyKeys(value: unknown): Mistake[] {
  return Object.entries(USER_ONLY_KEYS).flatMap(([key, why]): Mistake[] => {
    return settingAt(value as Settings, key) === undefined ? [] : [{
      path: key.split("."),
      atName: true,
      message: `${key} may be set only in your own settings file ($HEL_HOME/settings.jsonc), ` +
        `not in a project's: ${why}; remove it from this file`,
    }];
  });
}

/** Names in `tools` that no tool has (whatever else is wrong with the file). */
function unknownTools(value: unknown, knownTools: readonly string[] | undefined): Mistake[] {
  const tools = (value as { tools?: unknown } | null)?.tools;
  if (!knownTools || !Array.isArray(tools)) return [];
  return tools.flatMap((name, index): Mistake[] =>
    typeof name !== "string" || knownTools.includes(name.trim()) ? [] : [{
      path: ["tools", index],
      atName: false,
      message: `tools[${index}]: unknown tool ${JSON.stringify(name)}` +
        `${didYouMean(name, knownTools)}; known tools: ${knownTools.join(", ")}`,
    }]
  );
}

/** Claude Code's names for the tools hel has, which people copy rules from. */
const OTHER_NAMES: Record<string, string> = {
  Bash: "bash",
  Read: "read_file",
  Write: "write_file",
  Edit: "search_replace",
  MultiEdit: "search_replace",
  Grep: "grep",
  Glob: "glob",
};

/**
 * Rules naming a known tool another way (`Bash(rm:*)`, `Read(./.env)`): rules match tool names
 * exactly, so such a deny rule would silently refuse nothing. A name hel cannot place (another
 * plugin's tool) is left alone.
 */
function misnamedRuleTools(value: unknown, knownTools: readonly string[] | undefined): Mistake[] {
  const permissions = (value as { permissions?: unknown } | null)?.permissions;
  if (!knownTools || permissions === null || typeof permissions !== "object") return [];
  return (["allow", "ask", "deny"] as const).flatMap((effect) => {
    const rules = (permissions as Record<string, unknown>)[effect];
    if (!Array.isArray(rules)) return [];
    return rules.flatMap((rule, index): Mistake[] => {
      const text = typeof rule === "string" ? parseRuleText(rule) : undefined;
      if (!text || "problem" in text || knownTools.includes(text.tool)) return [];
      const meant = knownTools.find((name) => name.toLowerCase() === text.tool.toLowerCase()) ??
        OTHER_NAMES[text.tool];
      if (meant === undefined || !knownTools.includes(meant)) return [];
      const fixed = text.content === undefined ? meant : `${meant}(${text.content})`;
      return [{
        path: ["permissions", effect, index],
        atName: false,
        message: `permissions.${effect}[${index}]: ${JSON.stringify(rule)} names no tool, so ` +
          `it would never match (tool names are as hel offers them: did you mean "${fixed}"?)`,
      }];
    });
  });
}

function describeIssue(issue: z.core.$ZodIssue): Mistake[] {
  const path = issue.path.filter((part) => typeof part !== "symbol") as (string | number)[];
  if (issue.code === "unrecognized_keys") {
    const known = keysAt(path);
    return issue.keys.map((key) => ({
      path: [...path, key],
      atName: true,
      message: `unknown setting ${dottedKey([...path, key])}${nameHint(key, known)}; ` +
        `allowed${path.length > 0 ? ` in ${dottedKey(path)}` : ""}: ${known.join(", ")}`,
    }));
  }
  const field = path.length > 0 ? dottedKey(path) : "the settings";
  return [{ path, atName: false, message: `${field} must be ${issue.message}` }];
}

/**
 * A name written twice in one object: JSON keeps the last silently, so a reader of the file
 * could see one rule while another applies.
 */
function reportRepeats(
  node: Node,
  path: string[],
  problem: (node: Node, message: string) => void,
): void {
  const seen = new Set<string>();
  for (const { name, key, value } of jsoncProperties(node)) {
    const here = [...path, name];
    if (seen.has(name)) problem(key, `${dottedKey(here)} is written twice; keep one`);
    seen.add(name);
    if (value.type === "object") reportRepeats(value, here, problem);
  }
}

/** The node at `path`, or the closest enclosing one that exists. */
function nearestNode(root: Node, path: (string | number)[]): Node {
  for (let length = path.length; length > 0; length--) {
    const node = findNodeAtLocation(root, path.slice(0, length));
    if (node) return node;
  }
  return root;
}

/** A did-you-mean that also knows `api_key_env` and `APIKEYENV` mean `apiKeyEnv`. */
export function nameHint(name: string, known: readonly string[]): string {
  const plain = (text: string) => text.toLowerCase().replace(/[-_]/g, "");
  const same = known.find((key) => plain(key) === plain(name));
  return same ? ` (did you mean "${same}"?)` : didYouMean(name, known);
}

/** Messages in file order: by line, then column. */
function byPlace(a: string, b: string): number {
  const place = (text: string) => text.match(/:(\d+):(\d+): /)?.slice(1).map(Number) ?? [0, 0];
  const [lineA = 0, columnA = 0] = place(a);
  const [lineB = 0, columnB = 0] = place(b);
  return lineA - lineB || columnA - columnB;
}
