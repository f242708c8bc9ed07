/**
 * The part of highlight.js that hel uses. Its own declarations reference the DOM library,
 * which would change the types of Deno's own streams for every file of hel.
 *
 * @module
 */
declare const hljs: {
  /** The language of that name or alias, if it is registered. */
  getLanguage(name: string): object | undefined;
  /** `code` as HTML: the text escaped, each scope in a `<span class="hljs-…">`. */
  highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): {
    value: string;
  };
};
export default hljs;
