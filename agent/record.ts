/**
 * The run record (`hel --record <dir>/record.json`): what one run did, for evals and reports.
 * The recorder collects run events while hel works and, when the run ends (also on error),
 * writes `record.json` plus the raw logs beside it:
 *
 * - `raw/requests.jsonl`: every model request body and its response (or error), no credentials;
 * - `raw/permissions.jsonl`: every permission decision;
 * - `raw/<channel>.jsonl`: plugin traces, always one for each channel the plugins declare
 *   (`traceChannels`: `hooks`, `mcp`, ...), and one for any other channel traced to.
 *
 * `record.json` is written last, so its presence means the raw logs are complete.
 *
 * @module
 */
import { errorMessage } from "../core/errors.ts";
import denoJson from "../deno.json" with { type: "json" };
import type { HelEvent, PermissionEvent, TraceEvent } from "../core/events.ts";
import type { LoopOutcome, Termination } from "../core/loop.ts";
import type { ToolCategory } from "../core/types.ts";
import { UsageError } from "../core/usage_error.ts";
import { UnsafePathError, writeFileAtomic } from "../kit/safe_write.ts";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { surroundings } from "../kit/surroundings.ts";

/** Version tag of the record layout; bump when a field changes meaning. */
export const RECORD_SCHEMA_VERSION = "hel-record-1";

/**
 * A figure that was measured, or is unavailable (hel never guesses). `estimated` is for
 * outside runners completing a record: the eval runner marks token counts so when the server
 * reported none, or when the server was the scripted stand-in.
 */
export interface Metric {
  value: number | null;
  status: "measured" | "estimated" | "unavailable";
}

/** One tool call as the model saw it end. */
export interface RecordedToolEvent {
  /** 1-based position among the run's tool calls. */
  seq: number;
  call_id: string;
  name: string;
  category: ToolCategory;
  args: unknown;
  ok: boolean;
  /** The failure text without the `error: ` prefix, cut to 300 characters. */
  error?: string;
}

/** How the run ended; `timeout` is set by an outside runner that had to stop hel. */
export type RecordTermination = Termination | "timeout";

/** The content of `record.json`. Eval drivers may add fields to `run` and `harness`. */
export interface RunRecord {
  schema_version: typeof RECORD_SCHEMA_VERSION;
  run: {
    session_id: string | null;
    started_at: string;
    ended_at: string;
    [identity: string]: unknown;
  };
  harness: { name: "hel"; version: string; plugins: string[]; [more: string]: unknown };
  model: {
    requested: string;
    /** The model the server said answered (first successful response), or null. */
    actual: string | null;
    base_url: string;
    params: Record<string, unknown>;
  };
  outcome: {
    final_output: string | null;
    termination: RecordTermination;
    error: string | null;
    exit_code: number | null;
  };
  usage: {
    input_tokens: Metric;
    output_tokens: Metric;
    cached_input_tokens: Metric;
    model_calls: Metric;
    wall_time_ms: Metric;
  };
  events: RecordedToolEvent[];
  warnings: string[];
  artifacts: { requests: string; permissions: string; traces: Record<string, string> };
}

/** What the recorder knows before the run starts. */
export interface RecorderSettings {
  model: string;
  baseUrl: string;
  maxOutputTokens: number;
  maxTurns: number;
  /** The trace channels the build's plugins declare: written even when nothing was traced. */
  traceChannels: readonly string[];
}

const CHANNEL = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const ERROR_KEPT_CHARS = 300;

/** Collects events of one run and writes the record. */
export class RunRecorder {
  readonly #path: string;
  readonly #settings: RecorderSettings;
  readonly #startedAt = new Date();
  readonly #started = performance.now();
  readonly #requests: unknown[] = [];
  readonly #permissions: Omit<PermissionEvent, "type">[] = [];
  readonly #traces = new Map<string, unknown[]>();
  readonly #events: RecordedToolEvent[] = [];
  readonly #warnings: string[] = [];
  #outcome: LoopOutcome | undefined;
  #failure: string | undefined;
  #sessionId: string | null = null;
  #plugins: string[] = [];

  constructor(path: string, settings: RecorderSettings) {
    this.#path = path;
    this.#settings = settings;
  }

  /** Takes one run event. Never throws. */
  observe(event: HelEvent): void {
    switch (event.type) {
      case "model_exchange":
        // The request holds the live conversation, which grows after this event: copy it now.
        this.#requests.push({
          seq: this.#requests.length + 1,
          purpose: event.purpose,
          request: JSON.parse(JSON.stringify(event.request)),
          ...(event.response === undefined ? {} : { response: event.response }),
          ...(event.error === undefined ? {} : { error: event.error }),
        });
        break;
      case "tool_call":
        this.#events.push({
          seq: this.#events.length + 1,
          call_id: event.callId,
          name: event.name,
          category: event.category,
          args: event.args,
          ok: event.ok,
          ...(event.ok ? {} : { error: shortError(event.text) }),
        });
        break;
      case "permission": {
        const { type: _, ...rest } = event;
        this.#permissions.push(rest);
        break;
      }
      case "trace":
        this.#trace(event);
        break;
      case "warning":
        this.#warnings.push(event.text);
        break;
    }
  }

  /** The session and the plugins that took part, once the run has started. */
  started(sessionId: string, plugins: readonly string[]): void {
    this.#sessionId = sessionId;
    this.#plugins = [...plugins];
  }

  /** How a user turn ended; the last turn's outcome is the run's. */
  turnEnded(outcome: LoopOutcome): void {
    this.#outcome = outcome;
  }

  /** A setup or usage error that ended the run before or outside the loop. */
  failed(error: unknown): void {
    this.#failure = errorMessage(error);
  }

  /** The record as it stands now. */
  build(exitCode: number | null): RunRecord {
    const outcome = this.#outcome;
    const termination: RecordTermination = this.#failure !== undefined || !outcome
      ? "error"
      : outcome.termination;
    const error = this.#failure ?? outcome?.error ??
      (outcome ? null : "the run ended before the model was asked");
    return {
      schema_version: RECORD_SCHEMA_VERSION,
      run: {
        session_id: this.#sessionId,
        started_at: this.#startedAt.toISOString(),
        ended_at: new Date().toISOString(),
      },
      harness: { name: "hel", version: denoJson.version, plugins: this.#plugins },
      model: {
        requested: this.#settings.model,
        actual: this.#actualModel(),
        base_url: this.#settings.baseUrl,
        params: {
          max_output_tokens: this.#settings.maxOutputTokens,
          max_turns: this.#settings.maxTurns,
        },
      },
      outcome: {
        final_output: this.#failure === undefined ? outcome?.finalText ?? null : null,
        termination,
        error,
        exit_code: exitCode,
      },
      usage: this.#usage(),
      events: this.#events,
      warnings: this.#warnings,
      artifacts: {
        requests: "raw/requests.jsonl",
        permissions: "raw/permissions.jsonl",
        traces: Object.fromEntries(this.#channels().map((c) => [c, `raw/${c}.jsonl`])),
      },
    };
  }

  /**
   * Writes the raw logs, then `record.json`, never through a link (see {@link recordRoot}).
   * Throws when a file cannot be written.
   */
  async write(exitCode: number | null): Promise<void> {
    const path = resolve(surroundings().cwd(), this.#path);
    const root = await recordRoot(dirname(path));
    const raw = `${dirname(path)}/raw`;
    const write = (file: string, text: string) =>
      writeFileAtomic(root, file, text, { mode: 0o644, folderMode: 0o755 });
    await write(`${raw}/requests.jsonl`, jsonLines(this.#requests));
    await write(`${raw}/permissions.jsonl`, jsonLines(this.#permissions));
    for (const channel of this.#channels()) {
      await write(`${raw}/${channel}.jsonl`, jsonLines(this.#traces.get(channel)));
    }
    await write(path, JSON.stringify(this.build(exitCode), null, 2) + "\n");
  }

  #trace(event: TraceEvent): void {
    // Channel names become file names; anything odd is filed under "other".
    const channel = CHANNEL.test(event.channel) ? event.channel : "other";
    const lines = this.#traces.get(channel) ?? [];
    lines.push(channel === event.channel ? event.data : { channel: event.channel, ...event.data });
    this.#traces.set(channel, lines);
  }

  #channels(): string[] {
    const declared = this.#settings.traceChannels.filter((channel) => CHANNEL.test(channel));
    return [...new Set([...declared, ...this.#traces.keys()])].sort();
  }

  #actualModel(): string | null {
    for (const entry of this.#requests as { response?: { model?: unknown } }[]) {
      if (typeof entry.response?.model === "string") return entry.response.model;
    }
    return null;
  }

  #usage(): RunRecord["usage"] {
    // Tokens are summed over successful responses; one response without usage makes the sum
    // unknowable, so the figure is then unavailable rather than too small.
    let input: number | null = 0, output: number | null = 0, cached: number | null = 0;
    for (const entry of this.#requests as { response?: { usage?: unknown } }[]) {
      if (!entry.response) continue;
      const usage = entry.response.usage as
        | { promptTokens?: number; completionTokens?: number; cachedTokens?: number }
        | undefined;
      input = add(input, usage?.promptTokens);
      output = add(output, usage?.completionTokens);
      cached = add(cached, usage?.cachedTokens);
    }
    return {
      input_tokens: metric(input),
      output_tokens: metric(output),
      cached_input_tokens: metric(cached),
      model_calls: metric(this.#requests.length),
      wall_time_ms: metric(Math.round(performance.now() - this.#started)),
    };
  }
}

function add(sum: number | null, value: number | undefined): number | null {
  return sum === null || typeof value !== "number" ? null : sum + value;
}

function metric(value: number | null): Metric {
  return value === null ? { value, status: "unavailable" } : { value, status: "measured" };
}

function shortError(text: string): string {
  const bare = text.startsWith("error: ") ? text.slice("error: ".length) : text;
  return bare.length > ERROR_KEPT_CHARS ? `${bare.slice(0, ERROR_KEPT_CHARS)}…` : bare;
}

/**
 * The folder below which every part of the record's path must be a real folder: the working
 * directory for a record inside it, where sandboxed commands could have planted links; else the
 * record's own folder, which the user named (created when missing).
 */
async function recordRoot(dir: string): Promise<string> {
  const cwd = surroundings().cwd();
  const rel = relative(cwd, dir);
  if (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return cwd;
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

function jsonLines(items: readonly unknown[] | undefined): string {
  return (items ?? []).map((item) => JSON.stringify(item) + "\n").join("");
}

/** Hooks a run's start and turns into the recorder (used by the CLI's start-up). */
export interface RecordedRun {
  session: { id: string };
  plugins: readonly { name: string }[];
  turn(...args: never[]): Promise<LoopOutcome>;
}

/**
 * Runs `body` with a recorder attached: `observe` receives every event, `onRun` the started
 * run (whose turns are then watched). The record is written however `body` ends; an error
 * thrown by `body` is recorded and rethrown.
 */
export async function recordRun(
  path: string,
  settings: RecorderSettings,
  body: (observe: (event: HelEvent) => void, onRun: (run: RecordedRun) => void) => Promise<number>,
): Promise<number> {
  const recorder = new RunRecorder(path, settings);
  const onRun = (run: RecordedRun) => {
    recorder.started(run.session.id, run.plugins.map((plugin) => plugin.name));
    const turn = run.turn.bind(run);
    run.turn = async (...args) => {
      const outcome = await turn(...args);
      recorder.turnEnded(outcome);
      return outcome;
    };
  };
  let exitCode: number;
  try {
    exitCode = await body((event) => recorder.observe(event), onRun);
  } catch (error) {
    recorder.failed(error);
    await writeOrExplain(recorder, path, error instanceof UsageError ? 2 : 1);
    throw error;
  }
  await writeOrExplain(recorder, path, exitCode);
  return exitCode;
}

async function writeOrExplain(recorder: RunRecorder, path: string, exitCode: number) {
  try {
    await recorder.write(exitCode);
  } catch (error) {
    const fix = error instanceof UnsafePathError
      ? ""
      : "; check that its folder exists and is writable";
    throw new UsageError(`cannot write the run record ${path}: ${errorMessage(error)}${fix}`);
  }
}
