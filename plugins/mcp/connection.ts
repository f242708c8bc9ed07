/**
 * One MCP server for the length of a run: started and listed under the shared startup
 * deadline, called with a per-call timeout (restarted by progress reports, within a hard
 * maximum) that cancels the request and keeps the server, started again by the next call when
 * it went away (restarts.ts), shut down with hel.
 *
 * @module
 */
// The SDK's export map gives no types for its ".js" subpaths; point Deno at them.
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { clipChars, type ToolResult } from "../../core/mod.ts";
import { settleWithin } from "../../kit/mod.ts";
import type { ToolListing } from "./listing_budget.ts";
import { callMaximumMs, type ServerConfig } from "./config.ts";
import type { ResultConverter } from "./result.ts";
import type { ShutdownStep } from "./shutdown.ts";
import { createTransport, prepareTransport, type ServerTransport } from "./server_transport.ts";
import { slowStartHint } from "./startup_hints.ts";
import { StartupError, startupFailureText } from "./startup_failure.ts";
import type { Launcher } from "./launch.ts";
import { type ClientFeature, declaredCapabilities, runConnected } from "./client_features.ts";
import { CallsInFlight } from "./call_clock.ts";
import { type CallRecoverer, sendRecovering } from "./call_recovery.ts";
import { callFailure } from "./call_failure.ts";
import { listToolsAtStart } from "./start_listing.ts";
import { lostDuringCallText, RestartPolicy } from "./restarts.ts";
import { lossOf, revive } from "./revive.ts";
import { RenewalFailed, resendingOnLostSession, SessionLost } from "./lost_session.ts";

/** hel's name and version as MCP servers see them. */
const CLIENT_INFO = { name: "hel", version: "0.1.0" };
/** How the SDK reports a progress notification for no call in flight. */
const STRAY_PROGRESS = "Received a progress notification for an unknown token";
/** Server texts in messages and traces are cut to this many characters. */
const MAX_QUOTED = 500;

/** What a call's progress reports came to, for its trace entry. */
interface CallProgress {
  count: number;
  last?: { progress: number; total?: number; message?: string };
}

/** Where a connection reports what happened (the run's `mcp` trace). */
export type Trace = (data: Record<string, unknown>) => void;

/** What a connection needs besides its configuration. */
export interface ConnectionOptions {
  project: string;
  /** How servers are started (sandboxed or not, with which environment). */
  launcher: Launcher;
  shutdownWaitMs: number;
  trace: Trace;
  /** What the client offers beyond tool calls (client_features.ts); none when absent. */
  features?: readonly ClientFeature[];
  /** The time a restart may take to spawn, initialize and list (the startup timeout). */
  startupMs: number;
  /** Told of each restart: the tools the server lists now and the model's note (restarts.ts). */
  onRestarted?: (server: string, listing: ToolListing, note: string) => void;
}

export { StartupError };

/** A started (or failed) server. */
export class McpConnection {
  readonly config: ServerConfig;
  #options: ConnectionOptions;
  #transport: ServerTransport;
  #client: Client;
  #state: "new" | "connected" | "disconnected" = "new";
  #phase = "start";
  #strayProgress = 0;
  readonly #calls = new CallsInFlight();
  readonly #recoverers: CallRecoverer[] = [];
  readonly #restarts = new RestartPolicy();
  #closing = false;
  #reviving: Promise<ToolResult | undefined> | undefined;

  constructor(config: ServerConfig, options: ConnectionOptions) {
    this.config = config;
    this.#options = options;
    this.#transport = createTransport(config, options);
    const features = options.features ?? [];
    this.#client = new Client(CLIENT_INFO, { capabilities: declaredCapabilities(features) });
    for (const feature of features) {
      const installed = feature.install?.(this.#client, {
        config,
        trace: options.trace,
        calls: this.#calls,
      });
      if (installed) this.#recoverers.push(installed);
    }
    this.#client.onerror = (error) => {
      // A server that goes on reporting progress for a call hel cancelled (or never made) could
      // fill the trace with one entry a report: keep the 1st, 10th, 100th, ... with a count.
      if (error.message.startsWith(STRAY_PROGRESS)) {
        const count = ++this.#strayProgress;
        if (!/^10*$/.test(String(count))) return; // 1, 10, 100, ...
        options.trace({
          event: "protocol",
          server: config.name,
          message: cut(error.message),
          count,
        });
        return;
      }
      options.trace({ event: "protocol", server: config.name, message: cut(error.message) });
    };
    this.#client.onclose = () => {
      if (this.#state !== "connected") return;
      this.#state = "disconnected";
      this.#restarts.lost();
      const reason = this.#transport.dropped;
      options.trace({
        event: "disconnected",
        server: config.name,
        ...this.#transport.exit,
        ...(reason ? { reason } : {}),
      });
    };
  }

  get name(): string {
    return this.config.name;
  }

  /** What the server said about using it in its `initialize` answer, if anything. */
  get instructions(): string | undefined {
    const text = this.#client.getInstructions();
    return typeof text === "string" ? text : undefined;
  }

  /** The server's pid (and process group id), once spawned; none for a remote server. */
  get pid(): number | undefined {
    return this.#transport.pid;
  }

  get connected(): boolean {
    return this.#state === "connected";
  }

  /** How many times the server was started again during the run, and whether it was given up. */
  get restarts(): { count: number; gaveUp: boolean } {
    return { count: this.#restarts.restarts, gaveUp: this.#restarts.gaveUp };
  }

  /**
   * Spawns the server, runs `initialize` and every page of `tools/list`, all before `deadline`
   * (epoch ms). On any failure the server is shut down and a {@link StartupError} says why.
   */
  async start(deadline: number, startupMs: number): Promise<ToolListing> {
    const seconds = startupMs / 1000;
    await prepareTransport(this.#transport, this.config, this.#options);
    const work = this.#connectAndList(deadline);
    work.catch(() => {}); // the deadline may win the race; the loser must not go unhandled
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadlinePassed = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new StartupError(
              `did not finish ${this.#phase} within the startup time (${seconds} s); hel ` +
                `stopped it. ${slowStartHint(this.config)}`,
            ),
          ),
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      const listing = await Promise.race([work, deadlinePassed]);
      this.#state = "connected";
      return listing;
    } catch (error) {
      const stderr = await this.#stderrAtFailure();
      await this.#transport.shutdown();
      await this.#exitSettled();
      const transport = this.#transport;
      throw new StartupError(startupFailureText(error, {
        phase: this.#phase,
        exit: transport.exit,
        endedByServer: transport.endedByServer,
        stderr,
      }));
    } finally {
      clearTimeout(timer);
    }
  }

  async #connectAndList(deadline: number): Promise<ToolListing> {
    // The SDK's own timers are set past the deadline so they never fire first: hel never
    // cancels `initialize`; it stops the server instead.
    const timeout = () => Math.max(1, deadline - Date.now()) + 1_000;
    this.#phase = "initialize";
    await this.#client.connect(this.#transport, { timeout: timeout() });
    const server = { config: this.config, trace: this.#options.trace, calls: this.#calls };
    const features = this.#options.features ?? [];
    await runConnected(features, this.#client, server, timeout, (phase) => this.#phase = phase);
    this.#phase = "tools/list";
    return await listToolsAtStart(this.name, this.#client, timeout());
  }

  /**
   * Calls `tools/call` with the server's own tool name; `convert` makes the model's result of
   * the server's (result.ts). Never throws. The call carries a progress token: each progress
   * report restarts hel's idle timer of the server's `timeout` (call_clock.ts, held while the
   * person answers the server's question), and hel cancels the call at {@link callMaximumMs}
   * however much progress it reports.
   */
  async call(
    toolName: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    convert: ResultConverter,
  ): Promise<ToolResult> {
    const failed = await this.reviveIfLost();
    if (failed) return failed;
    // A call-scoped controller: the SDK listens on the signal for good, and a later abort of
    // the turn's signal must not cancel requests that already finished.
    const controller = new AbortController();
    const forward = () => controller.abort(new Error("interrupted by the user"));
    signal.addEventListener("abort", forward, { once: true });
    const started = Date.now();
    const progress: CallProgress = { count: 0 };
    // The hard maximum is hel's own timer, not the SDK's `maxTotalTimeout`: the SDK checks that
    // only when a progress report arrives and then rejects without telling the server, while
    // aborting cancels on the wire (notifications/cancelled) exactly like the timeout does.
    const maximumMs = callMaximumMs(this.config.callTimeoutMs);
    let pastMaximum = false;
    let idle = false;
    // hel's own idle timer, not the SDK's: the time a question to the person is open is held.
    const timer = this.#calls.begin(this.config.callTimeoutMs, () => {
      idle = true;
      controller.abort(new McpError(ErrorCode.RequestTimeout, "Request timed out"));
    });
    const maximum = setTimeout(() => {
      pastMaximum = true;
      controller.abort(new McpError(ErrorCode.RequestTimeout, "Maximum total time exceeded"));
    }, maximumMs);
    const trace = (status: string, extra: Record<string, unknown> = {}) =>
      this.#options.trace({
        event: "call",
        server: this.name,
        tool: toolName,
        status,
        ms: Date.now() - started,
        // One summary per call, never one entry per report: a server may report every second.
        ...(progress.count > 0 ? { progress } : {}),
        ...extra,
      });
    try {
      if (signal.aborted) forward();
      const sendOnce = () =>
        this.#client.request(
          { method: "tools/call", params: { name: toolName, arguments: args } },
          ResultSchema,
          {
            timeout: maximumMs + 60_000, // never first: hel's timers end the call
            onprogress: (report) => {
              timer.restart();
              progress.count++;
              progress.last = {
                progress: report.progress,
                ...(report.total !== undefined ? { total: report.total } : {}),
                ...(typeof report.message === "string" ? { message: cut(report.message) } : {}),
              };
            },
            signal: controller.signal,
          },
        );
      // A server that forgot the session did not run the call: renewed, it is sent once more.
      const send = resendingOnLostSession(sendOnce, async () => {
        // The dropped connection is closed before the new one takes the client.
        await this.#transport.shutdown();
        const failed = await this.#shareRevival(true);
        timer.restart(); // the renewal's time is not the server's silence on the call
        return failed;
      });
      // A server may need the person to open a page first (-32042); sent again once if so.
      const call = { tool: toolName, signal: controller.signal };
      const result = await sendRecovering(send, this.#recoverers, call, () => timer.restart());
      const converted = await convert(result);
      trace(converted.ok ? "ok" : "tool-error");
      return converted;
    } catch (error) {
      if (error instanceof RenewalFailed) {
        trace("session-lost");
        return error.result;
      }
      // A refused call had no effect: it is not "lost while running" even once the dropped
      // connection closed.
      if (!this.connected && !(error instanceof SessionLost)) {
        trace("disconnected");
        return await this.#disconnectedResult();
      }
      const failure = callFailure(error, {
        server: this.name,
        tool: toolName,
        callTimeoutMs: this.config.callTimeoutMs,
        maximumMs,
        pastMaximum,
        idle,
        aborted: controller.signal.aborted,
        reports: progress.count,
      });
      trace(failure.status, failure.extra);
      return { ok: false, text: failure.text };
    } finally {
      timer.end();
      clearTimeout(maximum);
      signal.removeEventListener("abort", forward);
    }
  }

  /**
   * The server's stderr as the failed start left it. A server that ended itself gets a moment
   * to finish writing (its last lines are why); one hel is about to stop is read now, before
   * hel closes its input or signals it, so its tail is never what the shutdown made it write.
   */
  async #stderrAtFailure(): Promise<string> {
    if (this.#transport.endedByServer) {
      await settleWithin([this.#transport.exited, this.#transport.stderrDone], 500);
    }
    return this.#transport.stderr.text();
  }

  /** Stdout usually closes a moment before the exit status is known; wait briefly for it. */
  async #exitSettled(): Promise<void> {
    await settleWithin([this.#transport.exited], 500);
  }

  async #disconnectedResult(): Promise<ToolResult> {
    return { ok: false, text: lostDuringCallText(this.name, await lossOf(this.#transport)) };
  }

  /**
   * Starts the server again if it went away (revive.ts), before a request the model or the
   * person made; returns the request's failure when that did not work.
   */
  reviveIfLost(): Promise<ToolResult | undefined> {
    return this.connected ? Promise.resolve(undefined) : this.#shareRevival(false);
  }

  /** Requests made together to a server that went away share one restart. */
  #shareRevival(resending: boolean): Promise<ToolResult | undefined> {
    this.#reviving ??= this.#revive(resending).finally(() => this.#reviving = undefined);
    return this.#reviving;
  }

  /** A call to a server that went away: see revive.ts. */
  #revive(resending: boolean): Promise<ToolResult | undefined> {
    const { startupMs, trace, onRestarted } = this.#options;
    return revive({
      name: this.name,
      restarts: this.#restarts,
      closing: () => this.#closing,
      pid: () => this.pid,
      loss: () => lossOf(this.#transport),
      replaceTransport: async (waitMs) => {
        // What is left of the lost server (a child in its process group, as behind npx) is
        // shut down during the back-off: nothing else would end it once its transport is
        // replaced.
        await Promise.all([
          this.#transport.shutdown(),
          new Promise((resolve) => setTimeout(resolve, waitMs)),
        ]);
        this.#transport = createTransport(this.config, this.#options);
      },
      start: () => this.start(Date.now() + startupMs, startupMs),
      close: () => this.close(),
      trace,
      ...(onRestarted ? { onRestarted } : {}),
    }, resending);
  }

  /** Shuts the server's process group down (idempotent); says how far it had to go. */
  async close(): Promise<ShutdownStep> {
    this.#closing = true;
    if (this.#state === "connected") this.#state = "disconnected";
    return await this.#transport.shutdown();
  }

  /** The stderr tail for the trace. */
  stderrTrace(): Record<string, unknown> | undefined {
    const text = this.#transport.stderr.text();
    if (text === "") return undefined;
    return {
      event: "stderr",
      server: this.name,
      text,
      droppedBytes: this.#transport.stderr.dropped,
    };
  }
}

function cut(text: string): string {
  return clipChars(text, MAX_QUOTED);
}
