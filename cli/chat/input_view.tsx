/**
 * How the input box looks for a given state: a bordered box with the `> ` prompt and the text
 * (cursor in inverse video, long pastes as markers), or the Ctrl-R search line; under it the
 * matching slash commands and a hint. Drawing only: keys are `input_keys.ts`'s.
 *
 * @module
 */
import { Box, Text } from "ink";
import { Fragment } from "react";
import type { CommandInfo } from "./command_completion.ts";
import { matchingCommands } from "./command_completion.ts";
import { inputLines, type Piece, shownText } from "./input_lines.ts";
import type { InputState } from "./input_state.ts";
import { completionOpen } from "./input_keys.ts";

/** Under the box while an answer streams: what Enter does then. */
export const BUSY_HINT = "enter queues your message until the answer ends";
/** Under an empty box otherwise. */
export const IDLE_HINT = "\\+enter new line · ↑ history · ctrl-r search · / commands";
/** Under the box during a Ctrl-R search. */
export const SEARCH_HINT = "enter to edit it · ctrl-r older · esc cancel";
/** The most commands listed under the box. */
const LISTED_COMMANDS = 8;

/** What {@link InputView} draws. */
export interface InputViewProps {
  state: InputState;
  commands: readonly CommandInfo[];
  history: readonly string[];
  busy: boolean;
  color: boolean;
  width: number;
  /** A line about the box itself (e.g. the history could not be saved), already neutralised. */
  notice?: string;
}

function PieceText({ piece, color }: { piece: Piece; color: boolean }) {
  if (piece.kind === "cursor") return <Text inverse>{piece.text}</Text>;
  if (piece.kind === "marker" && color) return <Text color="cyan">{piece.text}</Text>;
  return <Text>{piece.text}</Text>;
}

/** All lines as one text: Ink lays out one text node far faster than one per line. */
function Lines({ lines, color }: { lines: Piece[][]; color: boolean }) {
  return (
    <Box flexGrow={1}>
      <Text>
        {lines.map((line, row) => (
          <Fragment key={row}>
            {row > 0 && "\n"}
            {line.map((piece, index) => <PieceText key={index} piece={piece} color={color} />)}
          </Fragment>
        ))}
      </Text>
    </Box>
  );
}

function SearchLine(
  { state, history, color }: Omit<InputViewProps, "commands" | "busy" | "width">,
) {
  const search = state.search!;
  const match = search.match === undefined ? "" : history[search.match] ?? "";
  const label = `(${search.failed ? "failed " : ""}reverse-i-search)'${shownText(search.query)}': `;
  return (
    <Box>
      <Text color={color ? "yellow" : undefined}>{label}</Text>
      <Lines lines={inputLines({ text: match, cursor: 0 }, [], false)} color={color} />
    </Box>
  );
}

function CommandList({ commands, color }: { commands: readonly CommandInfo[]; color: boolean }) {
  const shown = commands.slice(0, LISTED_COMMANDS);
  const nameWidth = Math.max(...shown.map((command) => command.name.length)) + 3;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {shown.map((command) => (
        <Text key={command.name} wrap="truncate-end">
          <Text color={color ? "cyan" : undefined}>
            {`/${shownText(command.name.replace(/^\//, ""))}`.padEnd(nameWidth)}
          </Text>
          <Text dimColor={color}>{shownText(command.summary)}</Text>
        </Text>
      ))}
      {commands.length > shown.length && (
        <Text dimColor={color}>{`… ${commands.length - shown.length} more`}</Text>
      )}
    </Box>
  );
}

function hintFor(state: InputState, busy: boolean): string | undefined {
  if (state.search) return SEARCH_HINT;
  if (busy) return BUSY_HINT;
  return state.editor.text === "" ? IDLE_HINT : undefined;
}

/** The input box as it looks for `state`. */
export function InputView(props: InputViewProps) {
  const { state, commands, busy, color, width, notice } = props;
  const matches = completionOpen(state, commands)
    ? matchingCommands(state.editor.text, commands)
    : [];
  const hint = hintFor(state, busy);
  return (
    <Box flexDirection="column" width={width}>
      <Box
        borderStyle="round"
        borderColor={color ? (busy ? "gray" : "blue") : undefined}
        paddingX={1}
      >
        {state.search ? <SearchLine state={state} history={props.history} color={color} /> : (
          <Box>
            <Text color={color ? "blue" : undefined} bold={color}>{"> "}</Text>
            <Lines lines={inputLines(state.editor, state.pastes)} color={color} />
          </Box>
        )}
      </Box>
      {matches.length > 0 && <CommandList commands={matches} color={color} />}
      {notice !== undefined && <Text color={color ? "yellow" : undefined}>{notice}</Text>}
      {hint !== undefined && matches.length === 0 && (
        <Box paddingLeft={2}>
          <Text dimColor={color} wrap="truncate-end">{hint}</Text>
        </Box>
      )}
    </Box>
  );
}
