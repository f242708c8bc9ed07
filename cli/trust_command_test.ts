import assert from "node:assert/strict";
import type { PluginContext } from "../core/plugin.ts";
import type { TrustedConfig, TrustRecord, TrustSummary } from "../core/trust.ts";
import { UsageError } from "../core/usage_error.ts";
import { type ConfigReaders, runTrustCommand } from "./trust_command.ts";

const HOOKS: TrustedConfig = { kind: "hooks", subject: "hook configuration" };
const MCP: TrustedConfig = { kind: "mcp", subject: "MCP configuration" };
const NOTES: TrustedConfig = { kind: "notes", subject: "notes configuration" };
const SUMMARY: TrustSummary = {
  noun: { one: "note taker", many: "note takers" },
  entries: [{ label: "taker", command: "notes", envNames: [], sandbox: true }],
};

/** A project with `.hel/<name>` files, an in-memory trust store and one scripted answer. */
async function project(files: Record<string, string>, answer?: string) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-trust-" }));
  await Deno.mkdir(`${root}/.hel`);
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${root}/.hel/${name}`, text);
  }
  const records: TrustRecord[] = [];
  const questions: string[] = [];
  const context: PluginContext = {
    project: root,
    helHome: `${root}/home`,
    flags: {},
    log: { warn: () => {}, info: () => {} },
    interactive: true,
    ask(question) {
      questions.push(question);
      return Promise.resolve(answer);
    },
    trust: {
      isTrusted: (kind, project) =>
        Promise.resolve(records.some((r) => r.kind === kind && r.project === project)),
      record(kind, project) {
        records.push({ kind, project, sha256: "-", trustedAt: "-" });
        return Promise.resolve();
      },
      revoke: () => Promise.resolve(false),
      list: () => Promise.resolve(records),
    },
    childEnv: () => ({}),
  };
  const err: string[] = [];
  const output = { out: () => {}, err: (text: string) => err.push(text) };
  return {
    context,
    records,
    questions,
    err,
    output,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

const readers = (configs: TrustedConfig[]): ConfigReaders => ({
  configs,
  check: () => undefined,
  summarize: (kind) => kind === "notes" ? SUMMARY : undefined,
});

Deno.test("hel trust reviews any kind a plugin declares, asking in that plugin's words", async () => {
  await using p = await project({ "notes.json": "{}" }, "y");
  const code = await runTrustCommand("notes", {}, p.context, p.output, readers([HOOKS, NOTES]));
  assert.equal(code, 0, p.err.join(""));
  assert.ok(p.questions[0]!.endsWith("Trust this project's notes configuration? [y/N] "));
  assert.match(p.questions[0]!, /runs 1 note taker/);
  assert.deepEqual(p.records.map((r) => r.kind), ["notes"]);
});

Deno.test("hel trust names the kinds the plugins declare when one is unknown or missing", async () => {
  await using p = await project({});
  const run = (kind: string | undefined, configs: TrustedConfig[]) =>
    runTrustCommand(kind, {}, p.context, p.output, readers(configs));
  await assert.rejects(
    () => run("skills", [HOOKS, MCP, NOTES]),
    new UsageError('hel trust: unknown kind "skills"; use hooks, mcp or notes'),
  );
  await assert.rejects(
    () => run(undefined, [HOOKS, MCP]),
    new UsageError(
      "hel trust needs exactly one of: a kind (hooks or mcp), --list, or --revoke KIND",
    ),
  );
  await assert.rejects(
    () => run("hooks", []),
    new UsageError(
      'hel trust: unknown kind "hooks"; no plugin of this build reads a trusted configuration',
    ),
  );
});
