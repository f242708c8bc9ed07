/**
 * What permission rules cost a call (core/permission_rules.ts with the bash tool's parser,
 * plugins/tools/shell/command_line.ts): deciding a `bash` call against 10, 100 and 1,000 allow
 * rules, for command lines of 1, 10 and 100 commands joined by `&&`. Reading the line should
 * grow with its length, and matching with rules × commands at worst, never more.
 *
 * @module
 */
import { RuleBook } from "../core/permission_rules.ts";
import { readCommandLine } from "../plugins/tools/shell/command_line.ts";
import { median, repeat } from "./stats.ts";
import { int, table } from "./table.ts";

/** Figures for one number of rules and one line length (medians). */
export interface PermissionRulesRow {
  rules: number;
  commands: number;
  /** Reading the command line with the bash parser, ms. */
  readMs: number;
  /** The whole decision (reading included), ms. */
  decideMs: number;
}

const BASH = {
  name: "bash",
  ruleTarget: async ({ command }: Record<string, unknown>) => {
    const { parts, plain } = await readCommandLine(String(command));
    return { kind: "command" as const, parts, plain };
  },
};

async function measure(rules: number, commands: number, runs: number) {
  const allow = Array.from({ length: rules }, (_, i) => ({
    rule: `bash(tool${i} check:*)`,
    source: "bench",
  }));
  const book = new RuleBook({ allow, ask: [], deny: [] });
  // Every command is allowed by a rule near the end of the list: the matcher's worst case.
  const command = Array.from(
    { length: commands },
    (_, i) => `tool${rules - 1 - (i % Math.min(rules, 5))} check --file src/f${i}.ts`,
  ).join(" && ");
  for (let i = 0; i < 3; i++) await book.decide(BASH, { command }, () => {}); // warm up
  const readMs = median(
    await repeat(runs, async () => {
      const start = performance.now();
      await readCommandLine(command);
      return performance.now() - start;
    }),
  );
  const decideMs = median(
    await repeat(runs, async () => {
      const start = performance.now();
      const decision = await book.decide(BASH, { command }, () => {});
      if (decision?.effect !== "allow") throw new Error("bench: the line was not allowed");
      return performance.now() - start;
    }),
  );
  return { rules, commands, readMs, decideMs };
}

/** Decisions at 10, 100 and 1,000 rules for lines of 1, 10 and 100 commands. */
export async function permissionRules(runs: number): Promise<PermissionRulesRow[]> {
  await readCommandLine("true"); // the parser loads once per process; not part of a decision
  const rows: PermissionRulesRow[] = [];
  for (const rules of [10, 100, 1000]) {
    for (const commands of [1, 10, 100]) rows.push(await measure(rules, commands, runs));
  }
  return rows;
}

/** The report's section. */
export function formatPermissionRules(rows: readonly PermissionRulesRow[]): string[] {
  return [
    "## Permission rules",
    "Deciding a `bash` call against allow rules (`RuleBook.decide`, in process): the command " +
    "line read with tree-sitter-bash, then every command matched. The parser's one-time load is " +
    "left out.",
    table(
      ["rules", "commands in the line", "read (ms)", "decide (ms)"],
      rows.map((row) => [
        int(row.rules),
        String(row.commands),
        row.readMs.toFixed(2),
        row.decideMs.toFixed(2),
      ]),
    ),
  ];
}

if (import.meta.main) {
  console.log(formatPermissionRules(await permissionRules(Number(Deno.args[0] ?? 5))).join("\n\n"));
}
