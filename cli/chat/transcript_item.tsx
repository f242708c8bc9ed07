/**
 * How one finished transcript item looks: the person's message, a block of the answer,
 * reasoning, a tool call, or a line of hel's. Text arrives neutralised (see store.ts).
 *
 * @module
 */
import { Box, Text } from "ink";
import type { TranscriptItem } from "./transcript.ts";
import { Reasoning } from "./reasoning.tsx";
import { ToolActivity } from "./tool_activity.tsx";

/** Props of {@link TranscriptItemView}. */
export interface TranscriptItemProps {
  item: TranscriptItem;
  color: boolean;
  width: number;
}

const TONES = { info: undefined, plain: undefined, warning: "yellow", error: "red" } as const;

/** One transcript item. */
export function TranscriptItemView({ item, color, width }: TranscriptItemProps) {
  switch (item.kind) {
    case "banner":
      return <Text dimColor>{item.text}</Text>;
    case "user":
      return (
        <Box marginTop={1}>
          <Text color={color ? "cyan" : undefined} bold>{"> "}</Text>
          <Text>{item.text}</Text>
        </Box>
      );
    case "answer":
      return (
        <Box marginTop={item.first ? 1 : 0}>
          <Text>{item.text}</Text>
        </Box>
      );
    case "reasoning":
      return (
        <Box marginTop={1}>
          <Reasoning
            text={item.text}
            expanded={item.expanded ?? false}
            color={color}
            width={width}
          />
        </Box>
      );
    case "tool":
      return (
        <Box marginTop={1}>
          <ToolActivity
            call={item.call}
            expanded={item.expanded ?? false}
            color={color}
            width={width}
          />
        </Box>
      );
    case "notice":
      return (
        <Box marginTop={1}>
          <Text color={color ? TONES[item.tone] : undefined} dimColor={item.tone === "info"}>
            {item.text}
          </Text>
        </Box>
      );
  }
}
