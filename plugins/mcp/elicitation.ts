/**
 * Elicitation: a server asks the person something during one of its tool calls — a form
 * (`requestedSchema`) or a web page to open (URL mode) — and gets back the answer, a decline or
 * a cancel. The question goes to the person through the front end (`PluginContext.askForm`:
 * line by line on a plain terminal, a box in the chat), never to the model. Without anyone to
 * ask (no terminal, a script) hel declines. The question belongs to the server's call in
 * flight: while it is open the call's timeout is held, and when the call ends (Ctrl-C, Esc,
 * its maximum) the question is cancelled. A server asking with no call of its own in flight is
 * declined. Questions are asked one at a time; a server may have one more waiting, and a form
 * too large or impossible to answer is refused with the reason. A call the server answers
 * "URL elicitation required" (-32042) is the same URL question asked from the error
 * (elicitation_required.ts), then sent again once.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import {
  type FormAnswer,
  type FormField,
  type FormQuestion,
  type PluginContext,
  z,
} from "../../core/mod.ts";
import type { ClientFeature } from "./client_features.ts";
import { answerContent, cutText, formFields } from "./elicitation_form.ts";
import { linkOf } from "./elicitation_link.ts";
import { type Asker, MAX_MESSAGE, pagesRequired } from "./elicitation_required.ts";

/**
 * The request as the handler is registered for it: any params. Registered with the SDK's own
 * schema, a malformed request would fail before the SDK's check and reach the server as an
 * internal error (-32603) with a dump of the parser's issues; this way the SDK's check answers
 * it as invalid params (-32602), as the spec asks.
 */
const LOOSE_REQUEST = z.object({
  method: z.literal("elicitation/create"),
  params: z.record(z.string(), z.unknown()),
});

/** Questions of one server open or waiting at once; more are refused. */
const MAX_WAITING = 2;
/** Warnings about one server's questions shown to the person; the rest go to the trace. */
const MAX_WARNINGS = 3;
/** Times a form is asked again after an answer that does not fit (a front end's miss). */
const MAX_RETRIES = 2;

/** What the feature needs of hel: the person, and a line for them when no one could answer. */
export interface ElicitationHost {
  askForm?: PluginContext["askForm"];
  warn(text: string): void;
}

/** The elicitation feature: form and URL mode, asked of the person through `host`. */
export function elicitation(host: ElicitationHost): ClientFeature {
  // One question at a time, whichever server asks: a person answers one thing at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const untold = new Set<string>();
  // A server flooding hel with bad questions must not flood the person's screen too.
  const warned = new Map<string, number>();
  const warn = (server: string, text: string) => {
    const count = warned.get(server) ?? 0;
    if (count >= MAX_WARNINGS) return;
    warned.set(server, count + 1);
    host.warn(
      count + 1 === MAX_WARNINGS ? `${text} (further ones are only in the MCP trace)` : text,
    );
  };
  const tellNoOne = (server: string) => {
    if (untold.has(server)) return;
    untold.add(server);
    host.warn(
      `MCP server ${server} asked you a question and hel declined it: ` +
        "there is no terminal to ask on",
    );
  };
  return {
    name: "elicitation",
    capabilities: { elicitation: { form: {}, url: {} } },
    install(client, server) {
      const name = server.config.name;
      const waiting = { count: 0 };
      // URL questions open, by elicitationId: `notifications/elicitation/complete` closes them.
      const links = new Map<string, AbortController>();
      const asker: Asker = {
        async ask(question, signal, elicitationId) {
          if (waiting.count >= MAX_WAITING) {
            return { refused: `it asked again while ${MAX_WAITING} of its questions were waiting` };
          }
          const hold = server.calls.hold();
          // Asked outside any call of its own: nobody is expecting it, so nobody is asked.
          if (!hold) return { unasked: "no call of the server in flight" };
          const link = elicitationId === undefined ? undefined : new AbortController();
          if (link) links.set(elicitationId!, link);
          waiting.count++;
          const all = AbortSignal.any([signal, hold.signal, ...(link ? [link.signal] : [])]);
          const turn = queue.then(() => ask(host, question, all));
          queue = turn.catch(() => {});
          // A question still waiting its turn is over as soon as its call is.
          const over = new Promise<FormAnswer>((resolve) =>
            all.addEventListener("abort", () => resolve({ action: "cancel" }), { once: true })
          );
          try {
            const answer = await Promise.race([turn, over]);
            if (link?.signal.aborted) return { completed: true };
            if (answer === undefined) {
              tellNoOne(name);
              return { unasked: "no one to ask" };
            }
            return { answer, callEnded: hold.signal.aborted };
          } finally {
            waiting.count--;
            hold.release();
            if (link && links.get(elicitationId!) === link) links.delete(elicitationId!);
          }
        },
        refuse: (problem) =>
          warn(name, `MCP server ${name} asked you a question hel refused: ${problem}`),
      };
      client.setRequestHandler(LOOSE_REQUEST, async (loose, extra) => {
        const started = Date.now();
        // The SDK's wrapper has checked it against its schema by now.
        const params = ElicitRequestSchema.parse(loose).params;
        const mode = params.mode === "url" ? "url" : "form";
        const trace = (action: string, extraData: Record<string, unknown> = {}) =>
          server.trace({
            event: "elicitation",
            server: name,
            mode,
            action,
            ms: Date.now() - started,
            ...extraData,
          });
        const refuse = (problem: string): never => {
          trace("refused", { reason: problem });
          asker.refuse(problem);
          // A plain error with the code: an McpError's message would say "MCP error" twice.
          throw Object.assign(new Error(`hel refused the question: ${problem}`), {
            code: ErrorCode.InvalidParams,
          });
        };
        if (params.task) refuse("hel does not run elicitations as tasks");
        const built = params.mode === "url"
          ? linkOf(params.url)
          : formFields(params.requestedSchema as Parameters<typeof formFields>[0]);
        if (!built.ok) return refuse(built.problem);
        const question: FormQuestion = {
          asker: `MCP server ${name}`,
          message: cutText(params.message, MAX_MESSAGE),
          fields: "fields" in built ? built.fields : [],
          ...("link" in built ? { link: built.link } : {}),
        };
        const id = params.mode === "url" ? params.elicitationId : undefined;
        const asked = await asker.ask(question, extra.signal, id);
        if ("refused" in asked) return refuse(asked.refused);
        if ("unasked" in asked) {
          trace("decline", { reason: asked.unasked });
          return { action: "decline" };
        }
        if ("completed" in asked) {
          trace("accept", { reason: "the server said the page was completed" });
          return { action: "accept" };
        }
        const answer = asked.answer;
        trace(answer.action, {
          fields: question.fields.length,
          ...(asked.callEnded ? { reason: "the call it was asked for ended" } : {}),
        });
        if (answer.action !== "accept") return { action: answer.action };
        return mode === "url" ? { action: "accept" } : { action: "accept", content: answer.values };
      });
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
        // Unknown or finished ids are ignored, as the spec says.
        links.get(notification.params.elicitationId)?.abort(new Error("completed"));
      });
      return { callFailed: (error, call) => pagesRequired(error, call, server, asker) };
    },
  };
}

/**
 * Asks `question` until the answer fits its fields (the front end checked each field, so a
 * second round is rare); undefined when no one can answer.
 */
async function ask(
  host: ElicitationHost,
  question: FormQuestion,
  signal: AbortSignal,
): Promise<FormAnswer | undefined> {
  if (!host.askForm) return undefined;
  let asked = question;
  for (let round = 0; round <= MAX_RETRIES; round++) {
    const answer = await host.askForm(asked, signal);
    if (answer?.action !== "accept" || question.link) return answer;
    const checked = answerContent(question.fields as FormField[], answer.values);
    if ("content" in checked) return { action: "accept", values: checked.content };
    asked = { ...question, problem: checked.problem };
  }
  return { action: "cancel" };
}
