/**
 * Reviewing a project configuration that names external commands (hooks, MCP servers) before
 * anything in it runs. The person sees what the parsed file runs, not its text. Trusted bytes
 * are recorded by kind, canonical project path and SHA-256; the bytes that were reviewed are
 * the bytes the caller must use.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import type { PluginContext } from "../../core/plugin.ts";
import type { TrustedConfig } from "../../core/trust.ts";
import { columnsOf, cutToColumns } from "./review_text.ts";
import type { TrustEntry, TrustSummary } from "../../core/trust.ts";
import { layoutEntries, REVIEW_SCREEN, type ShownEntry } from "./review_layout.ts";
import { escapeControlCharacters, shownBlankRuns } from "../../core/neutralise.ts";
import { groupDigits } from "../../core/text.ts";

// Kept here too: plugins and other modules import it from this module.
export { escapeControlCharacters };

/** How a review ended. `trusted` covers both "already trusted" and "approved now". */
export type TrustOutcome = "trusted" | "refused" | "no-terminal";

/** Outside text on one line: controls escaped, newlines and tabs shown as `\n` and `\t`. */
function oneLine(text: string): string {
  return escapeControlCharacters(text).replaceAll("\n", "\\n").replaceAll("\t", "\\t");
}

/** A word as a shell would need it written: plain when safe, else quoted with escapes. */
function shellWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : JSON.stringify(word);
}

function shown(entry: TrustEntry): ShownEntry {
  const run = entry.shell
    ? entry.command
    : [entry.command, ...entry.args ?? []].map(shellWord).join(" ");
  return {
    title: oneLine(entry.details ? `${entry.label} ${entry.details}` : entry.label),
    runLabel: entry.commandLabel ?? (entry.shell ? "sh -c" : "run"),
    program: entry.program ?? true,
    // Long runs of blanks counted, so padding cannot push the rest of a command out of sight.
    run: shownBlankRuns(oneLine(run)),
    folder: entry.folder === undefined ? undefined : oneLine(entry.folder),
    envNames: entry.envNames.map(oneLine),
    sandbox: entry.sandbox,
  };
}

/**
 * The review: what the parsed file runs, laid out to fit {@link REVIEW_SCREEN} with the
 * question on its last row. The file's own text is never part of it: blank lines and comments
 * in it could push the real commands off the screen and stage harmless-looking ones.
 */
export function reviewText(
  config: TrustedConfig,
  project: string,
  configPath: string,
  bytes: Uint8Array,
  summary: TrustSummary,
): string {
  const { rows, columns } = REVIEW_SCREEN;
  const { one, many } = summary.noun;
  const count = summary.entries.length;
  const outside = summary.entries.filter((entry) => !entry.sandbox).length;
  const text = new TextDecoder().decode(bytes);
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const size = `${groupDigits(lines)} line${lines === 1 ? "" : "s"}, ` +
    `${groupDigits(bytes.length)} byte${bytes.length === 1 ? "" : "s"}`;
  const runs = ` ${summary.verb ?? "runs"} ${count} ${count === 1 ? one : many}` +
    (outside > 0 ? `, ${outside} outside the sandbox` : "");
  // Only the path is cut, so the counts always show.
  const path = cutToColumns(oneLine(configPath), columns - columnsOf(`hel: ${runs}`));
  const header = [
    `hel: ${path}${runs}`,
    cutToColumns(`project: ${oneLine(project)}`, columns),
    `file: ${size}; what hel parsed from it follows (no comments)`,
  ];
  const { kind } = config;
  const footer = [
    `The file as written, escaped: hel trust ${kind} --show-file`,
    `Trust this project's ${config.subject}? [y/N] `,
  ];
  const room = rows - header.length - footer.length;
  const entries = count === 0 ? [`(no ${many}: nothing runs)`] : layoutEntries(
    summary.entries.map(shown),
    room,
    columns,
    (hidden) =>
      `… ${hidden} more ${hidden === 1 ? one : many} not shown; hel trust ${kind} --show-file ` +
      "shows the file",
  );
  return [...header, ...entries, ...footer].join("\n");
}

/**
 * Returns `trusted` when these exact bytes are already trusted for this project; otherwise
 * shows what the parsed file runs (`summary`, from the plugin that owns the file) and asks.
 * Only "y" or "yes" trusts (and records it). No terminal means nothing is trusted. A failure
 * to save the record is a warning; the approval holds for this run.
 */
export async function reviewTrust(
  context: PluginContext,
  config: TrustedConfig,
  configPath: string,
  bytes: Uint8Array,
  summary: TrustSummary,
): Promise<TrustOutcome> {
  const { kind } = config;
  if (await context.trust.isTrusted(kind, context.project, bytes)) return "trusted";
  if (!context.interactive) return "no-terminal";
  const answer = await context.ask(reviewText(config, context.project, configPath, bytes, summary));
  if (answer === undefined) return "no-terminal";
  if (!/^(y|yes)$/i.test(answer)) return "refused";
  try {
    await context.trust.record(kind, context.project, bytes);
  } catch (error) {
    context.log.warn(
      `could not save the trust record (${errorMessage(error)}); trusted for this run only`,
    );
  }
  return "trusted";
}
