/**
 * The arguments typed after a prompt's command, `/mcp__srv__prompt Boston MA` or
 * `/mcp__srv__prompt state=MA city="New York"`: words (quotes keep spaces), `name=value` for a
 * named argument, the others filling the prompt's remaining arguments in order, the words
 * beyond them joined into the last one. Also which argument the last word is, for completion.
 *
 * @module
 */

/** An argument a prompt declares. */
export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

interface Word {
  text: string;
  /** Where the word starts in the typed text. */
  start: number;
}

/** Splits `text` into words; `"..."` and `'...'` keep their spaces and lose the quotes. */
export function words(text: string): Word[] {
  const found: Word[] = [];
  const pattern = /"([^"]*)"?|'([^']*)'?|([^\s"']+)/g;
  let current: Word | undefined;
  let end = -1;
  for (const match of text.matchAll(pattern)) {
    const piece = match[1] ?? match[2] ?? match[3] ?? "";
    // Pieces that touch (name="New York") are one word.
    if (current && match.index === end) current.text += piece;
    else found.push(current = { text: piece, start: match.index });
    end = match.index + match[0].length;
  }
  return found;
}

/** The values `text` gives the arguments, or what is wrong with it, for the person. */
export function parseArguments(
  text: string,
  declared: readonly PromptArgument[],
): { ok: true; values: Record<string, string> } | { ok: false; error: string } {
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of words(text)) {
    const named = namedValue(word.text, declared);
    if (named) values[named.argument.name] = named.value;
    else positional.push(word.text);
  }
  const free = declared.filter((argument) => !(argument.name in values));
  if (positional.length > 0 && free.length === 0) {
    return { ok: false, error: `too many arguments: ${usage(declared) || "it takes none"}` };
  }
  positional.forEach((value, index) => {
    const argument = free[Math.min(index, free.length - 1)]!;
    values[argument.name] = index < free.length ? value : `${values[argument.name]} ${value}`;
  });
  const missing = declared.filter((argument) => argument.required && !(argument.name in values));
  if (missing.length > 0) {
    return {
      ok: false,
      error: `missing ${missing.map((argument) => argument.name).join(", ")}: ${usage(declared)}`,
    };
  }
  return { ok: true, values };
}

/** `<city> [state]`: required arguments in angle brackets, optional ones in square ones. */
export function usage(declared: readonly PromptArgument[]): string {
  return declared.map((argument) => argument.required ? `<${argument.name}>` : `[${argument.name}]`)
    .join(" ");
}

/**
 * The argument the last word of `text` fills and what is typed of it (empty after a space),
 * the values of the arguments before it (the context a server's completion may use), and
 * where that word starts; undefined when no argument is left to fill.
 */
export function argumentAt(text: string, declared: readonly PromptArgument[]):
  | {
    argument: PromptArgument;
    typed: string;
    /** Where the word being completed starts in `text` (its `name=` kept). */
    start: number;
    prefix: string;
    before: Record<string, string>;
  }
  | undefined {
  const all = words(text);
  const open = text === "" || /\s$/.test(text);
  const last = open ? { text: "", start: text.length } : all.pop()!;
  const before: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of all) {
    const named = namedValue(word.text, declared);
    if (named) before[named.argument.name] = named.value;
    else positional.push(word.text);
  }
  const free = declared.filter((argument) => !(argument.name in before));
  positional.forEach((value, index) => {
    const argument = free[index];
    if (argument) before[argument.name] = value;
  });
  const named = namedValue(last.text, declared);
  if (named) {
    return {
      argument: named.argument,
      typed: named.value,
      start: last.start,
      prefix: `${named.argument.name}=`,
      before,
    };
  }
  const argument = free[positional.length];
  if (!argument) return undefined;
  return { argument, typed: last.text, start: last.start, prefix: "", before };
}

/** `name=value` for a declared argument `name`; undefined for any other word. */
function namedValue(
  word: string,
  declared: readonly PromptArgument[],
): { argument: PromptArgument; value: string } | undefined {
  const found = /^([^=\s]+)=([\s\S]*)$/.exec(word);
  const argument = found && declared.find((item) => item.name === found[1]);
  return argument ? { argument, value: found![2]! } : undefined;
}

/** A value as it is typed back: quoted when it holds a space or a quote. */
export function typedValue(value: string): string {
  if (!/[\s"']/.test(value) && value !== "") return value;
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}
