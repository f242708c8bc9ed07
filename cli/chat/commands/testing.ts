/**
 * For tests of the slash commands: a {@link CommandContext} that records what a command did
 * (printed, sent, picked, left) instead of drawing it. Holds no tests.
 *
 * @module
 */
import type { ApprovalScope } from "../../../core/permissions.ts";
import type { Run } from "../../../agent/run.ts";
import type { CommandContext } from "../slash_commands.ts";
import { SessionRules } from "../session_rules.ts";

/** What the fake chat saw a command do. */
export interface FakeChat {
  context: CommandContext;
  printed: string[];
  sent: string[];
  /** Each picker shown: its title and labels. */
  picks: { title: string; labels: string[] }[];
  exited: boolean;
  cleared: number;
  /** Requests run through `context.request`. */
  requests: number;
  /** Everything printed, one string. */
  screen(): string;
}

/** A fake chat over `run`; its picker answers with `choose` (the first item by default). */
export function fakeChat(
  run: Run,
  options: {
    rules?: ApprovalScope[];
    choose?: (labels: string[]) => number | undefined;
    keys?: readonly (readonly [string, string])[];
  } = {},
): FakeChat {
  const rules = new SessionRules();
  for (const scope of options.rules ?? []) rules.add(scope);
  const chat: FakeChat = {
    printed: [],
    sent: [],
    picks: [],
    exited: false,
    cleared: 0,
    requests: 0,
    screen: () => chat.printed.join("\n"),
    context: {
      run,
      rules,
      print: (text) => void chat.printed.push(text),
      pick(title, items) {
        const labels = items.map((item) => item.label);
        chat.picks.push({ title, labels });
        const index = (options.choose ?? (() => 0))(labels);
        return Promise.resolve(index === undefined ? undefined : items[index]?.value);
      },
      send: (prompt) => Promise.resolve(void chat.sent.push(prompt)),
      exit: () => void (chat.exited = true),
      clearScreen: () => void chat.cleared++,
      request(work) {
        chat.requests++;
        return work(new AbortController().signal);
      },
      ...(options.keys ? { keys: options.keys } : {}),
    },
  };
  return chat;
}
