/**
 * The stdio transport hel gives the MCP SDK's `Client`. Framing is the SDK's own
 * (`ReadBuffer`, `serializeMessage`); what differs from the SDK's `StdioClientTransport` is the
 * process handling hel needs: the server runs in its own process group with exactly the
 * environment hel chose, the connection counts as closed as soon as the server exits (even when
 * a grandchild still holds its pipes), stderr is always drained into a bounded tail, and
 * closing runs hel's shutdown sequence on the whole group.
 *
 * @module
 */
import { Buffer } from "node:buffer";
// The SDK's export map gives no types for its ".js" subpaths; point Deno at them.
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { inNewProcessGroup } from "../../core/mod.ts";
import { shutdownProcessGroup, type ShutdownStep } from "./shutdown.ts";
import { StderrTail } from "./stderr_tail.ts";

/** A line from a server longer than this ends the connection (the SDK's own bound). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** What to start and how to stop it. */
export interface ProcessTransportOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The server's whole environment (nothing else is inherited). */
  env: Record<string, string>;
  /** How long each shutdown step waits. */
  shutdownWaitMs: number;
}

/** How the server process ended, once it has. */
export interface ExitInfo {
  code: number;
  signal: string | null;
}

/** A server process speaking MCP over stdin/stdout. */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr (most recent part). */
  readonly stderr = new StderrTail();

  #options: ProcessTransportOptions;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #readBuffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  #closed = false;
  #endedByServer = false;
  #dropped: string | undefined;
  #exit: ExitInfo | undefined;
  #exited: Promise<void> = Promise.resolve();
  #shutdown: Promise<ShutdownStep> | undefined;
  #encoder = new TextEncoder();

  constructor(options: ProcessTransportOptions) {
    this.#options = options;
  }

  /** The server's pid, which is also its process group id; undefined before start. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, or undefined while it runs. */
  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  /**
   * True when the server ended the connection itself (closed its output or exited) before hel
   * began shutting it down; false when hel's shutdown closed it.
   */
  get endedByServer(): boolean {
    return this.#endedByServer;
  }

  /** Why hel itself dropped a running connection (an oversized message), if it did. */
  get dropped(): string | undefined {
    return this.#dropped;
  }

  /** Resolves when the server process has exited. */
  get exited(): Promise<void> {
    return this.#exited;
  }

  /** Spawns the server. Throws when the process cannot be started at all. */
  start(): Promise<void> {
    if (this.#child) throw new Error("the server was already started");
    const [program, args] = inNewProcessGroup(this.#options.command, this.#options.args);
    const child = new Deno.Command(program, {
      args,
      cwd: this.#options.cwd,
      env: this.#options.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#exited = child.status.then((status) => {
      this.#exit = { code: status.code, signal: status.signal };
      this.#finish();
    });
    void this.#readStdout(child.stdout);
    void this.#drainStderr(child.stderr);
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed || !this.#writer) throw new Error("the server is not running");
    await this.#writer.write(this.#encoder.encode(serializeMessage(message)));
  }

  /** Runs the shutdown sequence once; later calls wait for the same one. */
  close(): Promise<void> {
    return this.shutdown().then(() => {});
  }

  /** Like {@link close}, and says how far the sequence had to go. */
  shutdown(): Promise<ShutdownStep> {
    this.#shutdown ??= this.#runShutdown();
    return this.#shutdown;
  }

  async #runShutdown(): Promise<ShutdownStep> {
    const child = this.#child;
    if (!child) {
      this.#finish();
      return "already-gone";
    }
    const closeStdin = () => {
      this.#writer?.close().catch(() => {});
      this.#writer = undefined;
    };
    const step = await shutdownProcessGroup(child.pid, closeStdin, this.#options.shutdownWaitMs);
    this.#finish();
    return step;
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#endedByServer = this.#shutdown === undefined;
    this.#readBuffer.clear();
    this.onclose?.();
  }

  async #readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) {
        if (this.#closed) break;
        try {
          this.#readBuffer.append(Buffer.from(chunk));
        } catch (error) {
          // Over the size bound: the connection cannot recover its framing.
          this.#dropped = `it sent a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB, more ` +
            "than hel reads, so hel closed the connection";
          this.onerror?.(error as Error);
          this.#finish();
          break;
        }
        this.#deliver();
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
    // Nothing more can arrive once stdout ends, even if the process lingers.
    this.#finish();
  }

  #deliver(): void {
    while (!this.#closed) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#readBuffer.readMessage();
      } catch (error) {
        // A line that is not a JSON-RPC message was consumed; report it and read on.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  async #drainStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) this.stderr.append(chunk);
    } catch {
      // The pipe broke: nothing left to drain.
    }
  }
}
