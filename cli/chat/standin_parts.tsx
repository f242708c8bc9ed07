/**
 * TEMPORARY stand-ins for the chat's parts other engineers are building (input box, live
 * activity, footer), written against the props of
 * /work/tui_contract.md so the app runs end to end before they land. Each is replaced by the
 * real one and this file is deleted once they are on main.
 *
 * @module
 */
import { Box, Text, useInput, usePaste } from "ink";
import { useState } from "react";

/** The contract's prompt history. */
export interface PromptHistory {
  entries(): readonly string[];
  add(text: string): Promise<void>;
}

/** An in-memory history (the real one keeps `.hel/history.jsonl`). */
export function openHistory(_projectRoot: string): Promise<PromptHistory> {
  const list: string[] = [];
  return Promise.resolve({
    entries: () => list,
    add: (text) => {
      list.push(text);
      return Promise.resolve();
    },
  });
}

/** Props of the input box (contract). */
export interface InputBoxProps {
  history: PromptHistory;
  commands: readonly { name: string; summary: string }[];
  busy: boolean;
  color: boolean;
  width: number;
  onSubmit(text: string): void;
  onEscape(): void;
  onCtrlC(hadText: boolean): void;
  onExit(): void;
  isActive?: boolean;
}

/** A bare input box: characters, Backspace, Ctrl-J, paste, ↑ history, Enter. */
export function InputBox(props: InputBoxProps) {
  const [text, setText] = useState("");
  const [back, setBack] = useState(0);
  const isActive = props.isActive ?? true;
  useInput((input, key) => {
    if (key.return) {
      if (text.endsWith("\\")) return setText(text.slice(0, -1) + "\n");
      if (text.trim() === "") return;
      props.onSubmit(text);
      void props.history.add(text);
      setText("");
      setBack(0);
    } else if (key.escape) props.onEscape();
    else if (key.ctrl && input === "c") {
      setText("");
      props.onCtrlC(text !== "");
    } else if (key.ctrl && input === "d") {
      if (text === "") props.onExit();
    } else if (key.ctrl && input === "j") setText(text + "\n");
    else if (key.backspace || key.delete) setText(text.slice(0, -1));
    else if (key.upArrow) {
      const entries = props.history.entries();
      const next = Math.min(back + 1, entries.length);
      if (next > 0) setText(entries[entries.length - next]!);
      setBack(next);
    } else if (!key.ctrl && !key.meta && input) setText(text + input);
  }, { isActive });
  usePaste((pasted) => setText(text + pasted.replaceAll("\r\n", "\n")), { isActive });
  return (
    <Box borderStyle="round" width={props.width}>
      <Text>{"> " + text}</Text>
    </Box>
  );
}

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
