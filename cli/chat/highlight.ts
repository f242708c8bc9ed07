/**
 * Syntax highlighting of code blocks with highlight.js (its 36 common languages, by name or
 * alias: `ts`, `py`, `sh`, ...), turned into styled runs with hel's own mapping of its scopes
 * to the terminal's 16 colours, so the terminal's theme decides the actual shades.
 *
 * @module
 */
// Its own declarations would bring the DOM library into every file (see highlight_js.d.ts).
// @ts-types="./highlight_js.d.ts"
import hljs from "highlight.js/lib/common";
import type { Line, Span } from "./styled_text.ts";

/** Code longer than this is shown plain: highlighting is for reading, not worth a stall. */
const MAX_HIGHLIGHTED_CHARS = 20_000;

/** SGR parameters per highlight.js scope (the most specific listed scope applies). */
const SCOPE_STYLES: Readonly<Record<string, string>> = {
  keyword: "35",
  "variable.language": "35",
  "template-tag": "35",
  "template-variable": "35",
  "selector-tag": "35",
  built_in: "36",
  type: "36",
  attr: "36",
  attribute: "36",
  property: "36",
  literal: "34",
  title: "34",
  "title.class": "33",
  tag: "34",
  name: "34",
  section: "1;34",
  number: "33",
  symbol: "33",
  bullet: "33",
  "char.escape": "33",
  "selector-class": "33",
  "selector-id": "33",
  string: "32",
  addition: "32",
  regexp: "31",
  deletion: "31",
  comment: "2",
  doctag: "2",
  meta: "2",
  quote: "2",
  link: "4",
  emphasis: "3",
  strong: "1",
};

/** Highlighted code: its lines, and for each whether no construct is left open at its end. */
export interface Highlighted {
  lines: Line[];
  /** `closedAfter[i]`: line `i` ends outside every string, comment or other construct. */
  closedAfter: boolean[];
}

/** Whether `language` (a code block's info word) names a language hel highlights. */
export function knowsLanguage(language: string | undefined): boolean {
  return language !== undefined && language !== "" &&
    hljs.getLanguage(language.toLowerCase()) !== undefined;
}

/** `code` as plain lines, every one of them closed. */
function plain(code: string): Highlighted {
  const lines = code.split("\n").map((text): Line => text === "" ? [] : [{ text, style: "" }]);
  return { lines, closedAfter: lines.map(() => true) };
}

/** The style of a span's class attribute (`hljs-title function_` is `title.function`). */
function styleOfClass(classes: string): string {
  const [first, ...rest] = classes.split(" ");
  if (!first?.startsWith("hljs-")) return "";
  const parts = [first.slice(5), ...rest.map((part) => part.replace(/_+$/, ""))];
  for (let length = parts.length; length > 0; length--) {
    const style = SCOPE_STYLES[parts.slice(0, length).join(".")];
    if (style !== undefined) return style;
  }
  return "";
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#x27;": "'",
};

/**
 * `code` highlighted as `language`, or plain when the language is unknown, the code too long or
 * the highlighter fails. The code must be neutralised already: highlight.js only adds its spans
 * around it, which are read back here and never reach the terminal.
 */
export function highlightCode(code: string, language: string | undefined): Highlighted {
  if (!knowsLanguage(language) || code.length > MAX_HIGHLIGHTED_CHARS) return plain(code);
  let html: string;
  try {
    html = hljs.highlight(code, { language: language!.toLowerCase(), ignoreIllegals: true }).value;
  } catch {
    return plain(code);
  }
  const lines: Line[] = [[]];
  const closedAfter: boolean[] = [];
  const stack: string[] = [];
  const add = (text: string) => {
    const style = stack.findLast((entry) => entry !== "") ?? "";
    const parts = text.split("\n");
    parts.forEach((part, index) => {
      if (index > 0) {
        closedAfter.push(stack.length === 0);
        lines.push([]);
      }
      if (part !== "") lines.at(-1)!.push({ text: part, style } satisfies Span);
    });
  };
  for (const match of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    if (match[1] !== undefined) stack.push(styleOfClass(match[1]));
    else if (match[0] === "</span>") stack.pop();
    else add(match[0].replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity]!));
  }
  closedAfter.push(true);
  return { lines, closedAfter };
}
