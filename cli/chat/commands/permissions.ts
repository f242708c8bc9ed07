/**
 * `/permissions`: the access level, the permission rules of the settings files (each with its
 * file), the rules saved from this chat's questions and where, and the session's "don't ask
 * again" rules, numbered; `/permissions remove N` removes session rule N, so such calls are
 * asked about again.
 *
 * @module
 */
import type { PermissionRules } from "../../../core/permissions.ts";
import { escapeControlCharacters } from "../../../core/neutralise.ts";
import type { AccessLevel } from "../../../core/types.ts";
import type { SavedRule } from "../rule_saver.ts";
import { describeScope } from "../session_rules.ts";
import type { SlashCommand } from "../slash_commands.ts";
import { table } from "./format.ts";

const ACCESS: Record<AccessLevel, string> = {
  "read-only": "read-only: reads run, writes and commands are refused",
  confirm: "confirm: writes and commands are asked about, unless a rule below allows them",
  auto: "auto: every call runs without asking",
};

/** The settings files' rules, deny first as they apply; none when there are none. */
function settingsRules(permissions: PermissionRules): string[] {
  const rows = (["deny", "ask", "allow"] as const).flatMap((effect) =>
    permissions[effect].map((entry) => [effect, `${entry.rule}  (${entry.source})`] as const)
  );
  if (rows.length === 0) return [];
  return ["rules from the settings files:", escapeControlCharacters(table(rows))];
}

/** The rules saved from this chat, which later runs follow. */
function savedRules(saved: readonly SavedRule[]): string[] {
  if (saved.length === 0) return [];
  return [
    "saved from this chat's questions (later runs follow them):",
    ...saved.map((entry) => escapeControlCharacters(`  ${entry.rule} in ${entry.shown}`)),
  ];
}

export const permissionsCommand: SlashCommand = {
  name: "permissions",
  summary: "the session's don't-ask-again rules; remove one",
  argument: "[remove N]",
  run(context, argument) {
    const rules = context.rules.list();
    if (argument !== "") {
      const wanted = /^remove\s+(\d+)$/i.exec(argument);
      if (!wanted) {
        context.print("usage: /permissions, or /permissions remove N (N from the list)");
        return Promise.resolve();
      }
      const number = Number(wanted[1]);
      const rule = rules[number - 1];
      if (rule === undefined) {
        context.print(`there is no rule ${number}; /permissions lists them`);
        return Promise.resolve();
      }
      context.rules.remove(number - 1);
      context.print(`removed: ${describeScope(rule)}; such calls are asked about again`);
      return Promise.resolve();
    }
    const lines = [
      `access ${ACCESS[context.run.access]}`,
      ...settingsRules(context.run.permissions),
      ...savedRules(context.savedRules?.() ?? []),
    ];
    if (rules.length === 0) {
      lines.push('no session rules ("a" at a permission question adds one)');
    } else {
      lines.push("allowed without asking, this session:");
      rules.forEach((rule, index) => lines.push(`  ${index + 1}. ${describeScope(rule)}`));
      lines.push("/permissions remove N removes one");
    }
    context.print(lines.join("\n"));
    return Promise.resolve();
  },
};
