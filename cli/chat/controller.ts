/**
 * What the chat does with the person's input, apart from drawing it: runs turns one after the
 * other (a message sent while an answer streams is queued and sent when it ends), runs slash
 * commands, interrupts the turn in flight (Esc), and leaves on a second Ctrl-C within two
 * seconds, Ctrl-D or `/exit`. The Ink app calls it; tests drive it without a terminal.
 *
 * @module
 */
import type { Run } from "../../agent/run.ts";
import { type CommandContext, parseCommandLine, runSlashCommand } from "./slash_commands.ts";
import type { SessionRules } from "./session_rules.ts";
import type { RuleSaver } from "./rule_saver.ts";
import type { ChatStore } from "./store.ts";

/** A second Ctrl-C within this many milliseconds leaves hel. */
export const EXIT_WINDOW_MS = 2_000;

/** What the controller needs. */
export interface ChatControllerDeps {
  run: Run;
  store: ChatStore;
  rules: SessionRules;
  /** Saves "don't ask again" answers as rules in the settings files (u, p). */
  saver?: RuleSaver;
  /** A fresh signal per turn from the process's interrupts (SIGINT aborts it). */
  nextSignal(): AbortSignal;
  /** No turn is in flight any more. */
  idle(): void;
  /** Clears the screen (`/clear`). */
  clearScreen(): void;
  now?(): number;
}

/** See the module comment. */
export class ChatController {
  readonly #deps: ChatControllerDeps;
  #turn: AbortController | undefined;
  #working: Promise<void> | undefined;
  #lastCtrlC = -Infinity;
  #noticeTimer: ReturnType<typeof setTimeout> | undefined;
  #exited = false;
  readonly #exit = Promise.withResolvers<void>();

  constructor(deps: ChatControllerDeps) {
    this.#deps = deps;
  }

  /** Settles when the person leaves. */
  get exited(): Promise<void> {
    return this.#exit.promise;
  }

  /** True while a turn or command runs. */
  get busy(): boolean {
    return this.#working !== undefined;
  }

  /** The person sent `text` (Enter). */
  submit(text: string): void {
    if (this.#exited) return;
    if (this.busy) {
      if (text.trim() === "/exit") return this.exit();
      this.#deps.store.enqueue(text);
      return;
    }
    this.#working = this.#work(text).finally(() => this.#working = undefined);
  }

  /** Esc: interrupts the turn in flight; false when there was none. */
  interrupt(): boolean {
    if (!this.#turn || this.#turn.signal.aborted) return false;
    this.#turn.abort(new Error("interrupted"));
    return true;
  }

  /** Ctrl-C (the input box cleared itself): a second one within two seconds leaves. */
  ctrlC(): void {
    const now = this.#deps.now?.() ?? Date.now();
    if (now - this.#lastCtrlC <= EXIT_WINDOW_MS) return this.exit();
    this.#lastCtrlC = now;
    this.interrupt();
    this.#deps.store.setFooterNotice("press Ctrl-C again to exit");
    clearTimeout(this.#noticeTimer);
    this.#noticeTimer = setTimeout(() => {
      this.#deps.store.setFooterNotice(undefined);
    }, EXIT_WINDOW_MS);
  }

  /** Leaves: the turn in flight is interrupted; {@link exited} settles. */
  exit(): void {
    this.#exited = true;
    clearTimeout(this.#noticeTimer);
    this.#turn?.abort(new Error("interrupted"));
    this.#exit.resolve();
  }

  /** Waits until the turn in flight (interrupted on exit) has ended and been saved. */
  async settled(): Promise<void> {
    await this.#working;
  }

  async #work(first: string): Promise<void> {
    for (let text: string | undefined = first; text !== undefined && !this.#exited;) {
      // A command line is shown as typed; what it does is slash_commands.ts's. A message starts
      // its turn at once, so an Esc right after Enter finds it.
      if (parseCommandLine(text)) {
        this.#deps.store.add({ kind: "user", text: text.trim() });
        await runSlashCommand(text, this.commandContext());
      } else await this.#sendTurn(text);
      text = this.#deps.store.dequeue();
    }
  }

  async #sendTurn(text: string): Promise<void> {
    const { run, store } = this.#deps;
    store.beginTurn(text);
    await this.#interruptible(async (signal) => {
      store.endTurn(await run.turn(text, signal, store.streamListeners()));
    });
  }

  /** A command's model request (`/compact`): the spinner shows and Esc interrupts it. */
  async #request<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.#deps.store.setWorking(true);
    try {
      return await this.#interruptible(work);
    } finally {
      this.#deps.store.setWorking(false);
    }
  }

  /** Runs `work` with a signal that Esc, Ctrl-C, leaving and SIGINT abort. */
  async #interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.#turn = new AbortController();
    const signal = AbortSignal.any([this.#deps.nextSignal(), this.#turn.signal]);
    try {
      return await work(signal);
    } finally {
      this.#turn = undefined;
      this.#deps.idle();
    }
  }

  /** What slash commands may do in this chat. */
  commandContext(): CommandContext {
    const { run, rules, store, saver } = this.#deps;
    return {
      run,
      rules,
      ...(saver ? { savedRules: () => saver.saved() } : {}),
      print: (text) => store.notice(text, "plain"),
      pick: async (title, items) => {
        const index = await store.pick(title, items.map((item) => item.label));
        return index === undefined ? undefined : items[index]?.value;
      },
      send: (prompt) => this.#sendTurn(prompt),
      exit: () => this.exit(),
      clearScreen: () => this.#deps.clearScreen(),
      request: (work) => this.#request(work),
    };
  }
}
