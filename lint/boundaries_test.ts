import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import denoJson from "../deno.json" with { type: "json" };

const RULES = fileURLToPath(new URL("./boundaries.ts", import.meta.url));

/** Source text of `count` lines. */
function lines(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const a${i} = ${i};\n`).join("");
}

/** A small tree laid out like hel's, linted with a copy of the rules: files by relative path. */
async function lintTree(files: Record<string, string>, only?: string) {
  const root = await Deno.makeTempDir({ prefix: "hel-lint-" });
  const tree: Record<string, string> = {
    "deno.json": JSON.stringify({
      imports: { zod: "npm:zod@4.6.7" },
      lint: { plugins: ["./lint/boundaries.ts"] },
    }),
    "lint/boundaries.ts": await Deno.readTextFile(RULES),
    "core/mod.ts": 'export { loop } from "./loop.ts";\n',
    "core/loop.ts": "export const loop = 1;\n",
    "kit/mod.ts": "export const kit = 1;\n",
    "agent/run.ts": 'import { loop } from "../core/loop.ts";\nexport const run = loop;\n',
    "plugins/other/mod.ts": "export const other = 1;\n",
    ...files,
  };
  for (const [path, text] of Object.entries(tree)) {
    await Deno.mkdir(join(root, dirname(path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["lint", ...(only ? [only] : [])],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(root, { recursive: true });
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, text: decode(output.stdout) + decode(output.stderr) };
}

/** Asserts the lint failed on `file` with exactly one problem: `rule`, `message`, `hint`. */
function assertOneProblem(
  result: { code: number; text: string },
  file: string,
  rule: string,
  message: RegExp,
  hint: RegExp,
) {
  assert.equal(result.code, 1, result.text);
  assert.match(result.text, new RegExp(`^error\\[boundaries/${rule}\\]: ${message.source}`, "m"));
  assert.match(result.text, new RegExp(`--> \\S*/${file}:\\d+:\\d+`));
  assert.match(result.text, new RegExp(`hint: ${hint.source}`));
  assert.match(result.text, /Found 1 problem/);
}

Deno.test("deno.json runs the boundary rules with deno lint (and so in deno task ci)", () => {
  assert.deepEqual(denoJson.lint.plugins, ["./lint/boundaries.ts"]);
  assert.match(denoJson.tasks.ci, /deno lint/);
});

Deno.test("a tree within the boundaries lints clean: entry points, own files, npm: and node:", async () => {
  const result = await lintTree({
    "plugins/demo/mod.ts": 'import type { loop } from "../../core/mod.ts";\n' +
      'import { kit } from "../../kit/mod.ts";\nimport { own } from "./own.ts";\n' +
      'import { join } from "node:path";\nimport "zod";\n' +
      "export type Loop = typeof loop;\nexport const all = [kit, own, join];\n",
    "plugins/demo/own.ts": 'export { kit as own } from "../../kit/mod.ts";\n',
    "core/text.ts": 'import { loop } from "./loop.ts";\nimport "node:path";\n' +
      "export const text = loop;\n",
    "core/text_test.ts": 'import assert from "node:assert/strict";\nimport { test } from ' +
      '"node:test";\ntest("x", () => assert.ok(true));\n',
    "agent/long.ts": lines(450),
  });
  assert.equal(result.code, 0, result.text);
});

Deno.test("a plugin importing hel's internals fails the lint, naming the rule and the fix", async () => {
  const hint =
    /Import it from core\/mod\.ts or kit\/mod\.ts \(export it there if plugins share it\), or move the code into this plugin's folder\./;
  const cases: [string, RegExp][] = [
    ["../../agent/run.ts", /agent\/run\.ts \("\.\.\/\.\.\/agent\/run\.ts"\)/],
    ["../../core/loop.ts", /core\/loop\.ts/],
    ["../other/mod.ts", /plugins\/other\/mod\.ts/],
  ];
  for (const [specifier, named] of cases) {
    const result = await lintTree(
      { "plugins/demo/mod.ts": `export * from "${specifier}";\n` },
      "plugins/demo/mod.ts",
    );
    assertOneProblem(
      result,
      "plugins/demo/mod.ts",
      "plugin-imports",
      new RegExp(
        `a plugin imports from hel only core/mod\\.ts and kit/mod\\.ts, not ${named.source}`,
      ),
      hint,
    );
  }
  // A type-only import and a dynamic import count as well.
  for (
    const line of [
      'import type { run as _run } from "../../agent/run.ts";',
      'await import("../../agent/run.ts");',
    ]
  ) {
    const result = await lintTree(
      { "plugins/demo/mod.ts": `${line}\nexport {};\n` },
      "plugins/demo/mod.ts",
    );
    assertOneProblem(result, "plugins/demo/mod.ts", "plugin-imports", /.*agent\/run\.ts.*/, hint);
  }
});

Deno.test("core/ importing outside itself or Node's I/O modules fails the lint", async () => {
  const outside = await lintTree(
    { "core/x.ts": 'export { kit } from "../kit/mod.ts";\n' },
    "core/x.ts",
  );
  assertOneProblem(
    outside,
    "core/x.ts",
    "core-imports",
    /core\/ imports nothing outside core\/, not kit\/mod\.ts \("\.\.\/kit\/mod\.ts"\)/,
    /Move the code into core\/, or let agent\/ \(which assembles the run\) pass it in/,
  );
  const io = await lintTree({ "core/x.ts": 'import "node:fs";\nexport {};\n' }, "core/x.ts");
  assertOneProblem(
    io,
    "core/x.ts",
    "core-imports",
    /core\/ does no I\/O, so it does not import node:fs/,
    /Do the I\/O in agent\/ or kit\/ and pass the result in; core\/ may use node:assert, /,
  );
});

Deno.test("core/ naming a Deno API fails the lint, in source and in tests alike", async () => {
  const files = {
    "core/x.ts": "export const read = () => Deno.readTextFile('a');\n",
    "core/x_test.ts": 'Deno.test("x", () => {});\n',
    "core/y.ts": "const { env } = Deno;\nexport const home = env.get('HOME');\n",
    "core/z.ts":
      "export function f(e: unknown) {\n  return e instanceof Deno.errors.NotFound;\n}\n",
  };
  for (const file of Object.keys(files)) {
    const result = await lintTree(files, file);
    assertOneProblem(
      result,
      file,
      "core-no-deno",
      /core\/ calls no Deno API: the kernel does no I\/O and runs anywhere/,
      /Do the I\/O in agent\/ or kit\/ and pass the result or a function in; core tests use test\(\) from "node:test"/,
    );
  }
  // A property or key that happens to be called Deno is not the global.
  const keys = await lintTree({
    "core/w.ts": "const o = { Deno: 1 };\nexport const v = o.Deno;\n",
  }, "core/w.ts");
  assert.equal(keys.code, 0, keys.text);
});

Deno.test("a source file over 450 lines fails the lint, wherever it is", async () => {
  for (const file of ["agent/long.ts", "tests/long_test.ts"]) {
    const result = await lintTree({ [file]: lines(451) }, file);
    assertOneProblem(
      result,
      file,
      "max-lines",
      new RegExp(
        `${file.replace(".", "\\.")} has 451 lines; no source file may have more than 450`,
      ),
      /Split it by concern into files well under 300 lines\./,
    );
  }
});
