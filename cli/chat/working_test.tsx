import assert from "node:assert/strict";
import { renderToString } from "ink";
import { formatElapsed, FRAME_MS, SPINNER_FRAMES, Working } from "./working.tsx";

const shown = (props: Partial<Parameters<typeof Working>[0]>, columns = 80) =>
  renderToString(
    <Working startedAt={1_000} now={13_500} outputTokens={undefined} color={false} {...props} />,
    { columns },
  );

Deno.test("the waiting line shows a spinner, the time waited and how to interrupt", () => {
  // 12.5 s is frame 156 of 80 ms, the seventh of ten.
  assert.equal(shown({}), `${SPINNER_FRAMES[6]} Working… 12s · esc to interrupt`);
});

Deno.test("the waiting line counts the answer's tokens once they are known", () => {
  assert.equal(
    shown({ outputTokens: 1234 }),
    `${SPINNER_FRAMES[6]} Working… 12s · ↓ 1,234 tokens · esc to interrupt`,
  );
  assert.match(shown({ outputTokens: 1 }), / ↓ 1 token · /);
});

Deno.test("the spinner turns as time passes", () => {
  const frames = [0, 1, 2, 3].map((step) =>
    shown({ startedAt: 0, now: step * FRAME_MS }).slice(0, 1)
  );
  assert.deepEqual(frames, SPINNER_FRAMES.slice(0, 4));
});

Deno.test("a wait reads as seconds, then minutes and seconds, then hours and minutes", () => {
  assert.deepEqual(
    [0, 999, 12_400, 60_000, 65_000, 3_599_000, 3_780_000].map(formatElapsed),
    ["0s", "0s", "12s", "1m 00s", "1m 05s", "59m 59s", "1h 03m"],
  );
  assert.match(shown({ startedAt: 0, now: 65_000 }), /Working… 1m 05s ·/);
});

Deno.test("a narrow terminal cuts the waiting line instead of wrapping it", () => {
  const line = shown({ outputTokens: 1234 }, 20);
  assert.equal(line.split("\n").length, 1);
  assert.ok(line.endsWith("…"), line);
});
