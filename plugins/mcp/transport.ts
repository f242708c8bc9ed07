/**
 * The stdio transport hel gives the MCP SDK's `Client`. Lines are split as the SDK's
 * `ReadBuffer` does, but in linear time and with a per-server bound whose excess costs only the
 * call it answers (line_reader.ts, oversize.ts); messages are the SDK's (`serializeMessage`,
 * `deserializeMessage`). What else differs from the SDK's `StdioClientTransport` is the
 * process handling hel needs: the server runs in its own process group with exactly the
 * environment hel chose, the connection counts as closed as soon as the server exits (even when
 * a grandchild still holds its pipes), stderr is always drained into a bounded tail, an answer
 * that is not valid JSON-RPC fails its request at once, and closing runs hel's shutdown
 * sequence on the whole group.
 *
 * @module
 */
// The SDK's export map gives no types for its ".js" subpaths; point Deno at them.
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { inNewProcessGroup } from "../../kit/mod.ts";
import { shutdownProcessGroup, type ShutdownStep } from "./shutdown.ts";
import { StderrTail } from "./stderr_tail.ts";
import { LineReader, type ReadLine } from "./line_reader.ts";
import type { SkippedMessage } from "./message_size.ts";
import { oversizeAnswers } from "./oversize.ts";

/** What to start: the program (bwrap for a sandboxed server), its arguments and environment. */
export interface ProcessProgram {
  command: string;
  args: readonly string[];
  /** The server's whole environment (nothing else is inherited). */
  env: Record<string, string>;
}

/** Where to start it and how to stop it. */
export interface ProcessTransportOptions {
  cwd: string;
  /** The server's name, for the error a call gets when its answer is over the bound. */
  name: string;
  /** A message (line) over this many bytes is skipped; the call it answers fails. */
  maxMessageBytes: number;
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
  #program: ProcessProgram | undefined;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #reader: LineReader;
  /** hel's requests the server has not answered yet, by id: an unreadable skip fails them. */
  #pending = new Map<string | number, string>();
  /** The message being skipped has already failed its call(s). */
  #skipAnswered = false;
  #closed = false;
  #endedByServer = false;
  #exit: ExitInfo | undefined;
  #exited: Promise<void> = Promise.resolve();
  #stderrDone: Promise<void> = Promise.resolve();
  #shutdown: Promise<ShutdownStep> | undefined;
  #encoder = new TextEncoder();

  constructor(options: ProcessTransportOptions) {
    this.#options = options;
    this.#reader = new LineReader(options.maxMessageBytes);
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

  /** Why hel itself dropped a running connection; a stdio server is never dropped. */
  // Always undefined here: it exists so connection.ts reads `dropped` on a ServerTransport
  // without asking which kind it holds (a remote one can be dropped, remote_transport.ts).
  get dropped(): string | undefined {
    return undefined;
  }

  /** Resolves when the server process has exited. */
  get exited(): Promise<void> {
    return this.#exited;
  }

  /** Resolves when the server's stderr has ended (all of it is in {@link stderr}). */
  get stderrDone(): Promise<void> {
    return this.#stderrDone;
  }

  /** Sets what {@link start} spawns; called before the client connects. */
  use(program: ProcessProgram): void {
    this.#program = program;
  }

  /** Spawns the server. Throws when the process cannot be started at all. */
  start(): Promise<void> {
    if (this.#child) throw new Error("the server was already started");
    if (!this.#program) throw new Error("no program to start");
    const [program, args] = inNewProcessGroup(this.#program.command, this.#program.args);
    const child = new Deno.Command(program, {
      args,
      cwd: this.#options.cwd,
      env: this.#program.env,
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
    this.#stderrDone = this.#drainStderr(child.stderr);
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed || !this.#writer) throw new Error("the server is not running");
    if ("method" in message && "id" in message) this.#pending.set(message.id, message.method);
    // A request hel gave up on waits no more: its answer, if it comes, is dropped by the SDK.
    if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") this.#pending.delete(id);
    }
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
    this.#reader.clear();
    this.#pending.clear();
    this.onclose?.();
  }

  async #readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) {
        if (this.#closed) break;
        this.#deliver(this.#reader.push(chunk));
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
    // Nothing more can arrive once stdout ends, even if the process lingers.
    this.#finish();
  }

  #deliver(lines: readonly ReadLine[]): void {
    for (const read of lines) {
      if (this.#closed) return;
      if ("over" in read || "skipped" in read) {
        this.#skip(read);
        continue;
      }
      const line = read.line;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (error) {
        // Not a JSON-RPC message: report it and read on. If it looks like the answer to a
        // request, fail that request now rather than leave it waiting for its timeout.
        this.onerror?.(error as Error);
        const failure = malformedAnswer(line);
        if (failure) this.#receive(failure);
        continue;
      }
      this.#receive(message);
    }
  }

  /** A message over the bound: fails the call(s) it may answer, once (oversize.ts). */
  #skip(read: { over: SkippedMessage } | { skipped: SkippedMessage }): void {
    if ("over" in read) this.#skipAnswered = false;
    if (this.#skipAnswered) return;
    const ended = "skipped" in read;
    const message = "over" in read ? read.over : read.skipped;
    const outcome = oversizeAnswers(message, this.#pending, this.#options, ended);
    if (!outcome) return;
    this.#skipAnswered = true;
    this.onerror?.(outcome.error);
    for (const answer of outcome.answers) this.#receive(answer);
  }

  #receive(message: JSONRPCMessage): void {
    if (!("method" in message) && "id" in message && message.id !== undefined) {
      this.#pending.delete(message.id);
    }
    this.onmessage?.(message);
  }

  async #drainStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) this.stderr.append(chunk);
    } catch {
      // The pipe broke: nothing left to drain.
    }
  }
}

/**
 * An error answer for the request a malformed line answers (a JSON object with an id and a
 * result or error, but wrong in shape: `"jsonrpc": "1.0"`, a result that is not an object, both
 * a result and an error); undefined for anything else (banners, partial JSON, null ids).
 */
function malformedAnswer(line: string): JSONRPCMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const id = record.id;
  if (typeof id !== "number" && typeof id !== "string") return undefined;
  if ("method" in record || !("result" in record || "error" in record)) return undefined;
  // zod's union error says only "Invalid input"; name the usual mistakes instead.
  const result = record.result;
  const detail = record.jsonrpc !== "2.0"
    ? ` ("jsonrpc" is ${JSON.stringify(record.jsonrpc ?? null).slice(0, 20)}, not "2.0")`
    : "result" in record && "error" in record
    ? " (it has both a result and an error)"
    : "result" in record && (result === null || typeof result !== "object" || Array.isArray(result))
    ? " (its result is not an object)"
    : "error" in record
    ? " (its error needs a numeric code and a message)"
    : "";
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: -32603,
      message: `the server sent a malformed answer, not a JSON-RPC 2.0 response${detail}; ` +
        "the request failed",
    },
  } as JSONRPCMessage;
}
