/**
 * Shared set-up of the glob and grep tests: a workspace with ripgrep behind the sandbox (when
 * bubblewrap exists; otherwise unsandboxed, so the search behaviour is still tested).
 *
 * @module
 */
import type { SearchDeps } from "./ripgrep.ts";
import { createSandbox } from "../../../kit/mod.ts";
import { hasBwrap, testWorkspace } from "../testing.ts";

/** A test workspace and the search deps over it; `path` overrides PATH (to hide rg). */
export async function searchWorkspace(files: Record<string, string>, path?: string) {
  const t = await testWorkspace(files);
  const envPath = path ?? Deno.env.get("PATH") ?? "/usr/bin:/bin";
  const deps: SearchDeps = {
    workspace: t.workspace,
    sandbox: createSandbox({
      enabled: hasBwrap(),
      network: false,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env: { PATH: envPath },
    }),
    path: envPath,
    timeoutSeconds: 60,
  };
  return Object.assign(t, { deps });
}
