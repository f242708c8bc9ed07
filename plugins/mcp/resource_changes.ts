/**
 * Each server's resources as last listed, and what changed since the model was last told: a
 * server that announces `notifications/resources/list_changed` is listed again, and the next
 * request's note names the resources that came and went (by URI).
 *
 * @module
 */
import { oneLine, resourceLine } from "./resource_text.ts";
import { isRecord } from "../../core/mod.ts";

/** One server's resource changes since the model was last told. */
export interface ResourceChanges {
  server: string;
  /** Listing lines of the new resources. */
  added: string[];
  /** URIs of the resources that went. */
  removed: string[];
  /** True when the earlier list is unknown (listing it failed): only "it changed" is known. */
  unknown: boolean;
}

type Listing = Map<string, string>;

/** See the module comment. */
export class ResourceLists {
  #told = new Map<string, Listing | undefined>();
  #now = new Map<string, Listing | undefined>();
  #changed = new Set<string>();

  /** A server's list, listed now (`undefined`: listing failed, so unknown). */
  set(server: string, items: readonly unknown[] | undefined): void {
    const listing = items === undefined ? undefined : byUri(items);
    if (!this.#now.has(server)) this.#told.set(server, listing);
    else this.#changed.add(server);
    this.#now.set(server, listing);
  }

  /** The model has just been told everything (a system message built now). */
  told(): void {
    this.#told = new Map(this.#now);
    this.#changed.clear();
  }

  /** The changes since the model was last told, and marks them told. */
  changes(): ResourceChanges[] {
    const found: ResourceChanges[] = [];
    for (const server of [...this.#changed].sort()) {
      const before = this.#told.get(server);
      const now = this.#now.get(server);
      this.#told.set(server, now);
      if (before === undefined || now === undefined) {
        found.push({ server, added: [], removed: [], unknown: true });
        continue;
      }
      const added = [...now].filter(([uri]) => !before.has(uri)).map(([, line]) => line);
      const removed = [...before.keys()].filter((uri) => !now.has(uri));
      if (added.length + removed.length > 0) {
        found.push({ server, added, removed, unknown: false });
      }
    }
    this.#changed.clear();
    return found;
  }
}

function byUri(items: readonly unknown[]): Listing {
  const listing: Listing = new Map();
  for (const item of items) {
    const line = resourceLine(item, "uri");
    // Keyed by the URI on one line: removed ones are listed to the model by their key.
    if (line !== undefined && isRecord(item)) listing.set(oneLine(String(item.uri)), line);
  }
  return listing;
}
