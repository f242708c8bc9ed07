/**
 * List changes: a server that adds, removes or changes tools, resources or prompts during a
 * run says so with `notifications/{tools,resources,prompts}/list_changed`. This feature hears
 * them on every server's client — even from a server that did not declare `listChanged`, as
 * Gemini CLI does, since some server frameworks leave it out — and hands them to the run's
 * refresher (refresh_scheduler.ts), which re-lists the server. It declares no capability: the
 * client has none to declare for this. It also keeps each server's client, for the requests
 * hel makes besides tool calls (server_requests.ts).
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ClientFeature } from "./client_features.ts";
import { powerOfTen } from "./rate_limit.ts";

/** What a list change is about. */
export type ListKind = "tools" | "resources" | "prompts";

/** The feature, with the clients it was installed on. */
export interface ListChanges extends ClientFeature {
  /** Each server's client, by server name. */
  readonly clients: ReadonlyMap<string, Client>;
  /**
   * From now on, each change is handed to `listener` (the last one set). Changes heard before
   * the first listener are handed to it at once, one per server and kind: a server may change
   * its lists while hel is still starting (server-everything adds tools once initialized).
   */
  listen(listener: (server: string, kind: ListKind) => void): void;
}

/** Creates the feature. */
export function listChanges(): ListChanges {
  const clients = new Map<string, Client>();
  let listener: ((server: string, kind: ListKind) => void) | undefined;
  const early = new Map<string, [string, ListKind]>();
  return {
    name: "list-changes",
    clients,
    listen(given) {
      listener = given;
      for (const [server, kind] of early.values()) given(server, kind);
      early.clear();
    },
    install(client, { config, trace }) {
      clients.set(config.name, client);
      const counts = new Map<ListKind, number>();
      const heard = (kind: ListKind) => () => {
        // A server could send thousands: the trace keeps the 1st, 10th, 100th, ... with a count.
        const count = (counts.get(kind) ?? 0) + 1;
        counts.set(kind, count);
        if (powerOfTen(count)) {
          trace({ event: "list_changed", server: config.name, kind, count });
        }
        if (listener) listener(config.name, kind);
        else early.set(`${kind} ${config.name}`, [config.name, kind]);
        return Promise.resolve();
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, heard("tools"));
      client.setNotificationHandler(ResourceListChangedNotificationSchema, heard("resources"));
      client.setNotificationHandler(PromptListChangedNotificationSchema, heard("prompts"));
    },
  };
}
