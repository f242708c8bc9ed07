/**
 * The model's reasoning (`reasoning_content`), set apart from its answer: dimmed, one line by
 * default (its first line and `…` when there is more), the whole text when expanded.
 *
 * @module
 */
import { Box, Text } from "ink";
import { paint } from "./paint.ts";

/** Props of {@link Reasoning}. */
export interface ReasoningProps {
  /** The reasoning so far, already neutralised. */
  text: string;
  expanded: boolean;
  color: boolean;
  /** Columns to draw in. */
  width: number;
}

/** What marks reasoning apart from the answer, colour or not. */
export const REASONING_LABEL = "✻ thinking";

/** A collapsed view never hands the layout more of the first line than this. */
const FIRST_LINE_CHARS = 1_000;

/** The reasoning, dimmed, collapsed to a line unless expanded. */
export function Reasoning({ text, expanded, color, width }: ReasoningProps) {
  const dim = paint(color, { dimColor: true });
  const trimmed = text.trim();
  if (expanded) {
    return (
      <Box flexDirection="column" width={width}>
        <Text {...paint(color, { dimColor: true, italic: true })}>{REASONING_LABEL}</Text>
        <Box paddingLeft={2}>
          <Text {...dim}>{trimmed}</Text>
        </Box>
      </Box>
    );
  }
  const { line, more } = firstLine(trimmed);
  return (
    <Box width={width}>
      <Text wrap="truncate-end" {...dim}>
        <Text {...paint(color, { dimColor: true, italic: true })}>{REASONING_LABEL}</Text>
        {line === "" ? "" : `  ${line}${more ? "…" : ""}`}
      </Text>
    </Box>
  );
}

/** The first line of `text` and whether anything follows it. */
export function firstLine(text: string): { line: string; more: boolean } {
  const end = text.indexOf("\n");
  const line = end === -1 ? text : text.slice(0, end).trimEnd();
  const cut = line.slice(0, FIRST_LINE_CHARS);
  return { line: cut, more: end !== -1 || cut.length < line.length };
}
