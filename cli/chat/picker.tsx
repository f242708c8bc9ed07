/**
 * A list to choose from (`/resume`, `hel --resume`): ↑/↓ move, Enter chooses, Esc gives up.
 * Labels arrive neutralised (see store.ts, cli/session_table.ts).
 *
 * @module
 */
import { Box, Text, useInput } from "ink";
import { useState } from "react";

/** Props of {@link Picker}. */
export interface PickerProps {
  title: string;
  /** A line above the labels, aligned with them (a table's column names). */
  header?: string;
  labels: readonly string[];
  /** How many rows the list may take. */
  rows: number;
  color: boolean;
  onChoose(index: number | undefined): void;
}

/** See the module comment. */
export function Picker({ title, header, labels, rows, color, onChoose }: PickerProps) {
  const [selected, setSelected] = useState(0);
  useInput((_input, key) => {
    if (key.escape) onChoose(undefined);
    else if (key.return) onChoose(labels.length > 0 ? selected : undefined);
    else if (key.upArrow) setSelected((at) => Math.max(0, at - 1));
    else if (key.downArrow) setSelected((at) => Math.min(labels.length - 1, at + 1));
  });
  const visible = Math.max(1, rows - (header === undefined ? 3 : 4));
  const first = Math.min(Math.max(0, selected - visible + 1), Math.max(0, labels.length - visible));
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{title}</Text>
      {header !== undefined && <Text dimColor>{`  ${header}`}</Text>}
      {labels.length === 0 && <Text dimColor>(nothing to choose)</Text>}
      {labels.slice(first, first + visible).map((label, offset) => {
        const index = first + offset;
        const chosen = index === selected;
        return (
          <Text key={index} color={chosen && color ? "cyan" : undefined} inverse={chosen && !color}>
            {chosen ? "❯ " : "  "}
            {label}
          </Text>
        );
      })}
      <Text dimColor>↑/↓ to move · Enter to choose · Esc to cancel</Text>
    </Box>
  );
}
