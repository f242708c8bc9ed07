/**
 * What hel's MCP client offers a server beyond calling its tools — roots, elicitation,
 * sampling, logging, list-change updates — each as one {@link ClientFeature}: the capabilities
 * it declares in `initialize` and the handlers it sets on the client. A connection declares the
 * union of its features' capabilities and installs each feature once, before connecting, so a
 * server sees every capability from its first message.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { ServerConfig } from "./config.ts";
import type { Trace } from "./connection.ts";
import type { CallsInFlight } from "./call_clock.ts";
import type { CallRecoverer } from "./call_recovery.ts";

/** What a feature knows of the server it is installed for. */
export interface FeatureServer {
  config: ServerConfig;
  trace: Trace;
  /** The server's calls in flight: a question to the person holds their timeouts. */
  calls: CallsInFlight;
}

/** One capability of the client: declared, then installed on each server's client. */
export interface ClientFeature {
  /** Short name, for traces and the README's table. */
  name: string;
  /** Merged into the capabilities hel declares (shallow, per top-level key). */
  capabilities?: ClientCapabilities;
  /**
   * Sets the feature's request and notification handlers on a server's client; may return
   * what it does for the server's failed calls (call_recovery.ts).
   */
  install?(client: Client, server: FeatureServer): void | CallRecoverer;
  /**
   * Work once `initialize` is done and before `tools/list` (e.g. `logging/setLevel`), under the
   * startup deadline; SDK requests get `timeoutMs`. A throw fails the server's start-up.
   */
  connected?(client: Client, server: FeatureServer, timeoutMs: number): Promise<void>;
}

/** The capabilities a set of features declares together. */
export function declaredCapabilities(features: readonly ClientFeature[]): ClientCapabilities {
  const declared: ClientCapabilities = {};
  for (const feature of features) Object.assign(declared, feature.capabilities ?? {});
  return declared;
}

/**
 * Runs each feature's {@link ClientFeature.connected} step in order; `phase` names the step in
 * progress, so a server that hangs or exits there is reported as doing so.
 */
export async function runConnected(
  features: readonly ClientFeature[],
  client: Client,
  server: FeatureServer,
  timeoutMs: () => number,
  phase: (name: string) => void,
): Promise<void> {
  for (const feature of features) {
    if (!feature.connected) continue;
    phase(`the ${feature.name} set-up`);
    await feature.connected(client, server, timeoutMs());
  }
}
