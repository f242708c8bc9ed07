/**
 * `/permissions`: the access level and the session's "don't ask again" rules, numbered;
 * `/permissions remove N` removes rule N, so such calls are asked about again.
 *
 * @module
 */
import type { ApprovalScope } from "../../../core/permissions.ts";
import type { AccessLevel } from "../../../core/types.ts";
import { escapeControlCharacters } from "../../../core/neutralise.ts";
import type { SlashCommand } from "../slash_commands.ts";

/**
 * What a rule covers, in the words of the permission question (describeScope in
 * session_rules.ts says the same; this stands in until that module is on main). Names come
 * from the model's calls and the configuration, so they are neutralised.
 */
export function describeRule(scope: ApprovalScope): string {
  const shown = (text: string) => escapeControlCharacters(text);
  switch (scope.kind) {
    case "tool":
      return shown(scope.tool);
    case "command":
      return `${shown(scope.tool)} commands starting with \`${shown(scope.prefix)}\``;
    case "server":
      return `every tool of the MCP server \`${shown(scope.server)}\``;
  }
}

const ACCESS: Record<AccessLevel, string> = {
  "read-only": "read-only: reads run, writes and commands are refused",
  confirm: "confirm: writes and commands are asked about, unless a rule below allows them",
  auto: "auto: every call runs without asking",
};

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
      context.print(`removed: ${describeRule(rule)}; such calls are asked about again`);
      return Promise.resolve();
    }
    const lines = [`access ${ACCESS[context.run.access]}`];
    if (rules.length === 0) {
      lines.push('no session rules ("a" at a permission question adds one)');
    } else {
      lines.push("allowed without asking, this session:");
      rules.forEach((rule, index) => lines.push(`  ${index + 1}. ${describeRule(rule)}`));
      lines.push("/permissions remove N removes one");
    }
    context.print(lines.join("\n"));
    return Promise.resolve();
  },
};
