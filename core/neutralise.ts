/**
 * The one neutraliser of text hel did not write itself (model answers, tool and MCP server
 * text, file contents, model API errors) before it reaches a terminal. Every control character
 * is shown as a visible `\uXXXX`, so no escape sequence (CSI, OSC, DCS, APC, PM, SOS, ...) can
 * start: each begins with ESC or a C1 character, and both are replaced. The rest of a sequence
 * is printable and stays as text. Because one character is replaced at a time, with no state,
 * a sequence split across two streamed chunks is neutralised as well as a whole one.
 *
 * @module
 */

/** C0 controls except tab and newline, DEL and C1 controls: what can drive a terminal. */
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

/**
 * The controls plus what can make a line read other than it is: bidi controls, line and
 * paragraph separators, and invisible characters (zero-width, word joiners, soft hyphen,
 * Unicode tags and the supplementary variation selectors, which can carry hidden text).
 */
const CONTROLS_AND_INVISIBLES =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** Options of {@link neutralise}. */
export interface NeutraliseOptions {
  /**
   * Also escape bidi controls and invisible characters. For what a person approves (a
   * question, a trust review, a `[tool]` line): there it must read exactly as what runs. Off
   * for answers, where zero-width joiners belong to emoji and some scripts.
   */
  invisibles?: boolean;
}

/**
 * `text` with every control character but newline and tab shown as `\uXXXX` (`\u{XXXXX}`
 * above the BMP). A lone `\r`, which could overwrite a line, is escaped; a `\r\n` line end
 * becomes `\n`, except with `invisibles`, where the `\r` is shown too. The result holds no control character but newline and tab, so neutralising it
 * again changes nothing.
 */
export function neutralise(text: string, options: NeutraliseOptions = {}): string {
  // What a person approves keeps every `\r` visible: it is part of what runs.
  const source = options.invisibles ? text : text.replaceAll("\r\n", "\n");
  return source.replace(
    options.invisibles ? CONTROLS_AND_INVISIBLES : CONTROLS,
    (c) => {
      const code = c.codePointAt(0)!;
      const hex = code.toString(16);
      return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
    },
  );
}

/**
 * {@link neutralise} with invisibles: for text a person approves (questions, reviews, `[tool]`
 * lines, listings of configuration), which must read exactly as what runs.
 */
export function escapeControlCharacters(text: string): string {
  return neutralise(text, { invisibles: true });
}

/**
 * Blank characters: spaces of every width and characters fonts draw empty (Braille blank,
 * Hangul fillers). Thousands of them in a row push what comes before out of sight.
 */
const BLANK_RUN =
  /[ \u00a0\u115f\u1160\u1680\u2000-\u200a\u202f\u205f\u2800\u3000\u3164\uffa0]{8,}/gu;

/**
 * `text` with each run of eight or more blanks counted instead (`[5000 spaces]`): for what a
 * person approves (a permission question, a trust review), so padding cannot scroll the start
 * of a command off the screen and leave a harmless tail above the question.
 */
export function shownBlankRuns(text: string): string {
  return text.replace(BLANK_RUN, (run) => {
    const count = [...run].length;
    return /^ +$/.test(run) ? ` [${count} spaces] ` : ` [${count} blank characters] `;
  });
}
