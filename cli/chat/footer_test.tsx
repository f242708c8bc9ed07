import assert from "node:assert/strict";
import { renderToString } from "ink";
import { Footer, type FooterProps } from "./footer.tsx";

function shown(props: Partial<FooterProps>, width = 100): string {
  return renderToString(
    <Footer
      model="deepseek-flash"
      access="confirm"
      contextPercent={42.4}
      tokens={{ input: 12_345, output: 678 }}
      notice={undefined}
      color={false}
      width={width}
      {...props}
    />,
    { columns: width },
  ).trimEnd();
}

Deno.test("the footer names the model, the access level, the context used and the tokens", () => {
  const line = shown({});
  assert.match(
    line,
    /^deepseek-flash · confirm · context 42% · tokens 12,345 in \/ 678 out +\/help for commands$/,
  );
  assert.equal(line.length, 100, "the hint sits at the right edge");
});

Deno.test("tokens the server did not report are said in words, never as ?", () => {
  assert.match(shown({ tokens: {} }), /· tokens not reported by the server /);
  assert.match(
    shown({ tokens: { input: 10 } }, 120),
    /· tokens 10 in \/ out not reported by the server /,
  );
  for (const tokens of [{}, { input: 1 }, { output: 1 }]) {
    assert.doesNotMatch(shown({ tokens, contextPercent: undefined }, 120), /\?/);
  }
});

Deno.test("a context not yet measured is left out", () => {
  assert.match(shown({ contextPercent: undefined }), /^deepseek-flash · confirm · tokens 12,345/);
});

Deno.test("a notice takes the place of the hint", () => {
  const line = shown({ notice: "press Ctrl-C again to exit" });
  assert.match(line, /678 out +press Ctrl-C again to exit$/);
  assert.doesNotMatch(line, /\/help/);
});

Deno.test("on a narrow terminal the status is cut and the notice stays whole", () => {
  const line = shown({ notice: "press Ctrl-C again to exit" }, 50);
  assert.equal(line, "deepseek-flash · conf…  press Ctrl-C again to exit");
});
