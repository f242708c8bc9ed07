/**
 * The error path of URL-mode elicitation: a server answers a `tools/call` with "URL elicitation
 * required" (-32042), its `data.elicitations` listing web pages the person must open before the
 * call can succeed (a sign-in, a payment). hel shows each page exactly as a URL-mode question
 * (elicitation.ts: the same screen, escaping, host line and warnings, never opened by hel), one
 * after the other, and when the person says each is done (or the server sends
 * `notifications/elicitation/complete` for it) sends the call once more. A decline, a cancel,
 * no terminal or a request hel refuses fails the call with a text for the model.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { FormAnswer, FormQuestion } from "../../core/mod.ts";
import type { CallRecovery, FailedCall } from "./call_recovery.ts";
import type { FeatureServer } from "./client_features.ts";
import { cutText } from "./elicitation_form.ts";
import { linkOf } from "./elicitation_link.ts";

/** Characters of a server's message shown; the rest is cut. */
export const MAX_MESSAGE = 4_000;
/** Pages one error may ask for; a server asking for more is refused, not asked. */
export const MAX_PAGES = 3;
/** Characters of an elicitationId at most (it only names the question, for the server). */
const MAX_ID = 1_000;

/** How a question to the person ended. */
export type Asked =
  | { answer: FormAnswer; callEnded: boolean }
  /** The server said the page was completed (`notifications/elicitation/complete`). */
  | { completed: true }
  /** Not asked: no one to ask, or no call of the server in flight. */
  | { unasked: string }
  /** Not asked: too many of the server's questions were waiting. */
  | { refused: string };

/** How the elicitation feature asks the person one of a server's questions. */
export interface Asker {
  /**
   * Asks `question` in its turn among all servers' questions, while the server's calls'
   * timeouts are held; a URL question's `elicitationId` lets the server close it as done.
   */
  ask(question: FormQuestion, signal: AbortSignal, elicitationId?: string): Promise<Asked>;
  /** Tells the person (within the feature's limit on warnings) why a question was refused. */
  refuse(problem: string): void;
}

/** One page of a -32042 error, checked. */
interface Page {
  elicitationId: string;
  question: FormQuestion;
}

/**
 * What to do about a failed call: undefined when `error` is not -32042; else the person is
 * asked to open the pages, and the call is sent again when every one is done.
 */
export async function pagesRequired(
  error: unknown,
  call: FailedCall,
  server: FeatureServer,
  asker: Asker,
): Promise<CallRecovery | undefined> {
  if (!(error instanceof McpError) || error.code !== ErrorCode.UrlElicitationRequired) {
    return undefined;
  }
  const name = server.config.name;
  const started = Date.now();
  const trace = (action: string, data: Record<string, unknown> = {}) =>
    server.trace({
      event: "elicitation",
      server: name,
      mode: "url",
      path: "error",
      tool: call.tool,
      action,
      ms: Date.now() - started,
      ...data,
    });
  const fail = (action: string, why: string, next: string): CallRecovery => {
    trace(action, { reason: why });
    return { retry: false, text: failureText(name, call.tool, why, next) };
  };
  const notAgain = `Do not call ${call.tool} again unless the user asks you to.`;
  if (call.retried) {
    return fail(
      "refused",
      "the person said the pages were done and hel sent the call again, but the server " +
        "asked again; hel sends a call again only once",
      notAgain,
    );
  }
  const pages = pagesOf(error.data, name);
  if (typeof pages === "string") {
    asker.refuse(pages);
    return fail("refused", `hel refused the request: ${pages}`, notAgain);
  }
  for (const page of pages) {
    const asked = await asker.ask(page.question, call.signal, page.elicitationId);
    if ("completed" in asked) continue;
    if ("refused" in asked) {
      asker.refuse(asked.refused);
      return fail("refused", `hel refused the request: ${asked.refused}`, notAgain);
    }
    if ("unasked" in asked) {
      return fail(
        "decline",
        "there is no terminal to ask the user on",
        "Tell the user this server needs them to open a page in a browser, which hel can " +
          "ask them to do only when run on a terminal.",
      );
    }
    if (asked.answer.action !== "accept") {
      const what = asked.answer.action === "decline" ? "declined to open" : "cancelled";
      return fail(asked.answer.action, `the user ${what} it`, notAgain);
    }
  }
  trace("accept", { pages: pages.length });
  return { retry: true };
}

/**
 * The model's text for a call the pages were not done for. The pages' addresses and the
 * server's messages are left out on purpose: they are the server's text, meant for the person
 * and their browser (a sign-in, a payment), and in the model's context they would be a way for
 * a hostile server to steer it — to fetch an address with a tool, or to pass it on as hel's
 * own advice. The person has seen them on their terminal.
 */
function failureText(server: string, tool: string, why: string, next: string): string {
  return `MCP server ${server} needs the user to open a page in a web browser before ${tool} ` +
    `can run (it answered "URL elicitation required", -32042), and hel could not get that ` +
    `done: ${why}. The server did not carry out the call. ${next}`;
}

/**
 * The pages of a -32042 error's `data`, checked before any is shown (a list refused half-way
 * would have the person open pages for nothing), or hel's words for what is wrong with them.
 */
function pagesOf(data: unknown, server: string): Page[] | string {
  const list = (data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list) || list.length === 0) {
    return "its URL-elicitation-required error has no pages to open (data.elicitations)";
  }
  if (list.length > MAX_PAGES) {
    return `it asked for ${list.length} pages at once; hel shows at most ${MAX_PAGES}`;
  }
  const pages: Page[] = [];
  const ids = new Set<string>();
  for (const [index, entry] of list.entries()) {
    const { mode, elicitationId: id, url, message } = (entry ?? {}) as Record<string, unknown>;
    if (
      mode !== "url" || typeof id !== "string" || typeof url !== "string" ||
      typeof message !== "string"
    ) {
      return `page ${index + 1} of its list is not a URL elicitation (mode "url", ` +
        "elicitationId, url and message)";
    }
    if (id === "" || id.length > MAX_ID || ids.has(id)) {
      return `page ${index + 1} of its list has an empty, overlong or repeated elicitationId`;
    }
    ids.add(id);
    const built = linkOf(url);
    if (!built.ok) return built.problem;
    pages.push({
      elicitationId: id,
      question: {
        asker: `MCP server ${server}`,
        message: cutText(message, MAX_MESSAGE),
        fields: [],
        link: built.link,
      },
    });
  }
  return pages;
}
