/**
 * The transport of a remote MCP server: the SDK's Streamable HTTP client transport, or its
 * HTTP+SSE one, behind the same surface as a started server's (transport.ts), so one connection
 * layer (connection.ts) serves both. With no `"transport"` in the entry, a server that answers
 * the first POST the old way (a 4xx other than 401 and 403, as the spec's backwards
 * compatibility section says) is reached over SSE at the same address instead. Every answer's
 * size is bounded (bounded_fetch.ts); redirects are followed only within the server's origin
 * (the SDK's default), so the headers never reach another host. Nothing is started, so there is
 * no process, exit or stderr; shutting down ends the session (HTTP DELETE) and closes streams.
 * A server hel logged in to (`hel mcp login`) gets an SDK `OAuthClientProvider`, which adds the
 * token and refreshes it; a 401 without one reads "needs login: run hel mcp login NAME".
 *
 * @module
 */
// The SDK's export map gives no types for its ".js" subpaths; point Deno at them.
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type {
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { settleWithin } from "../../kit/mod.ts";
import { boundedFetch, type Fetch } from "./bounded_fetch.ts";
import { type Challenge, readChallenge } from "./oauth_challenge.ts";
import { failureText, refusedText, unreachableText } from "./remote_refusal.ts";
import type { RemoteServer } from "./remote_config.ts";
import { sendsOwnAuthorization } from "./remote_headers.ts";
import type { ShutdownStep } from "./shutdown.ts";
import { StartupError } from "./startup_failure.ts";
import { StderrTail } from "./stderr_tail.ts";
import { limitText } from "./message_size.ts";
import { SessionLost } from "./lost_session.ts";

/** What a remote transport needs. */
export interface RemoteTransportOptions {
  remote: RemoteServer;
  /** Each answer (each event of a stream) over this many bytes drops the connection. */
  maxMessageBytes: number;
  /** How long ending the session may take at shutdown. */
  shutdownWaitMs: number;
  /** The command that logs in to this server, for the "needs login" message. */
  loginCommand: string;
}

/** An auth provider, which may wrap the fetch its token requests go through (a lock). */
export type GuardedProvider = OAuthClientProvider & { guardFetch?(fetchFn: Fetch): Fetch };

/** A remote server over Streamable HTTP or HTTP+SSE. */
export class RemoteTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** A remote server has no stderr; kept empty so the connection layer reads it alike. */
  readonly stderr = new StderrTail();
  readonly pid = undefined;
  readonly exit = undefined;
  readonly exited: Promise<void> = Promise.resolve();
  readonly stderrDone: Promise<void> = Promise.resolve();

  #options: RemoteTransportOptions;
  #headers: Record<string, string> = {};
  #authProvider: GuardedProvider | undefined;
  #inner: Transport | undefined;
  #kind: "http" | "sse" = "http";
  /** True once a message went through: no more falling back. */
  #settled = false;
  #closed = false;
  #endedByServer = false;
  #dropped: string | undefined;
  /** The server answered 404 to the session: ending it would only get another. */
  #forgotten = false;
  #protocolVersion: string | undefined;
  #shutdown: Promise<ShutdownStep> | undefined;
  /** What the server's last 401/403 asked for (its `WWW-Authenticate`). */
  #challenge: Challenge | undefined;

  constructor(options: RemoteTransportOptions) {
    this.#options = options;
  }

  /**
   * Sets the headers sent with every request (values from the environment) and the stored
   * login, if any (the SDK then adds its token and handles 401s itself); before start.
   */
  use(headers: Record<string, string>, authProvider?: GuardedProvider): void {
    this.#headers = headers;
    this.#authProvider = authProvider;
  }

  /** The transport in use: "http" (Streamable HTTP) or "sse". */
  get kind(): "http" | "sse" {
    return this.#kind;
  }

  get sessionId(): string | undefined {
    return (this.#inner as { sessionId?: string } | undefined)?.sessionId;
  }

  /** True when the connection ended without hel closing it. */
  get endedByServer(): boolean {
    return this.#endedByServer;
  }

  /** Why hel dropped the connection (an oversized message), if it did. */
  get dropped(): string | undefined {
    return this.#dropped;
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#inner?.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    try {
      await this.#open(this.#options.remote.transport === "sse" ? "sse" : "http");
    } catch (error) {
      throw new StartupError(this.#unreachable(error));
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const inner = this.#inner;
    if (!inner || this.#closed) throw new Error("the connection to the server is closed");
    if (this.#settled) {
      try {
        return await inner.send(message, options);
      } catch (error) {
        // A server that forgot the session (restarted, expired it) answers 404; the spec asks
        // for a new session: the connection ends here and the call starts one (lost_session.ts).
        // No DELETE for it: the server already forgot it.
        if (sessionLost(inner, error)) {
          this.#forgotten = true;
          this.#drop("it no longer knows hel's session (HTTP 404)");
          throw new SessionLost();
        }
        // A server may let hel initialize and want credentials for what comes next (a server
        // behind OAuth, a scope a call needs): say so, not just the SDK's "Error POSTing".
        const { url } = this.#options.remote;
        const refused = refusedText(url, error, this.#loginHint(), this.#challenge);
        throw refused === undefined ? error : new StartupError(refused);
      }
    }
    try {
      await inner.send(message, options);
      this.#settled = true;
    } catch (error) {
      if (this.#kind === "http" && !this.#options.remote.transport && oldServer(error)) {
        // The server does not speak Streamable HTTP: try the HTTP+SSE transport at the URL.
        this.#inner = undefined;
        await inner.close().catch(() => {});
        try {
          await this.#open("sse");
          await this.#inner!.send(message, options);
        } catch (sseError) {
          throw new StartupError(
            `${this.#unreachable(error)}; over HTTP+SSE, the older ` +
              `transport, it also failed: ${failureText(sseError)}`,
          );
        }
        this.#settled = true;
        return;
      }
      throw new StartupError(this.#unreachable(error));
    }
  }

  async #open(kind: "http" | "sse"): Promise<void> {
    const url = new URL(this.#options.remote.url);
    const fetchFn = this.#recording(
      boundedFetch(this.#options.maxMessageBytes, () => this.#oversize()),
    );
    const options = {
      requestInit: { headers: this.#headers },
      fetch: this.#authProvider?.guardFetch?.(fetchFn) ?? fetchFn,
      ...(this.#authProvider ? { authProvider: this.#authProvider } : {}),
    };
    const inner: Transport = kind === "sse"
      ? new SSEClientTransport(url, options)
      : new StreamableHTTPClientTransport(url, options);
    // Only the transport in use speaks for the connection: one being replaced stays quiet.
    inner.onmessage = (message) => {
      if (this.#inner === inner) this.onmessage?.(message);
    };
    inner.onerror = (error) => {
      if (this.#inner === inner) this.onerror?.(error);
    };
    inner.onclose = () => {
      if (this.#inner === inner) this.#finish();
    };
    this.#inner = inner;
    this.#kind = kind;
    if (this.#protocolVersion) inner.setProtocolVersion?.(this.#protocolVersion);
    await inner.start();
  }

  /** Keeps the challenge of each 401/403, for the message that says what it wants. */
  #recording(base: Fetch): Fetch {
    return async (url, init) => {
      const response = await base(url, init);
      if (response.status === 401 || response.status === 403) {
        this.#challenge = readChallenge(response);
      }
      return response;
    };
  }

  #unreachable(error: unknown): string {
    return unreachableText(this.#options.remote.url, error, this.#loginHint(), this.#challenge);
  }

  /** The login command to name, for a server whose entry sends no Authorization of its own. */
  #loginHint(): string | undefined {
    const { remote, loginCommand } = this.#options;
    return sendsOwnAuthorization(remote) ? undefined : loginCommand;
  }

  #oversize(): void {
    this.#drop(
      `it sent a message over ${limitText(this.#options.maxMessageBytes)}, more than hel ` +
        'reads from it ("maxMessageBytes" in its mcp.json entry), so hel closed the connection',
    );
  }

  /** Ends the connection for `reason`; the next call connects again (restarts.ts). */
  #drop(reason: string): void {
    if (this.#dropped) return;
    this.#dropped = reason;
    // A forgotten session has no DELETE to wait for: closing at once would fail the refused
    // call with "Connection closed" before its own error (SessionLost) arrives, so a task later.
    if (this.#forgotten) setTimeout(() => void this.shutdown(), 0);
    else queueMicrotask(() => void this.shutdown());
    // hel stops using the connection now, not once the server answered the DELETE that ends
    // the session: a call made meanwhile connects anew instead of going to the dropped one.
    setTimeout(() => this.#finish(), 0);
  }

  close(): Promise<void> {
    return this.shutdown().then(() => {});
  }

  /** Ends the session on the server (Streamable HTTP) and closes the streams; once. */
  shutdown(): Promise<ShutdownStep> {
    this.#shutdown ??= this.#runShutdown();
    return this.#shutdown;
  }

  async #runShutdown(): Promise<ShutdownStep> {
    const inner = this.#inner;
    if (!inner || this.#closed) {
      this.#finish();
      return "already-gone";
    }
    if (
      inner instanceof StreamableHTTPClientTransport && inner.sessionId !== undefined &&
      !this.#forgotten
    ) {
      // Tells the server it can forget the session; a server that does not answer in time
      // is left to expire it.
      await settleWithin([inner.terminateSession()], this.#options.shutdownWaitMs);
    }
    await inner.close().catch(() => {});
    this.#finish();
    return "closed";
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#endedByServer = this.#shutdown === undefined;
    this.onclose?.();
  }
}

/** True for a 404 to a request that carried a session id: the server forgot the session. */
function sessionLost(inner: Transport, error: unknown): boolean {
  return inner instanceof StreamableHTTPClientTransport && inner.sessionId !== undefined &&
    error instanceof StreamableHTTPError && error.code === 404;
}

/**
 * True for an answer that means "not a Streamable HTTP endpoint": a 4xx to the first POST,
 * except 401 and 403, which are about credentials (falling back would only hide that).
 */
function oldServer(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError)) return false;
  const code = error.code ?? 0;
  return code >= 400 && code < 500 && code !== 401 && code !== 403;
}
