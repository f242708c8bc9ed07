/**
 * What one hook call adds to a tool call. The same hel run — `read_file` calls in a row — is
 * made three ways: without hooks, with a PreToolUse hook `true` outside the sandbox
 * (`"sandbox": false`, how every hook ran before), and with the same hook in the sandbox (the
 * default). A call's time is the gap between the model request that asked for it and the next
 * one; the first call of each run warms up (the sandbox's first use checks bubblewrap and
 * looks for nested `.hel` folders) and is left out.
 *
 * @module
 */
import { createTrustFileStore } from "../kit/mod.ts";
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { expectConsumed, type PlainTurn, timedModel } from "./scripted.ts";
import { gaps, median, repeat } from "./stats.ts";

/** Per-call figures (medians, ms). */
export interface HookOverhead {
  runs: number;
  callsPerRun: number;
  /** `read_file` with no hook. */
  noHookMs: number;
  /** `read_file` with one PreToolUse hook run outside the sandbox. */
  unsandboxedMs: number;
  /** `read_file` with the same hook run in the sandbox. */
  sandboxedMs: number;
}

type Mode = "none" | "outside" | "sandboxed";

async function oneRun(hel: HelCommand, mode: Mode, calls: number): Promise<number[]> {
  await using project = await benchProject({ "a.txt": "a\n" });
  if (mode !== "none") {
    const handler = {
      type: "command",
      command: "true",
      ...mode === "outside" ? { sandbox: false } : {},
    };
    const hooks = { hooks: { PreToolUse: [{ matcher: "^read_file$", hooks: [handler] }] } };
    await Deno.mkdir(`${project.project}/.hel`);
    await Deno.writeTextFile(`${project.project}/.hel/hooks.json`, JSON.stringify(hooks));
    const store = createTrustFileStore(project.home, (message) => {
      throw new Error(message);
    });
    await store.record(
      "hooks",
      project.project,
      await Deno.readFile(`${project.project}/.hel/hooks.json`),
    );
  }
  const script: PlainTurn[] = [
    ...Array.from({ length: calls }, () => ({
      toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }],
    })),
    { text: "Done." },
  ];
  await using model = timedModel(script);
  const turns = ["--max-turns", String(script.length)];
  const run = await runTimed(hel, [...modelArgs(model.url), ...turns, "read a.txt"], {
    cwd: project.project,
    home: project.home,
  });
  expectExit(run, 0, `hook run (${mode})`);
  expectConsumed(model, `hook run (${mode})`);
  if (mode !== "none" && /hook 1 error/.test(run.stderr)) {
    throw new Error(`the hook failed (${mode}): ${run.stderr}`);
  }
  return gaps(model.arrivals.map((arrival) => arrival.at)).slice(1);
}

/** Measures `runs` hel runs of `calls` calls for each way. */
export async function hookOverhead(
  hel: HelCommand,
  runs: number,
  calls = 15,
): Promise<HookOverhead> {
  const of = async (mode: Mode) =>
    median((await repeat(runs, () => oneRun(hel, mode, calls))).flat());
  return {
    runs,
    callsPerRun: calls,
    noHookMs: await of("none"),
    unsandboxedMs: await of("outside"),
    sandboxedMs: await of("sandboxed"),
  };
}
