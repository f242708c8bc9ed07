/**
 * What the chat asks the person, one of each at a time: a permission question (answered in the
 * permission box), a form question (an MCP server's elicitation, in the form box; a second one
 * waits for the first) and a list to pick from (`/resume`). Each is a promise the asker waits
 * on; the app draws the open one and settles it with the person's answer.
 *
 * @module
 */
import type { ApprovalRequest } from "../../core/permissions.ts";
import type { FormAnswer, FormQuestion } from "../../core/form.ts";
import { escapeControlCharacters, neutralise } from "../../core/neutralise.ts";
import type { PermissionAnswer } from "./permission_box.tsx";
import type { SaveFiles } from "./permission_layout.ts";

/** A permission question waiting for the person. */
export interface OpenQuestion {
  /** Tells questions apart: the box for a new one starts afresh, even right after another. */
  id: number;
  request: ApprovalRequest;
  /** The settings files the answer may save a rule in; none: not offered. */
  saveFiles?: SaveFiles;
  answer(answer: PermissionAnswer): void;
}

/** A form question waiting for the person; its texts are escaped where they are drawn. */
export interface OpenForm {
  id: number;
  question: FormQuestion;
  answer(answer: FormAnswer): void;
}

/** A list to pick from, waiting for the person. */
export interface OpenPicker {
  id: number;
  title: string;
  labels: readonly string[];
  /** The chosen index, or undefined (Esc). */
  choose(index: number | undefined): void;
}

/** See the module comment; `changed` is told whenever one opens or closes. */
export class Dialogs {
  question: OpenQuestion | undefined;
  picker: OpenPicker | undefined;
  form: OpenForm | undefined;
  readonly #changed: () => void;
  #nextId = 0;
  /** Settles when the form question open now (if any) is answered. */
  #formDone: Promise<unknown> = Promise.resolve();

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  /** Opens a permission question; a denial once `signal` aborts (Esc, leaving). */
  ask(
    request: ApprovalRequest,
    signal?: AbortSignal,
    saveFiles?: SaveFiles,
  ): Promise<PermissionAnswer> {
    if (signal?.aborted) return Promise.resolve({ approval: "denied" });
    return new Promise((resolve) => {
      const question: OpenQuestion = {
        id: this.#nextId++,
        request,
        ...(saveFiles ? { saveFiles } : {}),
        answer: (answer) => {
          if (this.question !== question) return;
          this.question = undefined;
          this.#changed();
          resolve(answer);
        },
      };
      this.question = question;
      signal?.addEventListener("abort", () => question.answer({ approval: "denied" }), {
        once: true,
      });
      this.#changed();
    });
  }

  /**
   * Opens a form question once the one open before it is answered; a cancel once `signal`
   * aborts (Ctrl-C, the call's end, leaving), whether it is open yet or still waiting.
   */
  askForm(question: FormQuestion, signal?: AbortSignal): Promise<FormAnswer> {
    const answered = this.#formDone.then(() => this.#openForm(question, signal));
    this.#formDone = answered;
    if (!signal) return answered;
    // While it waits its turn, an abort answers it at once (#openForm then never opens it).
    let onAbort = () => {};
    const aborted = new Promise<FormAnswer>((resolve) => {
      onAbort = () => resolve({ action: "cancel" });
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    return Promise.race([answered, aborted]).finally(() =>
      signal.removeEventListener("abort", onAbort)
    );
  }

  #openForm(question: FormQuestion, signal?: AbortSignal): Promise<FormAnswer> {
    if (signal?.aborted) return Promise.resolve({ action: "cancel" });
    return new Promise((resolve) => {
      const form: OpenForm = {
        id: this.#nextId++,
        question,
        answer: (answer) => {
          if (this.form !== form) return;
          this.form = undefined;
          signal?.removeEventListener("abort", onAbort);
          this.#changed();
          resolve(answer);
        },
      };
      const onAbort = () => form.answer({ action: "cancel" });
      this.form = form;
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#changed();
    });
  }

  /** Opens a picker of `labels` (outside text: shown neutralised); the chosen index. */
  pick(title: string, labels: readonly string[]): Promise<number | undefined> {
    return new Promise((resolve) => {
      const picker: OpenPicker = {
        id: this.#nextId++,
        title: neutralise(title),
        labels: labels.map((label) => escapeControlCharacters(label)),
        choose: (index) => {
          if (this.picker !== picker) return;
          this.picker = undefined;
          this.#changed();
          resolve(index);
        },
      };
      this.picker = picker;
      this.#changed();
    });
  }
}
