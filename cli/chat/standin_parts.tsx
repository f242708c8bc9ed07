/**
 * TEMPORARY stand-ins for the chat's parts other engineers are building (live activity,
 * footer), written against the props of
 * /work/tui_contract.md so the app runs end to end before they land. Each is replaced by the
 * real one and this file is deleted once they are on main.
 *
 * @module
 */
import { Box, Text } from "ink";

/** A tool call as the live area shows it (contract). */
export interface ToolActivityState {
  callId: string;
  name: string;
  summary: string;
  status: "asking" | "running" | "done" | "failed" | "declined";
  output: string;
}

/** One line of a call's arguments. */
export function callSummary(name: string, args: unknown): string {
  return `${name} ${JSON.stringify(args) ?? ""}`.slice(0, 100);
}

/** A call's status, summary and first output lines. */
export function ToolActivity(
  props: { call: ToolActivityState; expanded: boolean; color: boolean; width: number },
) {
  const lines = props.call.output.split("\n");
  const shown = props.expanded ? lines : lines.slice(0, 4);
  return (
    <Box flexDirection="column">
      <Text>[{props.call.status}] {props.call.summary}</Text>
      {props.call.output !== "" && <Text>{shown.join("\n")}</Text>}
    </Box>
  );
}

/** Reasoning, one line collapsed. */
export function Reasoning(
  props: { text: string; expanded: boolean; color: boolean; width: number },
) {
  const text = props.expanded ? props.text : props.text.split("\n")[0] + " …";
  return <Text dimColor>{text}</Text>;
}

/** The spinner line. */
export function Working(
  props: { startedAt: number; now: number; outputTokens: number | undefined; color: boolean },
) {
  const seconds = Math.floor((props.now - props.startedAt) / 1000);
  return <Text>* working {seconds}s · esc to interrupt</Text>;
}

/** The footer. */
export function Footer(props: {
  model: string;
  access: string;
  contextPercent: number | undefined;
  tokens: { input?: number; output?: number };
  notice: string | undefined;
  color: boolean;
  width: number;
}) {
  return (
    <Text>
      {props.model} · {props.access} · {props.notice ?? ""}
    </Text>
  );
}
