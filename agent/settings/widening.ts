/**
 * Which parts of the project's settings file widen what hel does without a question, or where
 * the code and the key go, compared with what the layers under it give (the person's own file
 * over the defaults). The project file is repository content: a cloned repository must not
 * turn on `access: auto`, allow rules, an unsandboxed shell or its own model server until the
 * person trusted the file's bytes. Everything else in it (deny and ask rules, fewer tools, a
 * stricter access level or sandbox) only narrows and applies at once.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { isWithin } from "../../kit/paths.ts";
import { ACCESS_LEVELS } from "../../core/permissions.ts";
import type { AccessLevel } from "../../core/types.ts";
import type { Settings } from "./schema.ts";

/** What the person's file and the defaults give, for the keys a project file could widen. */
export interface LowerSettings {
  baseUrl: string;
  /** The variable the key is read from; undefined: HEL_API_KEY or DEEPSEEK_API_KEY. */
  apiKeyEnv: string | undefined;
  access: AccessLevel;
  tools: readonly string[];
  sandbox: {
    mode: "on" | "off";
    network: "on" | "off";
    read: readonly string[];
    env: readonly string[];
    allowGitWrites: boolean;
    processes: number;
  };
}

/** One widening part of the project file, for the review and the warning. */
export interface WideningPart {
  /** The dotted key, e.g. `permissions.allow`. */
  key: string;
  /** What the file sets that widens (only the added entries of a list). */
  value: string | number | boolean | readonly string[];
  /** What it would change, for the review, e.g. `these calls run without a question`. */
  why: string;
}

/** The project file split: what widens, and the file's settings without it. */
export interface SplitSettings {
  widening: WideningPart[];
  /** The settings that apply while the file is not trusted. */
  narrowed: Settings;
}

/** Splits the project's settings into widening parts and the rest (see the module doc). */
export function splitProjectSettings(
  project: Settings,
  lower: LowerSettings,
  projectDir: string,
): SplitSettings {
  const widening: WideningPart[] = [];
  const narrowed: Settings = structuredClone(project);
  const widen = (key: string, value: WideningPart["value"], why: string) =>
    widening.push({ key, value, why });

  if (project.baseUrl !== undefined && project.baseUrl !== lower.baseUrl) {
    widen("baseUrl", project.baseUrl, "model requests, with your API key and the code, go here");
    delete narrowed.baseUrl;
  }
  if (project.apiKeyEnv !== undefined && project.apiKeyEnv !== lower.apiKeyEnv) {
    widen("apiKeyEnv", project.apiKeyEnv, "this variable's value is sent as the API key");
    delete narrowed.apiKeyEnv;
  }
  if (project.access !== undefined && rank(project.access) > rank(lower.access)) {
    widen("access", project.access, `tools run with fewer questions than ${lower.access}`);
    delete narrowed.access;
  }
  if (project.tools !== undefined) {
    const added = project.tools.filter((name) => !lower.tools.includes(name));
    if (added.length > 0) {
      widen("tools", added, "tools offered beyond those you chose");
      const kept = project.tools.filter((name) => lower.tools.includes(name));
      if (kept.length > 0) narrowed.tools = kept;
      else delete narrowed.tools;
    }
  }
  if (project.contextFiles !== undefined) {
    const outside = project.contextFiles.filter((name) => !insideProject(projectDir, name));
    if (outside.length > 0) {
      widen("contextFiles", outside, "files outside the project are sent to the model");
      narrowed.contextFiles = project.contextFiles.filter((name) => !outside.includes(name));
    }
  }
  splitSandbox(project, lower, narrowed, widen);
  const allow = project.permissions?.allow ?? [];
  if (allow.length > 0) {
    widen("permissions.allow", allow, "calls matching these rules run without a question");
    delete narrowed.permissions!.allow;
  }
  return { widening, narrowed };
}

function splitSandbox(
  project: Settings,
  lower: LowerSettings,
  narrowed: Settings,
  widen: (key: string, value: WideningPart["value"], why: string) => void,
): void {
  const sandbox = project.sandbox;
  if (!sandbox || !narrowed.sandbox) return;
  const kept = narrowed.sandbox;
  if (sandbox.mode === "off" && lower.sandbox.mode === "on") {
    widen("sandbox.mode", "off", "commands, hooks, MCP servers unsandboxed");
    delete kept.mode;
  }
  if (sandbox.network === "on" && lower.sandbox.network === "off") {
    widen("sandbox.network", "on", "sandboxed programs may use the network");
    delete kept.network;
  }
  const addedReads = (sandbox.read ?? []).filter((path) => !lower.sandbox.read.includes(path));
  if (addedReads.length > 0) {
    widen("sandbox.read", addedReads, "sandboxed programs may read these paths");
    kept.read = sandbox.read!.filter((path) => lower.sandbox.read.includes(path));
  }
  const addedEnv = (sandbox.env ?? []).filter((name) => !lower.sandbox.env.includes(name));
  if (addedEnv.length > 0) {
    widen("sandbox.env", addedEnv, "sandboxed programs get these variables (secrets too)");
    kept.env = sandbox.env!.filter((name) => lower.sandbox.env.includes(name));
  }
  if (sandbox.allowGitWrites === true && !lower.sandbox.allowGitWrites) {
    widen("sandbox.allowGitWrites", true, "sandboxed programs may change .git");
    delete kept.allowGitWrites;
  }
  if (sandbox.processes !== undefined && sandbox.processes > lower.sandbox.processes) {
    widen("sandbox.processes", sandbox.processes, "a higher bound on processes in the sandbox");
    delete kept.processes;
  }
}

/** An access level's place from strictest (0) to widest. */
function rank(level: AccessLevel): number {
  return ACCESS_LEVELS.indexOf(level);
}

/**
 * Whether a context file name stays in the project, read both ways a reader might join it
 * (`<project>/<name>` and resolved against the project), so `../x` and `/x` both count as out.
 */
export function insideProject(project: string, name: string): boolean {
  if (isAbsolute(name)) return false;
  // Not the project folder itself; a name starting with ".." (`..notes.md`) is inside.
  const within = (path: string) => path !== project && isWithin(project, path);
  return within(resolve(project, name)) && within(resolve(`${project}/${name}`));
}
