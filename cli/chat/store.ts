/**
 * The chat's state: the transcript (finished items, printed once into the scrollback by Ink's
 * `<Static>`), the live part (the answer being streamed, reasoning, running tools, whether a
 * request is in flight), queued messages and the open question or picker. It is fed by run
 * events, the streamed text and reasoning of a turn, and the person's messages.
 *
 * Everything from outside hel (model text, tool output, server text, arguments) is neutralised
 * as it enters (here, in live_calls.ts and dialogs.ts), so the components draw only safe text
 * and add hel's own styling.
 *
 * Cost per streamed piece is constant in the transcript's size: a piece goes to the markdown
 * stream, which re-renders only the block still open; settled blocks become transcript items.
 *
 * @module
 */
import type { HelEvent } from "../../core/events.ts";
import type { LoopOutcome } from "../../core/loop.ts";
import type { StreamListeners } from "../../core/model.ts";
import type { ApprovalRequest } from "../../core/permissions.ts";
import { escapeControlCharacters, neutralise } from "../../core/neutralise.ts";
import { MarkdownStream } from "./markdown.ts";
import { retryText } from "../retry_line.ts";
import { LiveCalls } from "./live_calls.ts";
import { Dialogs, type OpenForm, type OpenPicker, type OpenQuestion } from "./dialogs.ts";
import type { FormAnswer, FormQuestion } from "../../core/form.ts";
import type { ToolActivityState } from "./tool_activity.tsx";
import type { PermissionAnswer } from "./permission_box.tsx";
import type { SaveFiles } from "./permission_layout.ts";
import {
  type ExpandableItem,
  type KeyedItem,
  type NoticeTone,
  Transcript,
  type TranscriptItem,
} from "./transcript.ts";

export type { TranscriptItem } from "./transcript.ts";
export type { OpenForm, OpenPicker, OpenQuestion } from "./dialogs.ts";

/** What the app draws; a new object whenever something changed. */
export interface ChatSnapshot {
  transcript: { generation: number; items: readonly KeyedItem[] };
  /** The rendering of the answer's block still open. */
  liveAnswer: string;
  /** Nothing of this answer is in the transcript yet: the chat sets the live part off. */
  liveAnswerFirst: boolean;
  /** Reasoning streamed in the current request, before its answer starts. */
  liveReasoning: string;
  /** Calls running now. */
  tools: readonly ToolActivityState[];
  /**
   * Set while a turn runs; `retry` while a failed model request waits for its next attempt
   * (`<cause>; retry 2 of 4 in 2 s`, neutralised), shown in place on the working line.
   */
  busy: { startedAt: number; streamedChars: number; retry?: string } | undefined;
  queued: readonly string[];
  question: OpenQuestion | undefined;
  picker: OpenPicker | undefined;
  /** A form question (an MCP server's elicitation) waiting for the person. */
  form: OpenForm | undefined;
  /** Live tools and reasoning shown whole (ctrl+o). */
  expanded: boolean;
  /** A short-lived line for the footer ("press Ctrl-C again to exit"). */
  footerNotice: string | undefined;
}

/** Options of {@link ChatStore}. */
export interface ChatStoreOptions {
  /** Columns to render markdown for. */
  width(): number;
  color: boolean;
  now?(): number;
  /** Milliseconds to gather changes before telling subscribers; 0 tells at once. */
  notifyDelayMs?: number;
}

/** The chat's state; see the module comment. */
export class ChatStore {
  readonly #options: ChatStoreOptions;
  readonly #transcript = new Transcript();
  readonly #listeners = new Set<() => void>();
  #snapshot: ChatSnapshot | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stream: MarkdownStream | undefined;
  /** A `\r` that ended a piece: it may begin a `\r\n` split across two pieces. */
  #heldReturn = "";
  #reasoning = "";
  readonly #calls = new LiveCalls();
  #busy: ChatSnapshot["busy"];
  #queued: string[] = [];
  readonly #dialogs = new Dialogs(() => this.#changed());
  #expanded = false;
  #footerNotice: string | undefined;
  /** Whether the answer being streamed has a piece in the transcript. */
  #answerShown = false;
  /** Whether the current turn streamed any answer text. */
  #streamedText = false;

  constructor(options: ChatStoreOptions) {
    this.#options = options;
  }

  /** For React's `useSyncExternalStore`. */
  subscribe = (listener: () => void): () => void => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The current state (the same object until something changes). */
  snapshot = (): ChatSnapshot => {
    return this.#snapshot ??= {
      transcript: this.#transcript.view(),
      liveAnswer: this.#stream?.live() ?? "",
      liveAnswerFirst: !this.#answerShown,
      liveReasoning: this.#reasoning,
      tools: this.#calls.list(),
      busy: this.#busy && { ...this.#busy },
      queued: [...this.#queued],
      question: this.#dialogs.question,
      picker: this.#dialogs.picker,
      form: this.#dialogs.form,
      expanded: this.#expanded,
      footerNotice: this.#footerNotice,
    };
  };

  /** The app printed the transcript's items up to `count` of `generation`. */
  printed(generation: number, count: number): void {
    this.#transcript.printed(generation, count);
  }

  /** Adds a finished item to the transcript. */
  add(item: TranscriptItem): void {
    this.#transcript.add(item);
    this.#changed();
  }

  /** A line of hel's own (or a command's) in the transcript; its text is neutralised. */
  notice(text: string, tone: NoticeTone = "info"): void {
    this.add({ kind: "notice", text: neutralise(text), tone });
  }

  /** Starts a turn: the person's message in the transcript, the spinner on. */
  beginTurn(text: string): void {
    this.#settleAnswer();
    this.add({ kind: "user", text: neutralise(text) });
    this.#busy = { startedAt: this.#now(), streamedChars: 0 };
    this.#streamedText = false;
    this.#changed();
  }

  /** Shows or hides the spinner for work that is no turn (a command's model request). */
  setWorking(working: boolean): void {
    this.#busy = working ? { startedAt: this.#now(), streamedChars: 0 } : undefined;
    this.#changed();
  }

  /** The listeners to give `run.turn`. */
  streamListeners(): StreamListeners {
    return {
      onText: (delta) => this.#onText(delta),
      onReasoning: (delta) => {
        this.#count(delta);
        this.#reasoning += neutralise(delta);
        this.#changed();
      },
    };
  }

  /** Ends a turn: the rest of the answer settles, and a turn that did not complete says why. */
  endTurn(outcome: LoopOutcome): void {
    // Not streamed (--no-stream): the whole answer arrives at the end.
    if (!this.#streamedText && outcome.finalText) this.#onText(outcome.finalText);
    this.#settleAnswer();
    for (const call of this.#calls.abandon()) this.add({ kind: "tool", call });
    if (outcome.termination === "interrupted") this.notice("interrupted", "warning");
    else if (outcome.termination !== "completed") {
      this.notice(`hel: ${outcome.error ?? outcome.termination}`, "error");
    }
    this.#busy = undefined;
    this.#changed();
  }

  /** A run event: tools starting, printing and ending; warnings; retries; rules' decisions. */
  onEvent(event: HelEvent): void {
    if (event.type === "tool_start") {
      this.#settleAnswer();
      this.#calls.start(event);
    } else if (event.type === "tool_output") {
      if (!this.#calls.output(event)) return;
    } else if (event.type === "tool_call") {
      this.#settleAnswer();
      this.add({ kind: "tool", call: this.#calls.end(event) });
    } else if (event.type === "warning") {
      this.notice(`hel: warning: ${escapeControlCharacters(event.text)}`, "warning");
    } else if (event.type === "retry") {
      // One line rewritten per retry, as on a plain terminal; the turn's end says the cause.
      if (!this.#busy) return;
      this.#busy.retry = neutralise(retryText(event)).replace(/\n/g, " ");
    } else if (event.type === "model_exchange" && event.response !== undefined) {
      if (!this.#busy?.retry) return;
      delete this.#busy.retry;
    } else if (event.type === "permission" && event.byRule && event.byRule.effect !== "ask") {
      // What the person's rules decided without asking (an asked call shows its rule in the box).
      const named = event.byRule.rules.map((rule) => `${rule.rule} in ${rule.source}`).join(", ");
      const what = event.byRule.effect === "allow" ? "allowed without asking" : "refused";
      this.notice(escapeControlCharacters(`${event.name}: ${what} by the rule ${named}`));
    } else return;
    this.#changed();
  }

  /**
   * Opens a permission question; resolves with the person's answer, or a denial once `signal`
   * aborts (Esc, exit).
   */
  ask(
    request: ApprovalRequest,
    signal?: AbortSignal,
    saveFiles?: SaveFiles,
  ): Promise<PermissionAnswer> {
    this.#settleAnswer();
    return this.#dialogs.ask(request, signal, saveFiles);
  }

  /** Opens a form question (after any open one); a cancel once `signal` aborts. */
  askForm(question: FormQuestion, signal?: AbortSignal): Promise<FormAnswer> {
    this.#settleAnswer();
    return this.#dialogs.askForm(question, signal);
  }

  /** Opens a picker; resolves with the chosen index, or undefined. */
  pick(title: string, labels: readonly string[]): Promise<number | undefined> {
    return this.#dialogs.pick(title, labels);
  }

  /** Queues a message typed while a turn runs; the transcript says so. */
  enqueue(text: string): void {
    this.#queued.push(text);
    const first = text.split("\n")[0]!;
    this.notice(`queued, sent when this answer ends: ${first}${first === text ? "" : " …"}`);
  }

  /** The next queued message, taken off the queue. */
  dequeue(): string | undefined {
    const next = this.#queued.shift();
    if (next !== undefined) this.#changed();
    return next;
  }

  /** Sets or clears the footer's notice. */
  setFooterNotice(text: string | undefined): void {
    this.#footerNotice = text;
    this.#changed();
  }

  /** Toggles whole live output (ctrl+o); returns the new setting. */
  toggleExpanded(): boolean {
    this.#expanded = !this.#expanded;
    this.#changed();
    return this.#expanded;
  }

  /** The transcript's last tool call or reasoning, for showing it whole. */
  lastExpandable(): ExpandableItem | undefined {
    return this.#transcript.lastExpandable();
  }

  #onText(delta: string): void {
    this.#count(delta);
    this.#streamedText = true;
    if (this.#reasoning !== "") this.#settleReasoning();
    if (!this.#stream) this.#answerShown = false;
    this.#stream ??= new MarkdownStream({
      width: this.#options.width(),
      color: this.#options.color,
    });
    const text = this.#heldReturn + delta;
    this.#heldReturn = text.endsWith("\r") ? "\r" : "";
    this.#stream.push(neutralise(this.#heldReturn ? text.slice(0, -1) : text));
    for (const block of this.#stream.takeSettled()) {
      this.#addAnswer(block);
    }
    this.#changed();
  }

  #addAnswer(text: string): void {
    this.#transcript.add({ kind: "answer", text, first: !this.#answerShown });
    this.#answerShown = true;
  }

  #settleReasoning(): void {
    if (this.#reasoning === "") return;
    this.#transcript.add({ kind: "reasoning", text: this.#reasoning });
    this.#reasoning = "";
  }

  #settleAnswer(): void {
    this.#settleReasoning();
    if (this.#stream === undefined) return;
    if (this.#heldReturn) this.#stream.push(neutralise(this.#heldReturn));
    this.#heldReturn = "";
    for (const block of this.#stream.finish()) {
      this.#addAnswer(block);
    }
    this.#stream = undefined;
    this.#changed();
  }

  #count(delta: string): void {
    if (!this.#busy) return;
    this.#busy.streamedChars += delta.length;
    delete this.#busy.retry; // an attempt is answering
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  #changed(): void {
    this.#snapshot = undefined;
    const delay = this.#options.notifyDelayMs ?? 0;
    if (delay === 0) return this.#notify();
    this.#timer ??= setTimeout(() => this.#notify(), delay);
  }

  #notify(): void {
    this.#timer = undefined;
    for (const listener of [...this.#listeners]) listener();
  }

  /** Stops a pending notification (the app is closing). */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
