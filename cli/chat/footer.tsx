/**
 * The chat's last line: the model, the access level, how full the context window is, the
 * tokens so far, and on the right a hint — or a notice in its place ("press Ctrl-C again to
 * exit"). A figure the server did not report says so in words, never `?`.
 *
 * @module
 */
import { Box, Text } from "ink";
import { paint } from "./paint.ts";
import { tokens } from "./commands/format.ts";

/** Props of {@link Footer}. */
export interface FooterProps {
  model: string;
  /** The access level (`read-only`, `confirm`, `auto`). */
  access: string;
  /** Share of the context window in use, in percent; undefined before it is known. */
  contextPercent: number | undefined;
  /** Tokens so far; a figure is undefined when the server did not report it. */
  tokens: { input?: number; output?: number };
  /** Replaces the hint while set (a warning the person must see now). */
  notice: string | undefined;
  color: boolean;
  /** Columns to draw in. */
  width: number;
}

/** What the footer's right side says when there is no notice. */
export const FOOTER_HINT = "/help for commands";

/** What an unreported figure reads as. */
export const NOT_REPORTED = "not reported by the server";

/** The footer's left side: `deepseek-flash · confirm · context 42% · tokens 1,234 in / 56 out`. */
export function footerStatus(
  { model, access, contextPercent, tokens }: Pick<
    FooterProps,
    "model" | "access" | "contextPercent" | "tokens"
  >,
): string {
  return [
    model,
    access,
    ...contextPercent === undefined ? [] : [`context ${Math.max(0, Math.round(contextPercent))}%`],
    tokenText(tokens.input, tokens.output),
  ].join(" · ");
}

function tokenText(input: number | undefined, output: number | undefined): string {
  if (input === undefined && output === undefined) return `tokens ${NOT_REPORTED}`;
  const figure = (count: number | undefined, way: string) =>
    count === undefined ? `${way} ${NOT_REPORTED}` : `${tokens(count)} ${way}`;
  return `tokens ${figure(input, "in")} / ${figure(output, "out")}`;
}

/** The status on the left (cut first when the line is narrow), the hint or notice on the right. */
export function Footer(props: FooterProps) {
  const { notice, color, width } = props;
  return (
    <Box width={width}>
      <Box flexGrow={1} flexShrink={1} marginRight={2}>
        <Text wrap="truncate-end" {...paint(color, { dimColor: true })}>
          {footerStatus(props)}
        </Text>
      </Box>
      <Box flexShrink={0}>
        {notice === undefined
          ? <Text {...paint(color, { dimColor: true })}>{FOOTER_HINT}</Text>
          : <Text {...paint(color, { color: "yellow", bold: true })}>{notice}</Text>}
      </Box>
    </Box>
  );
}
