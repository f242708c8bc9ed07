/**
 * Inline markdown (emphasis, code, links, breaks) as styled runs. Without colour the layout
 * still reads: inline code keeps its backticks, links show `text (url)` either way.
 *
 * @module
 */
import type { Token, Tokens } from "marked";
import { type Span, withStyle } from "./styled_text.ts";

/** SGR parameters of the inline styles. */
export const INLINE_STYLES = {
  strong: "1",
  em: "3",
  del: "9",
  code: "36",
  link: "4;34",
  url: "2",
} as const;

const ENTITIES: Readonly<Record<string, string>> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&apos;": "'",
  "&#39;": "'",
  "&nbsp;": "\u00a0",
};

/** The few named entities people write in prose; numeric ones stay as written. */
function decodeEntities(text: string): string {
  return text.includes("&")
    ? text.replace(/&(?:amp|lt|gt|quot|apos|#39|nbsp);/g, (entity) => ENTITIES[entity]!)
    : text;
}

/** How a link's address is shown after its text, when it adds something. */
function linkTarget(href: string, shown: string): string | undefined {
  if (href === "" || href === shown || href === `mailto:${shown}`) return undefined;
  return href;
}

function plainText(tokens: readonly Token[]): string {
  return tokens.map((token) =>
    "tokens" in token && token.tokens ? plainText(token.tokens) : "text" in token ? token.text : ""
  ).join("");
}

/** The runs of inline `tokens`, each in `style` plus its own. */
export function inlineSpans(tokens: readonly Token[], color: boolean, style = ""): Span[] {
  const spans: Span[] = [];
  const push = (text: string, own = "") => {
    if (text !== "") spans.push({ text, style: withStyle(style, own) });
  };
  const nest = (inner: readonly Token[], own: string) => {
    spans.push(...inlineSpans(inner, color, withStyle(style, own)));
  };
  for (const token of tokens) {
    switch (token.type) {
      case "text":
        if ("tokens" in token && token.tokens) nest(token.tokens, "");
        else push(decodeEntities(token.text).replaceAll("\n", " "));
        break;
      case "escape":
        push(token.text);
        break;
      case "strong":
      case "em":
      case "del":
        nest((token as Tokens.Strong).tokens, INLINE_STYLES[token.type]);
        break;
      case "codespan":
        push(color ? token.text : `\`${token.text}\``, INLINE_STYLES.code);
        break;
      case "br":
        push("\n");
        break;
      case "link": {
        const link = token as Tokens.Link;
        nest(link.tokens, INLINE_STYLES.link);
        const target = linkTarget(link.href, plainText(link.tokens));
        if (target) push(` (${target})`, INLINE_STYLES.url);
        break;
      }
      case "image": {
        const image = token as Tokens.Image;
        push(`[image${image.text ? `: ${image.text}` : ""}]`, INLINE_STYLES.link);
        if (image.href) push(` (${image.href})`, INLINE_STYLES.url);
        break;
      }
      case "html":
        // A line break written as HTML is a break; any other tag stays as it was written.
        push(/^<br\s*\/?>$/i.test(token.text) ? "\n" : token.text);
        break;
      case "checkbox":
        break;
      default:
        push("text" in token && typeof token.text === "string" ? token.text : token.raw);
    }
  }
  return spans;
}
