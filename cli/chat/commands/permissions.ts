/**
 * `/permissions`: the access level and the session's "don't ask again" rules, numbered;
 * `/permissions remove N` removes rule N, so such calls are asked about again.
 *
 * @module
 */
import type { AccessLevel } from "../../../core/types.ts";
import { describeScope } from "../session_rules.ts";
import type { SlashCommand } from "../slash_commands.ts";

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
      context.print(`removed: ${describeScope(rule)}; such calls are asked about again`);
      return Promise.resolve();
    }
    const lines = [`access ${ACCESS[context.run.access]}`];
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
