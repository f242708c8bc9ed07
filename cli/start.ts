/**
 * The default action of `hel`: resolve settings from the flags, start a run with the active
 * plugins, then run one instruction or the interactive chat. Ctrl-C cancels the request in
 * flight; plugins are shut down on every exit path.
 *
 * @module
 */
import type { HelEvent } from "../core/events.ts";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";
import type { Approver, PermissionRules } from "../core/permissions.ts";
import { apiKey, apiKeyVariable } from "./api_key.ts";
import type { AccessLevel } from "../core/types.ts";
import { escapeControlCharacters } from "../kit/trust/review.ts";
import { UsageError } from "../core/usage_error.ts";
import { fileApprover, noticeWhenUnanswered, terminalApprover } from "./approvers.ts";
import { type Interrupts, runChat, runOneShot } from "./chat.ts";
import { chatCommands } from "./chat_commands.ts";
import { DEFAULT_CONTEXT_WINDOW, policyFromFlags } from "../agent/compaction/plan.ts";
import { checkResumeFlags, sessionToOpen } from "./resume_choice.ts";
import { createCliContext, stderrLogger } from "../agent/context_file.ts";
import { exitCleanlyOnTermination } from "./exit_signals.ts";
import { type Run, startRun } from "../agent/run.ts";
import { withPipedInput } from "./piped_input.ts";
import { clearStatus, writeErr } from "../kit/output.ts";
import { printRetry } from "./retry_line.ts";
import { surroundings } from "../kit/surroundings.ts";
import { LineReader } from "./terminal.ts";
import { type RecordedRun, recordRun } from "../agent/record.ts";
import { chatMode, colorWanted, terminalFacts, terminalSize } from "./chat/mode.ts";
import type { ModelClient } from "../core/model.ts";
import { createOpenAIClient } from "../agent/model/openai_client.ts";
import { checkOutputFormat, type OutputFormat } from "./output/format.ts";
import { writeJsonLine } from "./output/json_line.ts";
import { createReporter } from "./output/reporter.ts";

/** The parsed flags of the root command (plugin flags included, by camelCase name). */
export type RootFlags = Record<string, unknown> & {
  instruction?: string;
  model: string;
  baseUrl: string;
  access: AccessLevel;
  approvalInput?: string;
  env: boolean;
  /** The context files (`--context-file`, repeatable), or false (`--no-context-file`). */
  contextFile: readonly string[] | false;
  maxTurns: number;
  without: string[];
  stream: boolean;
  timeout: number;
  maxOutputTokens: number;
  continue?: boolean;
  resume?: string | true;
  forkSession?: boolean;
  contextWindow?: number;
  compactAt?: number;
  keepRecent?: number;
  compaction: boolean;
  record?: string;
  rawOutput?: boolean;
  outputFormat: OutputFormat;
  /** The output format came from a settings file, not a flag: the chat ignores it. */
  formatFromSettings?: boolean;
  /** From the settings files: the variable holding the model API key. */
  apiKeyEnv?: string;
  /** From the settings files: their permission rules (the project's only as trusted). */
  permissions?: PermissionRules;
};

/**
 * Builds the conversation's model client from the flags; `emit` hears its exchanges and
 * retries. hel's is {@link openAIClientFromFlags}; tests give a scripted model instead.
 */
export type ModelFactory = (
  flags: RootFlags,
  /** Undefined for a loopback server without a key: requests then carry no Authorization. */
  apiKey: string | undefined,
  emit: (event: HelEvent) => void,
) => ModelClient;

/** Retries of a failed model request (429, 5xx, a dropped or refused connection). */
const MODEL_RETRIES = 4;

/**
 * The OpenAI-compatible client the flags describe, waiting `backoffMs` before the first retry
 * (doubled each time); tests shorten it to see every retry of a refused connection quickly.
 */
export function openAIClientFactory(backoffMs = 1_000): ModelFactory {
  return (flags, apiKey, emit) =>
    createOpenAIClient({
      baseURL: flags.baseUrl,
      apiKey,
      apiKeyName: apiKeyVariable(apiKey, flags),
      model: flags.model,
      stream: flags.stream,
      maxOutputTokens: flags.maxOutputTokens,
      requestTimeoutMs: flags.timeout * 1000,
      maxRetries: MODEL_RETRIES,
      totalTimeoutMs: Math.max(flags.timeout * 1000 * 2, 60_000),
      backoffMs,
      onExchange: emit,
      onRetry: (attempt, delayMs, reason) =>
        emit({ type: "retry", attempt, maxRetries: MODEL_RETRIES, delayMs, reason }),
    });
}

/** The OpenAI-compatible client the flags describe. */
export const openAIClientFromFlags: ModelFactory = openAIClientFactory();

/** Keeps only the plugins not named by `--without`; an unknown name is a usage error. */
export function activePlugins(all: readonly LoadedPlugin[], without: readonly string[]) {
  for (const name of without) {
    if (!all.some(({ plugin }) => plugin.name === name)) {
      const known = all.map(({ plugin }) => plugin.name).join(", ");
      throw new UsageError(`--without ${name}: no such plugin (plugins: ${known})`);
    }
  }
  return all.filter(({ plugin }) => !without.includes(plugin.name)).map(({ plugin }) => plugin);
}

/** Tells the person on stderr what happened; `[tool]` lines only when stdout is text. */
function printEvent(event: HelEvent, toolLines: boolean): void {
  if (event.type === "tool_call" && toolLines) {
    // Arguments can be whole files (write_file): show a line, not a page.
    const args = JSON.stringify(event.args) ?? "";
    const shown = args.length > 200 ? `${args.slice(0, 200)}…` : args;
    const line = escapeControlCharacters(`${event.name} ${shown}`);
    const status = event.status === "done" ? "" : ` (${event.status})`;
    writeErr(`[tool] ${line}${status}\n`);
  } else if (event.type === "warning") {
    stderrLogger.warn(event.text);
  } else if (event.type === "retry") {
    printRetry(event);
  }
}

function createInterrupts(onIdle: () => void): Interrupts & {
  dispose(): void;
  interrupted(): boolean;
  abort(): void;
} {
  let controller = new AbortController();
  let count = 0;
  let busy = false;
  const onSignal = () => {
    count++;
    if (!busy) return onIdle();
    if (count >= 3) Deno.exit(130); // a stuck shutdown must not trap the user
    controller.abort(new Error("interrupted"));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  return {
    next() {
      if (controller.signal.aborted) controller = new AbortController();
      count = 0;
      busy = true;
      return controller.signal;
    },
    idle: () => {
      busy = false;
    },
    interrupted: () => count > 0,
    abort: () => controller.abort(new Error("terminated")),
    dispose: () => Deno.removeSignalListener("SIGINT", onSignal),
  };
}

/** Runs hel for the root command; returns the exit code. */
export async function startFromCommandLine(
  words: string[],
  flags: RootFlags,
  plugins: readonly LoadedPlugin[],
  createModel: ModelFactory = openAIClientFromFlags,
  /** The one reader of stdin (the settings review at start may have asked through it). */
  reader: LineReader = new LineReader(),
): Promise<number> {
  const listened = (extraEmit: (event: HelEvent) => void, onRun: (run: RecordedRun) => void) =>
    runWithListeners(words, flags, plugins, createModel, reader, extraEmit, onRun);
  if (flags.record === undefined) return await listened(() => {}, () => {});
  // With --record the recorder hears every event and watches the run's turns.
  // Every channel a plugin of this build declares has its file, whichever plugins ran.
  const traceChannels = plugins.flatMap(({ plugin }) => plugin.traceChannels ?? []);
  return await recordRun(
    flags.record,
    { ...flags, traceChannels },
    (observe, watch) => listened(observe, watch),
  );
}

async function runWithListeners(
  words: string[],
  flags: RootFlags,
  plugins: readonly LoadedPlugin[],
  createModel: ModelFactory,
  reader: LineReader,
  extraEmit: (event: HelEvent) => void,
  onRun: (run: RecordedRun) => void,
): Promise<number> {
  if (flags.instruction !== undefined && words.length > 0) {
    throw new UsageError("give the instruction either as words or with --instruction, not both");
  }
  const compaction = policyFromFlags(flags);
  checkResumeFlags(flags);
  const key = apiKey(flags);
  const active = activePlugins(plugins, flags.without);
  const given = flags.instruction ?? (words.length > 0 ? words.join(" ") : undefined);
  // A blank instruction would still cost a model request and start a session.
  const noInstruction = "no instruction: pass it as words, with --instruction, or on stdin";
  if (given !== undefined && given.trim() === "") throw new UsageError(noInstruction);
  const instruction = await withPipedInput(given, reader, writeErr);
  if (instruction === "") throw new UsageError(noInstruction);
  const format = flags.formatFromSettings && instruction === undefined
    ? "text"
    : flags.outputFormat;
  checkOutputFormat(format, instruction !== undefined, flags.rawOutput === true);
  // With a JSON format stdout is the report's; stderr keeps warnings and retries.
  const reporter = format === "text" ? undefined : createReporter(format, writeJsonLine);
  const cliContext = await createCliContext(flags, reader, reporter?.logger(stderrLogger));
  // Once the Ink chat owns the terminal, plugins' questions are answered through here.
  let ask = cliContext.ask;
  const context = {
    ...cliContext,
    ask: (question: string, signal?: AbortSignal) => ask(question, signal),
  };
  if (flags.rawOutput && instruction === undefined) {
    // The chat draws permission questions between answers: raw bytes could hide them.
    throw new UsageError(
      "--raw-output applies to a one-shot answer (an instruction), not the chat",
    );
  }
  // The Ink chat (loaded only now, so one-shot runs never load Ink) on a terminal that can
  // draw it; else the plain line chat.
  const ink = instruction === undefined && chatMode(terminalFacts()) === "ink"
    ? await import("./chat/ink_chat.tsx")
    : undefined;
  const size = () => terminalSize() ?? { columns: 80, rows: 24 };
  const color = colorWanted((name) => surroundings().env(name));
  const resume = await sessionToOpen(flags, context, reader, color);
  if (resume === "cancelled") {
    writeErr("hel: no session chosen; nothing was run\n");
    return 0;
  }
  const inkChat = ink?.prepareInkChat({ color, size, context });
  // The Ink chat always has a person to ask; the others may have no one.
  const approver: Approver = inkChat && !flags.approvalInput
    ? inkChat.approver
    : noticeWhenUnanswered(
      flags.approvalInput ? await fileApprover(flags.approvalInput) : terminalApprover(context.ask),
    );
  // The run hands every event to the plugins' observers as well.
  // A one-shot run names its session once it is saved (at the model's first answer), so a
  // run the model never answered names none, and a run killed later has printed its id.
  let sessionNamed = false;
  const nameSession = () => {
    if (sessionNamed || !run?.sessionSaved || reporter || inkChat) return;
    sessionNamed = true;
    writeErr(`session: ${run.session.id}\n`);
  };
  const emit = (event: HelEvent) => {
    reporter?.onEvent(event);
    if (inkChat) inkChat.store.onEvent(event);
    else printEvent(event, reporter === undefined);
    extraEmit(event);
    nameSession();
  };
  let run: Run | undefined;
  let shutdown: () => Promise<void> = () => Promise.resolve();
  // Ctrl-C with no request in flight (at the chat prompt, or during start-up) leaves hel,
  // after a clean shutdown of whatever plugins have started.
  const interrupts = createInterrupts(() => {
    // The Ink chat gives the terminal back (raw mode off, cursor shown) before hel goes.
    if (inkChat?.drawing()) return void inkChat.leave();
    writeErr("\n");
    void shutdown().finally(() => Deno.exit(130));
  });
  const removeTerminationHandlers = exitCleanlyOnTermination(async () => {
    interrupts.abort();
    inkChat?.release();
    await shutdown();
  });
  try {
    run = await startRun({
      model: flags.model,
      baseUrl: flags.baseUrl,
      access: flags.access,
      env: flags.env,
      contextFile: flags.contextFile,
      maxTurns: flags.maxTurns,
      spill: flags.compaction,
      resume,
      forkSession: flags.forkSession ?? false,
      compaction,
      contextWindow: flags.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      ...(flags.permissions ? { permissions: flags.permissions } : {}),
    }, {
      context,
      plugins: active,
      approver,
      // `/model` in the chat asks for a client of another model id, with the same flags.
      model: (runEmit, id) => createModel({ ...flags, model: id }, key, runEmit),
      emit,
      onShutdownReady: (ready) => shutdown = ready,
    });
    onRun(run);
    if (ink && inkChat) {
      ask = (question) => {
        // stdin is Ink's now: a second reader would take the person's keys.
        writeErr(`hel: answered no, since the chat owns the terminal: ${question.trim()}\n`);
        return Promise.resolve(undefined);
      };
      return await ink.runInkChat(run, inkChat, {
        project: context.project,
        model: flags.model,
        access: flags.access,
        color,
        size,
        earlier: run.conversation(),
        reader,
        nextSignal: () => interrupts.next(),
        idle: () => interrupts.idle(),
      });
    }
    if (reporter) reporter.started(run, context.project);
    else if (instruction === undefined) {
      sessionNamed = true;
      writeErr(`session: ${run.session.id}\n`);
    }
    const code = instruction !== undefined
      ? await runOneShot(run, instruction, interrupts, flags.rawOutput, reporter)
      : await runChat(run, reader, interrupts, chatCommands(interrupts));
    nameSession();
    return interrupts.interrupted() && code !== 0 ? 130 : code;
  } finally {
    clearStatus(); // a retry's status line must not stay glued to the shell's prompt
    await shutdown();
    interrupts.dispose();
    removeTerminationHandlers();
  }
}
