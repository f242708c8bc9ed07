/**
 * The roots capability: hel offers the project folder as the one root a server may work in
 * (`roots/list`), so a server made for roots-aware clients — server-filesystem started without
 * directory arguments — works in the project. The list never changes during a run, so hel does
 * not declare `listChanged`.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ClientFeature } from "./client_features.ts";
import { powerOfTen } from "./rate_limit.ts";

/** `file://` URL of an absolute path, each segment percent-encoded (`%`, `#`, `?` included). */
export function fileUri(path: string): string {
  return `file://${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** The roots feature for a run in `project` (an absolute path). */
export function rootsFeature(project: string): ClientFeature {
  const name = project.split("/").filter((part) => part !== "").at(-1) ?? "/";
  const roots = [{ uri: fileUri(project), name }];
  return {
    name: "roots",
    capabilities: { roots: {} },
    install(client, server) {
      let asked = 0;
      client.setRequestHandler(ListRootsRequestSchema, () => {
        // A server may ask on every call; one trace entry per power of ten is enough.
        if (powerOfTen(++asked)) {
          server.trace({ event: "roots", server: server.config.name, roots, count: asked });
        }
        return { roots };
      });
    },
  };
}
