/**
 * Reviewing a project configuration that names external commands (hooks, MCP servers) before
 * anything in it runs. Trusted bytes are recorded by kind, canonical project path and SHA-256;
 * the bytes that were reviewed are the bytes the caller must use.
 *
 * @module
 */
import type { PluginContext } from "../plugin.ts";
import type { TrustKind } from "./trust_store.ts";

/** How a review ended. `trusted` covers both "already trusted" and "approved now". */
export type TrustOutcome = "trusted" | "refused" | "no-terminal";

/**
 * Escapes what could make a terminal show something other than what runs: C0/C1 control
 * characters (ANSI sequences, `\r` overwriting a line), DEL, bidi controls, line and paragraph
 * separators, and invisible characters (zero-width, word joiners, soft hyphen, Unicode tags
 * and the supplementary variation selectors, which can carry hidden text). Newlines and tabs
 * stay readable.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(
    // deno-lint-ignore no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu,
    (c) => {
      const code = c.codePointAt(0)!;
      const hex = code.toString(16);
      return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
    },
  );
}

const QUESTIONS: Record<TrustKind, string> = {
  hooks: "Trust this project's hook configuration? [y/N] ",
  mcp: "Trust this project's MCP configuration? [y/N] ",
};

const TITLES: Record<TrustKind, string> = {
  hooks: "project hooks (external commands, run outside the tool sandbox)",
  mcp: "project MCP servers (external commands, run outside the tool sandbox)",
};

/**
 * Returns `trusted` when these exact bytes are already trusted for this project; otherwise
 * shows the whole file and asks. Only "y" or "yes" trusts (and records it). No terminal means
 * nothing is trusted. A failure to save the record is a warning; the approval holds for this run.
 */
export async function reviewTrust(
  context: PluginContext,
  kind: TrustKind,
  configPath: string,
  bytes: Uint8Array,
): Promise<TrustOutcome> {
  if (await context.trust.isTrusted(kind, context.project, bytes)) return "trusted";
  if (!context.interactive) return "no-terminal";
  const text = escapeControlCharacters(new TextDecoder().decode(bytes));
  // Directory names may hold control characters too; a path must not drive the terminal.
  const project = escapeControlCharacters(context.project).replaceAll("\n", "\\n");
  const path = escapeControlCharacters(configPath).replaceAll("\n", "\\n");
  const answer = await context.ask(
    `hel: ${TITLES[kind]}\nproject: ${project}\nfile: ${path}\n` +
      `----- begin ${path} -----\n${text}${text.endsWith("\n") ? "" : "\n"}` +
      `----- end ${path} -----\n${QUESTIONS[kind]}`,
  );
  if (answer === undefined) return "no-terminal";
  if (!/^(y|yes)$/i.test(answer)) return "refused";
  try {
    await context.trust.record(kind, context.project, bytes);
  } catch (error) {
    context.log.warn(
      `could not save the trust record (${(error as Error).message}); trusted for this run only`,
    );
  }
  return "trusted";
}
