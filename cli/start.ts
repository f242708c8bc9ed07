/**
 * The default action of `hel`: resolve settings from the flags, start a run with the active
 * plugins, then run one instruction or the interactive chat. Ctrl-C cancels the request in
 * flight; plugins are shut down on every exit path.
 *
 * @module
 */
import type { HelEvent } from "../core/events.ts";
import type { RootFlags } from "./root_flags.ts";
import { type ModelFactory, openAIClientFromFlags } from "./model_factory.ts";
import { createInterrupts } from "./interrupts.ts";
import { printEvent } from "./event_lines.ts";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";
import type { Approver } from "../core/permissions.ts";
import type { PluginContext } from "../core/plugin.ts";
import { apiKey } from "./api_key.ts";
import { UsageError } from "../core/usage_error.ts";
import { fileApprover, noticeWhenUnanswered, terminalApprover } from "./approvers.ts";
import { runChat, runOneShot } from "./chat.ts";
import { chatCommands } from "./chat_commands.ts";
import { DEFAULT_CONTEXT_WINDOW, policyFromFlags } from "../agent/compaction/plan.ts";
import { checkResumeFlags, sessionToOpen } from "./resume_choice.ts";
import { createCliContext, stderrLogger } from "../agent/context_file.ts";
import { exitCleanlyOnTermination } from "./exit_signals.ts";
import { type Run, startRun } from "../agent/run.ts";
import { withPipedInput } from "./piped_input.ts";
import { clearStatus, writeErr } from "../kit/output.ts";
import { surroundings } from "../kit/surroundings.ts";
import { LineReader } from "./terminal.ts";
import { type RecordedRun, recordRun } from "../agent/record.ts";
import { chatMode, colorWanted, terminalFacts, terminalSize } from "./chat/mode.ts";
import { checkOutputFormat } from "./output/format.ts";
import { writeJsonLine } from "./output/json_line.ts";
import { createReporter } from "./output/reporter.ts";

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
  let askForm = cliContext.askForm;
  const context: PluginContext = {
    ...cliContext,
    ask: (question: string, signal?: AbortSignal) => ask(question, signal),
    askForm: (question, signal) => askForm?.(question, signal) ?? Promise.resolve(undefined),
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
  // A run names its session once it is saved (at the model's first answer), so a run the
  // model never answered names none, and a run killed later has printed its id.
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
    // In the line chat the id waits for the end (or a resumed session's start): a line among
    // the answers would break them up.
    if (instruction !== undefined) nameSession();
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
      // A form question (an MCP server's elicitation) is drawn by the chat as a box.
      askForm = (question, signal) => inkChat.store.askForm(question, signal);
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
    // A resumed session exists already and is named now; a new one once it is saved.
    if (reporter) reporter.started(run, context.project);
    else nameSession();
    const code = instruction !== undefined
      ? await runOneShot(run, instruction, interrupts, flags.rawOutput, reporter)
      : await runChat(run, reader, interrupts, chatCommands(interrupts));
    nameSession();
    if (instruction === undefined && !run.sessionSaved && !reporter) {
      writeErr("hel: no session saved: the model never answered\n");
    }
    return interrupts.interrupted() && code !== 0 ? 130 : code;
  } finally {
    clearStatus(); // a retry's status line must not stay glued to the shell's prompt
    await shutdown();
    interrupts.dispose();
    removeTerminationHandlers();
  }
}
