/**
 * What the project files that hooks outside the sandbox run looked like when hel last ran them:
 * `$HEL_HOME/hook-files.json` (outside the project, so neither the model nor a cloned
 * repository can write it), per canonical project path, each file's SHA-256 or "missing".
 * A file that differs at the next start was changed between runs, possibly by the model in the
 * earlier run or by a `git pull` (scripts in `.hel/` included); it is shown to the person
 * before any hook runs it.
 *
 * @module
 */
import { codePointLength, errorMessage, headChars, type Host, isRecord } from "../../core/mod.ts";
import {
  escapeControlCharacters,
  fileStart,
  withFileLock,
  writePrivateFile,
} from "../../kit/mod.ts";
import { touchesProtected } from "../../kit/mod.ts";
import type { HookHandler } from "./config.ts";
import { type ExposedFiles, exposedHookFiles } from "./exposed_files.ts";

/** Per file (project-relative), its SHA-256 or "missing". */
export type FilePins = Record<string, string>;

interface PinsFile {
  version: 1;
  projects: Record<string, FilePins>;
}

async function readPins(path: string): Promise<PinsFile> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(path));
    if (isRecord(parsed) && parsed.version === 1 && isRecord(parsed.projects)) {
      return parsed as unknown as PinsFile;
    }
  } catch {
    // Missing or damaged: no pins, so every file counts as first seen (and is pinned now).
  }
  return { version: 1, projects: {} };
}

/** The pins recorded for `project` (empty when none). */
export async function loadPins(helHome: string, project: string): Promise<FilePins> {
  const pins = (await readPins(`${helHome}/hook-files.json`)).projects[project];
  return isRecord(pins) ? pins as FilePins : {};
}

/** Records `pins` for `project`: read, merge and write under a lock, atomically, mode 0600. */
export async function savePins(helHome: string, project: string, pins: FilePins): Promise<void> {
  await Deno.mkdir(helHome, { recursive: true, mode: 0o700 });
  const path = `${helHome}/hook-files.json`;
  await withFileLock(`${helHome}/hook-files.lock`, async () => {
    const all = await readPins(path);
    all.projects[project] = pins;
    await writePrivateFile(path, JSON.stringify(all, null, 2) + "\n");
  });
}

const SHOWN_CHARS = 20_000;

/**
 * Shows the files that changed since hooks last ran them and asks whether hooks may run them.
 * No terminal, or any answer but y/yes, is a no.
 */
export async function approveChanged(host: Host, files: readonly string[]): Promise<boolean> {
  const parts: string[] = [];
  for (const file of files) {
    // Only the start is read: the model could have made the file gigabytes long.
    const start = await fileStart(`${host.project}/${file}`, SHOWN_CHARS * 4);
    const text = start
      ? new TextDecoder().decode(start.bytes)
      : "(the file is gone, or is not a regular file)";
    const cut = start && (!start.complete || codePointLength(text) > SHOWN_CHARS)
      ? `${headChars(text, SHOWN_CHARS)}\n(cut: the file goes on; answer no and read the ` +
        "whole file first)"
      : text;
    const name = escapeControlCharacters(file).replaceAll("\n", "\\n");
    parts.push(
      `----- begin ${name} -----\n${escapeControlCharacters(cut)}` +
        `${cut.endsWith("\n") ? "" : "\n"}----- end ${name} -----\n`,
    );
  }
  const answer = await host.ask(
    "hel: project files that hooks outside the sandbox run changed since hel last ran them " +
      `(the model or a git pull may have changed them):\n${parts.join("")}` +
      "Run hooks with these files? [y/N] ",
  );
  return answer !== undefined && /^(y|yes)$/i.test(answer);
}

const warn = (host: Host, text: string) =>
  host.emit({ type: "warning", text: escapeControlCharacters(text).replaceAll("\n", " ") });

/**
 * Finds the project files the trusted handlers run, warns about them, and refuses for this run
 * those that changed since hel last ran hooks here unless the person approves them now. The
 * pins are then brought up to date (a refused file keeps its old pin, so it is asked about
 * again next time).
 */
export async function guardHookFiles(
  host: Host,
  handlers: readonly HookHandler[],
): Promise<ExposedFiles> {
  const exposed = await exposedHookFiles(handlers, host.project);
  if (exposed.all.length === 0) return exposed;
  const changeable = exposed.all.filter((file) => !touchesProtected(host.project, file));
  if (changeable.length > 0) {
    warn(
      host,
      `project hooks with "sandbox": false name files the model can change ` +
        `(${changeable.join(", ")}); such hooks run outside the sandbox, so one that runs ` +
        "them would run what the model wrote there, and trusting hooks.json does not cover " +
        "them. A hook whose file changed since hel last ran it is asked about first, and one " +
        "whose file changes during the run is not run. Keep such scripts in .hel/, which the " +
        "model cannot change, or let the hook run in the sandbox",
    );
  }
  const pins = await loadPins(host.helHome, host.project);
  const differing = exposed.all.filter((file) =>
    Object.hasOwn(pins, file) && pins[file] !== exposed.prints[file]
  );
  const next: FilePins = { ...exposed.prints };
  if (differing.length > 0 && !(await approveChanged(host, differing))) {
    exposed.refuse(differing);
    for (const file of differing) next[file] = pins[file]!;
    warn(
      host,
      `hooks that run ${differing.join(", ")} are not run in this run: the file changed since ` +
        `hel last ran it and was not approved${host.interactive ? "" : " (no terminal to ask)"}` +
        ". Read the change, then start hel on a terminal and approve it",
    );
  }
  try {
    await savePins(host.helHome, host.project, next);
  } catch (error) {
    warn(host, `could not record the hook files in ${host.helHome}: ${errorMessage(error)}`);
  }
  return exposed;
}
