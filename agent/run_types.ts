/**
 * The contract of a run, between the agent that assembles it (run.ts) and the command line
 * that drives it (one-shot, the chats and their slash commands): its settings, what it needs,
 * and what it offers.
 *
 * @module
 */
import type { CompactionPolicy } from "./compaction/plan.ts";
import type { CompactionReport } from "./compaction/driver.ts";
import type { HelEvent } from "../core/events.ts";
import type { LoopOutcome } from "../core/loop.ts";
import type { ModelClient, StreamListeners } from "../core/model.ts";
import type { Approver, PermissionRules } from "../core/permissions.ts";
import type { Plugin, PluginContext } from "../core/plugin.ts";
import type { ResumeChoice } from "./session/open.ts";
import type { SessionPaths } from "./session/store.ts";
import type { AccessLevel, ChatMessage } from "../core/types.ts";
import type { ChatCommand } from "../core/chat_command.ts";
import type { RunUsage } from "../core/usage.ts";
import type { ResumableSession } from "./session/resumable.ts";

export type { CompactionReport } from "./compaction/driver.ts";
export type { ResumableSession } from "./session/resumable.ts";

/**
 * Settings of a run, from the command line. The model client is built by the caller; the
 * model's name and server are here only for the session journal.
 */
export interface RunSettings {
  model: string;
  baseUrl: string;
  access: AccessLevel;
  env: boolean;
  /**
   * The context files' names, in order (`HEL.md`, `AGENTS.md` by default: each missing one is
   * skipped quietly; a named list warns of a missing file), or false for none.
   */
  contextFile: readonly string[] | false;
  maxTurns: number;
  /** Spill large results into the session (off with `--no-compaction`). */
  spill: boolean;
  /** Continue a saved session: its id, or `true` for the project's most recent one. */
  resume?: ResumeChoice;
  /** With `resume`: continue in a new session, leaving the resumed one as it was. */
  forkSession?: boolean;
  /** When to compact the conversation; undefined turns compaction off. */
  compaction?: CompactionPolicy;
  /** The model's context window in tokens, for the context-used figure (`--context-window`). */
  contextWindow?: number;
  /** Rules from the settings files (only the trusted ones); none when undefined. */
  permissions?: PermissionRules;
}

/** How much of the model's context the conversation fills, for the chat's footer and `/status`. */
export interface ContextUsage {
  /**
   * Tokens of the conversation now: the server's count of the last request plus an estimate
   * of what was added since, or all estimated (`estimated`) before the server counted any of
   * this conversation, or after a compaction rewrote it.
   */
  used: number | undefined;
  /** The context window (`--context-window`, else the one compaction assumes). */
  window: number | undefined;
  estimated: boolean;
}

/** A tool offered to the model, as `/tools` lists it. */
export interface OfferedTool {
  name: string;
  /** The first line of its description (a server's text for MCP tools: neutralise it). */
  summary: string;
}

/** A saved session `/resume` switched to: what the chat shows of it. */
export interface ResumedSession {
  id: string;
  createdAt: string;
  /** Its conversation without the system message (outside text: neutralise before showing). */
  messages: readonly ChatMessage[];
}

/**
 * A running session: its conversation and the means to run user turns on it. The chat may
 * switch the conversation to a new or a saved session between turns (never during one); the
 * plugins, their tools and MCP servers stay.
 */
export interface Run {
  /** The session the conversation is saved in now. */
  readonly session: SessionPaths;
  /**
   * False while the session exists only in memory: a new session is written from the model's
   * first answer on, so a run that never got one leaves none.
   */
  readonly sessionSaved: boolean;
  usage: RunUsage;
  plugins: readonly Plugin[];
  /** The model id requests use now. */
  readonly model: string;
  readonly baseUrl: string;
  readonly access: AccessLevel;
  /** The permission rules from the settings files this run follows, each with its file. */
  readonly permissions: PermissionRules;
  /** The context files' names (`HEL.md`, `AGENTS.md`), or false with `--no-context-file`. */
  readonly contextFile: readonly string[] | false;
  /** Appends the user's message and runs the loop until the model answers. */
  turn(text: string, signal: AbortSignal, stream?: StreamListeners): Promise<LoopOutcome>;
  /**
   * Compacts the conversation now (`/compact`), whatever its size, and saves the session when
   * it changed; the report says what it did, or (`skipped`) why it made no summary.
   */
  compact(signal: AbortSignal): Promise<CompactionReport>;
  /**
   * Continues in a new session (`/clear`): an empty conversation under a system message built
   * again, the plugins' state as at the start. The old session stays on disk as it was.
   */
  newSession(): Promise<void>;
  /**
   * Continues saved session `id` (or the start of its id) of this project (`/resume`), by the
   * rules of `--resume`: a refusal is a `UsageError` saying why, and the current session goes on.
   */
  resumeSession(id: string): Promise<ResumedSession>;
  /** Later requests use model `id`; the session's journal notes the change. */
  setModel(id: string): Promise<void>;
  /** The conversation now, without the system message (a resumed one's earlier turns too). */
  conversation(): readonly ChatMessage[];
  contextUsage(): ContextUsage;
  /** The tools the next request offers. */
  tools(): OfferedTool[];
  /** Each plugin's status lines (its `status` hook), in plugin order; outside text. */
  pluginStatus(): { plugin: string; lines: string[] }[];
  /** The chat commands the plugins offer now (e.g. MCP prompts); names may be outside text. */
  chatCommands(): ChatCommand[];
  /** This project's other sessions `resumeSession` can switch to, most recent first. */
  savedSessions(): Promise<ResumableSession[]>;
}

/** Everything `startRun` needs besides settings. */
export interface RunDeps {
  context: PluginContext;
  plugins: readonly Plugin[];
  approver: Approver;
  /**
   * Builds the conversation's model client for model `id` (the settings' at the start, then
   * each `setModel`'s); `emit` is the run's, so its exchanges and retries reach the plugins'
   * observers and the record.
   */
  model(emit: (event: HelEvent) => void, id: string): ModelClient;
  emit(event: HelEvent): void;
  /**
   * Receives the run's shutdown before any plugin is set up, so an exit path taken during
   * setup (Ctrl-C, SIGTERM) still shuts down the plugins that already started.
   */
  onShutdownReady?(shutdown: () => Promise<void>): void;
}
