/**
 * What hel keeps of one server's tool listing. A listing may run to 100 pages of up to
 * `maxMessageBytes` (64 MiB) each, so a hostile or broken server could otherwise fill hel's
 * memory before the run begins. Tools are taken one at a time, each page as it arrives; once the
 * kept tools reach {@link MAX_KEPT_TOOLS} or {@link MAX_KEPT_CHARS}, the rest of that page is
 * counted and dropped and no further page is asked for. What was kept stays usable, and the
 * listing ({@link ToolListing}) carries the cut beside its tools for the person's warning.
 *
 * The bounds: the bench runs 10,000 tools on one server, and the largest real servers list a
 * few hundred, so 25,000 tools leave room without inviting abuse. The tools of the real servers
 * in fixtures/mcp/catalogue average 1.3 K characters of JSON each (the largest 5.9 K), so
 * 25,000 ordinary tools take about 33 Mi characters; 64 Mi characters is twice that, and about
 * what one message at the default `maxMessageBytes` holds, so a listing never keeps more than
 * one largest message's worth besides the page being read.
 *
 * @module
 */
import { groupDigits } from "../../core/mod.ts";
import type { ListedTool } from "./catalog.ts";

/** Tools kept of one server's listing at most. */
export const MAX_KEPT_TOOLS = 25_000;
/** Characters of the kept tools' JSON (names, descriptions, schemas) and cursors at most. */
export const MAX_KEPT_CHARS = 64 * 1024 * 1024;

/** A listing hel stopped short: what it kept and what it left out. */
export interface ListingCut {
  kept: number;
  keptChars: number;
  /** Tools received but not kept (the rest of the page the budget ran out on). */
  leftOut: number;
  /** Whether the server had more pages, which were not asked for. */
  morePages: boolean;
  /** The bound that was reached. */
  bound: "tools" | "characters";
}

/** One server's tool listing as hel keeps it. */
export interface ToolListing {
  tools: ListedTool[];
  /** How hel stopped the listing short; absent when it is whole. */
  cut?: ListingCut;
}

/** The person's warning that hel cut `server`'s tool listing as `cut` says. */
export function listingCutText(server: string, cut: ListingCut): string {
  const bound = cut.bound === "tools"
    ? `${groupDigits(MAX_KEPT_TOOLS)} tools`
    : `${groupDigits(MAX_KEPT_CHARS)} characters of tool definitions`;
  const leftOut = [
    ...(cut.leftOut > 0 ? [`${groupDigits(cut.leftOut)} more of the page it was reading`] : []),
    ...(cut.morePages ? ["its further pages, which hel did not ask for"] : []),
  ].join(" and ");
  return `MCP server ${server} listed more tools than hel keeps of one server (${bound}): ` +
    `hel kept the first ${groupDigits(cut.kept)} (${groupDigits(cut.keptChars)} characters) ` +
    `and left out ${leftOut}. Use a server that lists fewer tools, or one per area you need`;
}

/** Collects one listing under the budget; see the module comment. */
export class KeptTools {
  readonly #tools: ListedTool[] = [];
  #chars = 0;
  #leftOut = 0;
  #bound: ListingCut["bound"] | undefined;

  /** Takes one listed tool; false once the budget is spent (the listing should stop). */
  take(tool: ListedTool): boolean {
    if (this.#bound === undefined) {
      const size = JSON.stringify(tool)?.length ?? 0;
      if (this.#tools.length >= MAX_KEPT_TOOLS) this.#bound = "tools";
      else if (this.#chars + size > MAX_KEPT_CHARS) this.#bound = "characters";
      else {
        this.#tools.push(tool);
        this.#chars += size;
        return true;
      }
    }
    this.#leftOut++;
    return false;
  }

  /**
   * Counts `chars` the listing holds besides its tools (the cursors kept to catch a repeated
   * one, which a server could make megabytes long) against the character budget.
   */
  charge(chars: number): void {
    this.#chars += chars;
    if (this.#chars > MAX_KEPT_CHARS) this.#bound ??= "characters";
  }

  /** Whether no further page should be asked for. */
  get full(): boolean {
    return this.#bound !== undefined || this.#tools.length >= MAX_KEPT_TOOLS;
  }

  /** The kept tools, with the cut when `morePages` or something was left out. */
  finish(morePages: boolean): ToolListing {
    const tools = this.#tools;
    if (morePages && tools.length >= MAX_KEPT_TOOLS) this.#bound ??= "tools";
    if (this.#bound === undefined) return { tools };
    const cut = {
      kept: tools.length,
      keptChars: this.#chars,
      leftOut: this.#leftOut,
      morePages,
      bound: this.#bound,
    };
    return { tools, cut };
  }
}
