/**
 * Which session a run opens, from `--continue`, `--resume [id]` and `--fork-session`. What
 * `--resume` without an id continues. On a terminal the person chooses in a list of the
 * project's sessions, with the columns of `hel sessions` (the Ink picker, or a numbered list
 * where Ink cannot draw: `TERM=dumb`, a tiny terminal). Without a terminal there is no one to
 * ask, and scripts written before the picker existed pass `--resume` alone: it continues the
 * most recent session, as `--continue` does.
 *
 * @module
 */
import { resumableSessions } from "../agent/session/resumable.ts";
import type { ResumeChoice } from "../agent/session/open.ts";
import { checkSessionId } from "../agent/session/session_id.ts";
import { UsageError } from "../core/usage_error.ts";
import { chatMode, terminalFacts, terminalSize } from "./chat/mode.ts";
import { pickByNumber } from "./chat_commands.ts";
import type { LineReader } from "./terminal.ts";

/** The flags that choose the session. */
export interface ResumeFlags {
  continue?: boolean;
  resume?: string | true;
  forkSession?: boolean;
}

/** Usage errors for flags that cannot go together, or an id that cannot be one. */
export function checkResumeFlags(flags: ResumeFlags): void {
  if (typeof flags.resume === "string") checkSessionId(flags.resume, "--resume");
  if (flags.continue && flags.resume !== undefined) {
    throw new UsageError(
      "give --continue (the most recent session) or --resume (a chosen one), not both",
    );
  }
  if (flags.forkSession && flags.resume === undefined && !flags.continue) {
    throw new UsageError(
      "--fork-session needs --continue or --resume: it copies a saved session into a new one",
    );
  }
}

/**
 * The session the run opens (see `openSession`), after asking the person when `--resume`
 * came without an id; "cancelled" when they gave up.
 */
export async function sessionToOpen(
  flags: ResumeFlags,
  where: { project: string; helHome: string },
  reader: LineReader,
  color: boolean,
): Promise<ResumeChoice | "cancelled"> {
  if (flags.continue) return true;
  if (flags.resume !== true) return flags.resume;
  return await chooseResume(where.project, where.helHome, reader, color) ?? "cancelled";
}

/** The picker's title. */
export const PICKER_TITLE = "Resume which session?";

/** Columns the Ink picker's frame and marker take: border, padding, `❯ `. */
const FRAME_COLUMNS = 6;

/**
 * The session to continue: its id, `true` for the most recent (no terminal), or undefined
 * when the person gave up. A usage error when the project has no session to resume.
 */
export async function chooseResume(
  project: string,
  helHome: string,
  reader: LineReader,
  color: boolean,
): Promise<string | true | undefined> {
  const facts = terminalFacts();
  if (!facts.stdinIsTerminal || !facts.stdoutIsTerminal) return true;
  const sessions = await resumableSessions(project, helHome);
  if (sessions.length === 0) {
    throw new UsageError(
      "--resume: this project has no saved session to resume (one in use by another hel is " +
        "not offered); run hel without --resume to start one",
    );
  }
  const columns = facts.size?.columns ?? 80;
  const now = Date.now();
  const { sessionTable } = await import("./session_table.ts");
  if (chatMode(facts) === "ink") {
    const table = sessionTable(sessions, columns - FRAME_COLUMNS, now);
    const { pickOnScreen } = await import("./chat/session_picker.tsx");
    const index = await pickOnScreen({
      title: PICKER_TITLE,
      header: table.header,
      labels: table.lines,
      color,
      size: () => terminalSize() ?? { columns, rows: 24 },
      reader,
    });
    return index === undefined ? undefined : sessions[index]!.id;
  }
  const digits = String(sessions.length).length;
  const table = sessionTable(sessions, columns - digits - 4, now);
  const items = sessions.map((session, index) => ({
    label: table.lines[index]!,
    value: session.id,
  }));
  return await pickByNumber(reader, PICKER_TITLE, items, table.header);
}
