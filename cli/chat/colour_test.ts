import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

/** Each component rendered with colour on and off, on a terminal that has colour. */
async function renderedOnAColourTerminal(): Promise<Record<string, { on: string; off: string }>> {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-env",
        "--allow-read",
        `--allow-write=${file}`,
        "cli/chat/_colour_probe.tsx",
        file,
      ],
      cwd: root,
      env: { FORCE_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    return JSON.parse(await Deno.readTextFile(file));
  } finally {
    await Deno.remove(file);
  }
}

const ESC = "\x1b";
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

Deno.test("colour styles the live activity without changing its text, and off means no escape at all", async () => {
  const rendered = await renderedOnAColourTerminal();
  for (const [name, { on, off }] of Object.entries(rendered)) {
    assert.ok(!off.includes(ESC), `${name} without colour: ${JSON.stringify(off)}`);
    assert.ok(on.includes(ESC), `${name} with colour: ${JSON.stringify(on)}`);
    assert.equal(on.replace(SGR, ""), off, `${name}: colour changes only the style`);
  }
  const { working, failed, declined, reasoning, footer } = rendered;
  const styled = (text: string, code: number, what: string) =>
    assert.ok(text.includes(`${ESC}[${code}m${what}`), `${what}: ${JSON.stringify(text)}`);
  styled(working!.on, 2, " 2s · ↓ 12 tokens · esc to interrupt"); // dim details
  styled(failed!.on, 31, "✗"); // a failure is red
  styled(declined!.on, 2, "⊘"); // a declined call is dim...
  assert.ok(!declined!.on.includes(`${ESC}[31m`), "...and not drawn as a failure");
  styled(reasoning!.on, 2, `${ESC}[3m✻ thinking`); // reasoning is dim
  styled(footer!.on, 33, "press Ctrl-C again to exit"); // a notice stands out
});
