/**
 * The chat on the screen: the transcript (printed once into the scrollback), the live part
 * (reasoning and answer being streamed, calls running, the spinner), the permission box or a
 * picker when one is open, the input box and the footer. What happens on input is the
 * controller's (controller.ts); what is shown is the store's (store.ts).
 *
 * @module
 */
import { Box, Static, Text, useInput, useWindowSize } from "ink";
import { useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore } from "react";
import type { Run } from "../../agent/run.ts";
import type { ChatController } from "./controller.ts";
import type { ChatStore } from "./store.ts";
import { Picker } from "./picker.tsx";
import { TranscriptItemView } from "./transcript_item.tsx";
import { Footer } from "./footer.tsx";
import { Reasoning } from "./reasoning.tsx";
import { ToolActivity } from "./tool_activity.tsx";
import { Working } from "./working.tsx";
import { contextPercent } from "./context_use.ts";
import { PermissionBox } from "./permission_box.tsx";
import { FormBox } from "./form_box.tsx";
import { InputBox } from "./input_box.tsx";
import type { CommandSource } from "./command_completion.ts";
import type { PromptHistory } from "./history.ts";

/** Props of {@link ChatApp}. */
export interface ChatAppProps {
  store: ChatStore;
  controller: ChatController;
  run: Run;
  history: PromptHistory;
  /** The slash commands, or where to get them now (plugins' may change during a run). */
  commands: CommandSource;
  model: string;
  access: string;
  color: boolean;
}

/** The time now, ticking while a turn runs (for the spinner's elapsed time). */
function useTicking(active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** See the module comment. */
export function ChatApp(props: ChatAppProps) {
  const { store, controller, color } = props;
  const state = useSyncExternalStore(store.subscribe, store.snapshot);
  const { columns, rows } = useWindowSize();
  const width = Math.max(20, columns);
  const now = useTicking(state.busy !== undefined);
  const { generation, items } = state.transcript;
  useLayoutEffect(() => store.printed(generation, items.length), [generation, items.length]);
  const modal = state.question !== undefined || state.picker !== undefined ||
    state.form !== undefined;

  useInput((input, key) => {
    if (key.ctrl && input === "o") {
      const live = state.tools.length > 0 || state.liveReasoning !== "";
      const last = store.lastExpandable();
      if (live) store.toggleExpanded();
      else if (last) store.add({ ...last, expanded: true });
    } else if (modal && key.ctrl && input === "c") controller.ctrlC();
  });

  const tokens = props.run.usage;
  // The conversation changes with a model call or a finished item, not with each streamed
  // piece; measuring it per frame would cost the whole conversation after a resume.
  const context = useMemo(
    () => contextPercent(props.run),
    [props.run, tokens.modelCalls, generation, items.length, state.busy === undefined],
  );
  return (
    <>
      <Static key={generation} items={[...items]}>
        {(item) => <TranscriptItemView key={item.key} item={item} color={color} width={width} />}
      </Static>
      <Box flexDirection="column" width={width}>
        {state.liveReasoning !== "" && (
          <Box marginTop={1}>
            <Reasoning
              text={state.liveReasoning}
              expanded={state.expanded}
              color={color}
              width={width}
            />
          </Box>
        )}
        {state.liveAnswer !== "" && (
          <Box marginTop={state.liveAnswerFirst ? 1 : 0}>
            <Text>{state.liveAnswer}</Text>
          </Box>
        )}
        {state.tools.map((call) => (
          <Box key={call.callId} marginTop={1}>
            <ToolActivity call={call} expanded={state.expanded} color={color} width={width} />
          </Box>
        ))}
        {state.busy && !state.question && !state.form && (
          <Box marginTop={1}>
            <Working
              startedAt={state.busy.startedAt}
              now={Math.max(now, state.busy.startedAt)}
              outputTokens={state.busy.streamedChars > 0
                ? Math.ceil(state.busy.streamedChars / 4)
                : undefined}
              {...state.busy.retry === undefined ? {} : { note: state.busy.retry }}
              color={color}
            />
          </Box>
        )}
        {state.question && (
          <Box marginTop={1}>
            <PermissionBox
              key={state.question.id}
              request={state.question.request}
              {...(state.question.saveFiles ? { saveFiles: state.question.saveFiles } : {})}
              width={width}
              rows={Math.max(8, rows - 6)}
              color={color}
              onAnswer={state.question.answer}
            />
          </Box>
        )}
        {state.form && !state.question && (
          <Box marginTop={1}>
            <FormBox
              key={state.form.id}
              question={state.form.question}
              width={width}
              rows={Math.max(8, rows - 6)}
              color={color}
              onAnswer={state.form.answer}
            />
          </Box>
        )}
        {state.picker && (
          <Box marginTop={1}>
            <Picker
              key={state.picker.id}
              title={state.picker.title}
              labels={state.picker.labels}
              rows={Math.max(5, rows - 6)}
              color={color}
              onChoose={state.picker.choose}
            />
          </Box>
        )}
        <Box marginTop={1}>
          <InputBox
            history={props.history}
            commands={props.commands}
            busy={state.busy !== undefined}
            color={color}
            width={width}
            onSubmit={(text) => controller.submit(text)}
            onEscape={() => controller.interrupt()}
            onCtrlC={() => controller.ctrlC()}
            onExit={() => controller.exit()}
            isActive={!modal}
          />
        </Box>
        <Footer
          model={props.model}
          access={props.access}
          contextPercent={context}
          tokens={{
            ...(tokens.inputTokens !== undefined ? { input: tokens.inputTokens } : {}),
            ...(tokens.outputTokens !== undefined ? { output: tokens.outputTokens } : {}),
          }}
          notice={state.footerNotice}
          color={color}
          width={width}
        />
      </Box>
    </>
  );
}
