/**
 * The trust store: which exact configuration bytes (e.g. hooks, MCP) the user approved for which
 * project. Records live under `$HEL_HOME`, never inside the project, so a cloned repository
 * cannot ship its own approval. What a configuration runs is summarised by the plugin that owns
 * it ({@link TrustSummary}), from the parsed file, for the review.
 *
 * @module
 */

/**
 * What a trust record approves: a kind of project configuration, as the plugin that reads it
 * declares it (`hooks`, `mcp`). Each kind is recorded separately.
 */
export type TrustKind = string;

/**
 * A project configuration a plugin runs only once the user trusted its exact bytes: the file
 * `.hel/<kind>.json` (or `.hel/<file>`), reviewed with `hel trust <kind>` or when it is read.
 */
export interface TrustedConfig {
  /** The word of `hel trust <kind>` and of trust records; also names the file. */
  kind: TrustKind;
  /** What the file configures, for the review's question, e.g. `hook configuration`. */
  subject: string;
  /** The file's name in `.hel/` when it is not `<kind>.json`, e.g. `settings.jsonc`. */
  file?: string;
}

/** The name in `.hel/` of a trusted configuration's file. */
export function trustedConfigFile(config: TrustedConfig): string {
  return config.file ?? `${config.kind}.json`;
}

/** One approval: this kind, for this canonical project path, of exactly these bytes. */
export interface TrustRecord {
  kind: TrustKind;
  project: string;
  sha256: string;
  trustedAt: string;
}

/** Reads and writes trust records. Implementations never treat damage as trust. */
export interface TrustStore {
  /** True only when a record binds kind, project and the SHA-256 of `bytes`. */
  isTrusted(kind: TrustKind, project: string, bytes: Uint8Array): Promise<boolean>;
  /** Records trust of these bytes, replacing any earlier record of the same kind and project. */
  record(kind: TrustKind, project: string, bytes: Uint8Array): Promise<void>;
  /** Removes the record; returns whether there was one. */
  revoke(kind: TrustKind, project: string): Promise<boolean>;
  /** Every record, for `hel trust --list`. */
  list(): Promise<TrustRecord[]>;
}

/** One program a configuration runs: a hook handler, an MCP server. */
export interface TrustEntry {
  /** What the entry is, e.g. `server "notes"` or `PreToolUse hook 1`. */
  label: string;
  /** When it runs or other facts worth a glance, e.g. `for tools matching "^bash$"`. */
  details?: string;
  /** The program, or with `shell` the command line given to `/bin/sh -c`. */
  command: string;
  /** The program's arguments, one per word (none for a shell command line). */
  args?: readonly string[];
  /** True when `command` is a shell command line. */
  shell?: boolean;
  /** The working folder; absent when it is the project folder. */
  folder?: string;
  /** Names of the environment variables the entry sets. Values are never shown. */
  envNames: readonly string[];
  /** False when the entry opted out of the sandbox and runs with the user's full rights. */
  sandbox: boolean;
  /**
   * False for an entry that is a setting rather than a program (settings.jsonc): the review
   * shows `command` after `commandLabel` and leaves out the folder and environment row.
   */
  program?: boolean;
  /** What the review writes before `command` instead of `run` or `sh -c`, e.g. `value`. */
  commandLabel?: string;
}

/** What a configuration file runs, in the order it runs them. */
export interface TrustSummary {
  /** How the review's first line joins the file to the count (default `runs`), e.g. `has`. */
  verb?: string;
  /** What an entry is called, e.g. `{one: "MCP server", many: "MCP servers"}`. */
  noun: { one: string; many: string };
  entries: readonly TrustEntry[];
}
