/**
 * The regular-expression engine ajv uses for the `pattern` and `patternProperties` of schemas
 * hel did not write (MCP tools' input and output schemas). Such a schema is a server's text,
 * and so is the value checked against an output schema: with JavaScript's backtracking engine
 * a server could answer `{"pattern": "^(a+)+$"}` and `"aaaa…a!"` and keep hel's one thread
 * busy for hours (30 characters take seconds, every one more doubles it), with no timer,
 * Ctrl-C or timeout able to run. RE2 (re2js, pure JavaScript) matches in linear time, as ajv's
 * own documentation advises for untrusted schemas.
 *
 * RE2 has no lookaround or back-references: a pattern using them cannot be checked in bounded
 * time, so it is not checked at all (every string passes it) — the server still checks its
 * own input, and an output pattern is a hint of the server's about its own text.
 *
 * @module
 */
import type { RE2JS as Re2 } from "re2js";

/** What ajv calls on a compiled pattern. */
export interface LinearRegExp {
  test(text: string): boolean;
  /** ajv keys compiled patterns by this text, so it must differ between patterns. */
  toString(): string;
}

/**
 * JavaScript's `\uXXXX` and `\u{X}` escapes as RE2's `\x{X}`; other escapes (and an escaped
 * backslash before a `u`) stay as they are.
 */
function re2Syntax(pattern: string): string {
  return pattern.replace(
    /\\(\\|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4}))/g,
    (whole, _: string, braced?: string, four?: string) =>
      braced ?? four ? `\\x{${braced ?? four}}` : whole,
  );
}

/** ajv's `code.regExp`: `pattern` compiled by RE2, or a check that passes everything. */
export type LinearRegExpEngine = ((pattern: string, flags: string) => LinearRegExp) & {
  code: string;
};

let engine: Promise<LinearRegExpEngine> | undefined;

/**
 * The engine, with re2js loaded the first time (with ajv, when a schema is first checked:
 * every other start of hel does without it).
 */
export function loadLinearRegExp(): Promise<LinearRegExpEngine> {
  return engine ??= import("re2js").then(({ RE2JS }) => engineOf(RE2JS));
}

function engineOf(re2: typeof Re2): LinearRegExpEngine {
  return Object.assign(
    (pattern: string, _flags: string): LinearRegExp => {
      const shown = `/${pattern}/ (RE2)`;
      try {
        const compiled = re2.compile(re2Syntax(pattern));
        return { test: (text: string) => compiled.test(text), toString: () => shown };
      } catch {
        return { test: () => true, toString: () => `${shown} unchecked` };
      }
    },
    // Used only by ajv's standalone code generation, which hel does not use.
    { code: "linearRegExp" },
  );
}
