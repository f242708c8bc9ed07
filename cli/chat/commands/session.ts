/**
 * The commands that change the conversation: `/clear` (a new session), `/resume` (a saved one,
 * chosen in a picker of this project's sessions, its transcript shown) and `/compact` (now,
 * saying what it did).
 *
 * @module
 */
import { escapeControlCharacters, neutralise } from "../../../core/neutralise.ts";
import type { CompactionReport, ResumableSession } from "../../../agent/run.ts";
import { conversationText } from "../../session_show.ts";
import type { CommandContext, SlashCommand } from "../slash_commands.ts";
import { age, count, oneLine, tokens } from "./format.ts";

export const clearCommand: SlashCommand = {
  name: "clear",
  summary: "start a new session (this one stays saved)",
  async run(context) {
    const previous = context.run.session.id;
    const saved = context.run.sessionSaved;
    await context.run.newSession();
    context.clearScreen();
    context.print(
      saved
        ? `new session ${context.run.session.id}; the previous one (${previous}) is saved: ` +
          "/resume returns to it"
        : `new session ${context.run.session.id}; the previous one had no answer and was not saved`,
    );
  },
};

/** A picker label: `fix the build · 3 h ago`. The prompt is the person's, but shown neutralised. */
export function sessionLabel(session: ResumableSession, now: number): string {
  const prompt = session.firstPrompt === undefined
    ? "(first prompt too long to show)"
    : escapeControlCharacters(oneLine(session.firstPrompt, 60));
  return `${prompt} · ${age(Date.parse(session.updatedAt), now)}`;
}

/** Lines of each tool result the resumed transcript shows (`hel sessions show` has all). */
const RESULT_LINES = 5;

export const resumeCommand: SlashCommand = {
  name: "resume",
  summary: "continue a saved session of this project",
  argument: "[id]",
  async run(context, argument) {
    let id: string | undefined = argument || undefined;
    if (id === undefined) {
      const sessions = await context.run.savedSessions();
      if (sessions.length === 0) {
        return context.print("no other saved session in this project to resume");
      }
      const now = Date.now();
      id = await context.pick(
        "Resume which session?",
        sessions.map((session) => ({ label: sessionLabel(session, now), value: session.id })),
      );
      if (id === undefined) return context.print("resume cancelled; this session goes on");
    }
    const resumed = await context.run.resumeSession(id);
    // The transcript is the model's and the tools' text: neutralised before it is shown.
    const transcript = conversationText(resumed.id, resumed, RESULT_LINES);
    context.print(neutralise(transcript.trimEnd()));
    context.print(`resumed session ${resumed.id}; the conversation goes on from here`);
  },
};

/** What `/compact` says: "compacted 42 messages into a summary: ~31,000 → ~2,100 tokens". */
export function compactionText(report: CompactionReport): string {
  const size = `~${tokens(report.tokensBefore)} → ~${tokens(report.tokensAfter)} tokens`;
  const cut = report.pruned > 0
    ? `${count(report.pruned, "old tool result")} cut to their start and end`
    : undefined;
  if (report.summarised > 0) {
    const summary = `compacted ${count(report.summarised, "message")} into a summary`;
    return `${summary}${cut ? ` and ${cut}` : ""}: ${size}`;
  }
  const why = escapeControlCharacters(report.skipped ?? "nothing to do");
  if (cut) return `${cut}: ${size}; no summary: ${why}`;
  return `not compacted: ${why}`;
}

/** Runs `work` through the chat's request handling, or as is when the chat has none. */
function asRequest<T>(context: CommandContext, work: (signal: AbortSignal) => Promise<T>) {
  return context.request ? context.request(work) : work(new AbortController().signal);
}

export const compactCommand: SlashCommand = {
  name: "compact",
  summary: "summarise the conversation now, to free context",
  async run(context) {
    const report = await asRequest(context, (signal) => context.run.compact(signal));
    context.print(compactionText(report));
  },
};
