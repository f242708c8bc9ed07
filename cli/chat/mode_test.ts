import assert from "node:assert/strict";
import { chatMode, colorWanted, type TerminalFacts } from "./mode.ts";

const terminal: TerminalFacts = {
  stdinIsTerminal: true,
  stdoutIsTerminal: true,
  term: "xterm-256color",
  size: { columns: 100, rows: 30 },
};

Deno.test("a person at a terminal big enough gets the Ink chat", () => {
  assert.equal(chatMode(terminal), "ink");
  assert.equal(chatMode({ ...terminal, size: { columns: 40, rows: 10 } }), "ink");
});

Deno.test("TERM=dumb, a small terminal or no terminal gets the plain line chat", () => {
  assert.equal(chatMode({ ...terminal, term: "dumb" }), "plain");
  assert.equal(chatMode({ ...terminal, size: { columns: 39, rows: 30 } }), "plain");
  assert.equal(chatMode({ ...terminal, size: { columns: 100, rows: 9 } }), "plain");
  assert.equal(chatMode({ ...terminal, size: { columns: 0, rows: 0 } }), "plain");
  assert.equal(chatMode({ ...terminal, size: undefined }), "plain");
  assert.equal(chatMode({ ...terminal, stdinIsTerminal: false }), "plain");
  assert.equal(chatMode({ ...terminal, stdoutIsTerminal: false }), "plain");
});

Deno.test("NO_COLOR with any value and TERM=dumb turn colour off", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.equal(colorWanted(env({ TERM: "xterm" })), true);
  assert.equal(colorWanted(env({ TERM: "xterm", NO_COLOR: "1" })), false);
  assert.equal(colorWanted(env({ TERM: "xterm", NO_COLOR: "" })), true);
  assert.equal(colorWanted(env({ TERM: "dumb" })), false);
});
