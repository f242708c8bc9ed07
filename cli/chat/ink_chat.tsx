/**
 * The interactive chat on a terminal, drawn with Ink: loaded with a dynamic `import()` by
 * cli/start.ts only when it starts, so one-shot runs never load Ink or React.
 * {@link prepareInkChat} comes before the run starts (its approver is the run's);
 * {@link runInkChat} draws the chat until the person leaves, then prints how to resume.
 *
 * @module
 */
import chalk from "chalk";
import { render } from "ink";
import type { Run } from "../../agent/run.ts";
import type { Approver } from "../../core/permissions.ts";
import type { ChatMessage } from "../../core/types.ts";
import { divertOutput, writeErr, writeFrame } from "../../kit/output.ts";
import { surroundings } from "../../kit/surroundings.ts";
import { ChatApp } from "./app.tsx";
import { ChatController } from "./controller.ts";
import { inkApprover } from "./ink_approver.ts";
import { inkStdout, type TerminalSize } from "./ink_stdout.ts";
import { inkStdin } from "./ink_stdin.ts";
import type { LineReader } from "../terminal.ts";
import { ChatStore } from "./store.ts";
import { openHistory } from "./history.ts";
import { SessionRules } from "./session_rules.ts";
import { type RuleSaver, ruleSaver } from "./rule_saver.ts";
import type { PluginContext } from "../../core/plugin.ts";
import { SLASH_COMMANDS } from "./slash_commands.ts";
import { earlierConversation } from "./earlier_conversation.ts";

/** Erase the screen and the scrollback, cursor home. */
const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

/** The chat's parts that exist before the run: its state, rules and approver. */
export interface PreparedInkChat {
  store: ChatStore;
  rules: SessionRules;
  /** Saves answers as rules in the settings files; none without a context to save in. */
  saver?: RuleSaver;
  approver: Approver;
  /** True while the chat draws the terminal. */
  drawing(): boolean;
  /** Leaves the chat as `/exit` does (SIGINT): the turn is interrupted, the chat ends. */
  leave(): Promise<void>;
  /** Gives the terminal back at once (SIGTERM, SIGHUP: hel is about to exit). */
  release(): void;
}

/**
 * Creates the store, the session's rules and the approver that asks through the chat; with
 * `context`, "don't ask again" answers can be saved as rules in its settings files.
 */
export function prepareInkChat(options: {
  color: boolean;
  size(): TerminalSize;
  context?: Pick<PluginContext, "project" | "helHome" | "trust">;
}): PreparedInkChat {
  // Colour is hel's decision (NO_COLOR, TERM), made for this terminal. Ink's colour library
  // guesses on its own and turns colour off whenever CI is set, even on a real terminal.
  chalk.level = options.color ? Math.max(chalk.level, 1) as 1 | 2 | 3 : 0;
  const store = new ChatStore({
    width: () => Math.max(20, options.size().columns),
    color: options.color,
    notifyDelayMs: 16,
  });
  const rules = new SessionRules();
  const saver = options.context
    ? ruleSaver(options.context, surroundings().env("HOME"))
    : undefined;
  return {
    store,
    rules,
    ...(saver ? { saver } : {}),
    approver: inkApprover(store, rules, saver),
    drawing: () => false,
    leave: () => Promise.resolve(),
    release: () => {},
  };
}

/** What the chat shows and needs besides the run. */
export interface InkChatOptions {
  project: string;
  model: string;
  access: string;
  color: boolean;
  size(): TerminalSize;
  /** The conversation so far (a resumed session's), shown first. */
  earlier: readonly ChatMessage[];
  /** hel's one reader of stdin: the chat's keys come through it. */
  reader: LineReader;
  /** A fresh signal per turn (SIGINT aborts it) and the end of a turn. */
  nextSignal(): AbortSignal;
  idle(): void;
}

/** Draws the chat until the person leaves; returns the exit code (0). */
export async function runInkChat(
  run: Run,
  prepared: PreparedInkChat,
  options: InkChatOptions,
): Promise<number> {
  const { store, rules, saver } = prepared;
  const history = await openHistory(options.project);
  const terminal = inkStdout(options.size);
  const keys = inkStdin(options.reader);
  store.add({
    kind: "banner",
    text: `hel · ${options.model} · ${options.access} · session ${run.session.id}\n` +
      "Enter sends · Ctrl-J new line · Esc interrupts · Ctrl-C twice or Ctrl-D quits · /help",
  });
  for (const item of earlierConversation(options.earlier, options.color, options.size().columns)) {
    store.add(item);
  }
  let instance: ReturnType<typeof render> | undefined;
  const controller = new ChatController({
    run,
    store,
    rules,
    ...(saver ? { saver } : {}),
    nextSignal: options.nextSignal,
    idle: options.idle,
    clearScreen: () => {
      // The screen and its scrollback go; Ink then draws its frame from the top again.
      writeFrame(CLEAR_SCREEN);
      instance?.clear();
    },
  });
  // While Ink draws the screen, whatever else hel writes (a plugin's warning) joins the
  // transcript instead of tearing the frame.
  const restoreOutput = divertOutput((text) => store.notice(text.trimEnd(), "warning"));
  try {
    instance = render(
      <ChatApp
        store={store}
        controller={controller}
        run={run}
        history={history}
        commands={() => [...SLASH_COMMANDS, ...run.chatCommands()]}
        model={options.model}
        access={options.access}
        color={options.color}
      />,
      {
        stdout: terminal.stdout,
        stdin: keys.stdin,
        patchConsole: false,
        exitOnCtrlC: false,
        // hel chose this chat because both ends are terminals (mode.ts). Ink would otherwise
        // draw only the last frame whenever CI is set in the environment (GitHub's runners, a
        // developer's shell in a CI container), leaving the person a blank screen.
        interactive: true,
        kittyKeyboard: { mode: "auto" },
        maxFps: 60,
        incrementalRendering: true,
      },
    );
    const drawn = instance;
    const unmounted = (async () => {
      await controller.exited;
      // The turn in flight was interrupted: let it end and be saved before hel goes.
      await settledWithin(controller.settled(), 5_000);
      drawn.unmount();
      await drawn.waitUntilExit();
    })();
    prepared.drawing = () => true;
    prepared.leave = () => {
      controller.exit();
      return unmounted;
    };
    prepared.release = () => drawn.unmount();
    await unmounted;
  } finally {
    prepared.drawing = () => false;
    prepared.release = () => {};
    store.dispose();
    restoreOutput();
    keys.dispose();
    terminal.dispose();
  }
  writeErr(
    run.sessionSaved
      ? `session ${run.session.id} saved; continue it with: hel --resume ${run.session.id}\n`
      : "no session saved: the model never answered\n",
  );
  return 0;
}

/** Waits for `work`, or `ms` milliseconds at most. */
async function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  await Promise.race([work, bound]).finally(() => clearTimeout(timer));
}
