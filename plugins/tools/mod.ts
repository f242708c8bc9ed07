/**
 * The built-in tools plugin: read_file, write_file, search_replace, glob, grep and bash. File
 * tools are confined to the working directory, kept out of `.hel` and never write `.git`; bash
 * and the search tools run inside a bubblewrap sandbox, where `.git` is read-only unless
 * `--allow-git-writes`. `--tools` picks the set.
 *
 * @module
 */
import type { Host, Plugin, Tool } from "../../core/mod.ts";
import {
  createSandbox,
  describeChange,
  gitMetadata,
  isWithin,
  rootWarning,
  type Sandbox,
  touchesProtected,
} from "../../kit/mod.ts";
import { bashTool } from "./bash.ts";
import { resolve } from "node:path";
import type { Workspace } from "./confinement.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { CursorStore } from "./read_cursors.ts";
import { readFileTool } from "./read_file.ts";
import type { SearchDeps } from "./ripgrep.ts";
import { searchReplaceTool } from "./search_replace.ts";
import { KNOWN_TOOLS, TOOL_OPTIONS, type ToolName, toolSettings } from "./settings.ts";
import { writeFileTool } from "./write_file.ts";

/** Creates the plugin. */
export default function tools(): Plugin {
  const cursors = new CursorStore();
  let report: (() => Promise<void>) | undefined;
  return {
    name: "tools",
    description: "built-in tools: files, search (ripgrep) and bash, confined and sandboxed",
    toolNames: KNOWN_TOOLS,
    options: TOOL_OPTIONS,
    async setup(host: Host) {
      const env = host.childEnv();
      const settings = toolSettings(host.flags, env.HOME);
      const project = host.project;
      const helHome = await helHomeInside(project, host.helHome);
      const gitWritable = settings.gitWrites || !settings.sandbox;
      const workspace: Workspace = {
        project,
        spillDir: `${host.session.dir}/spill`,
        ...(helHome ? { helHome } : {}),
        gitDirs: async () => (await gitMetadata(project)).namedGitDirs,
        gitThroughBash: gitWritable && settings.tools.includes("bash"),
      };
      const asRoot = rootWarning(settings.sandbox);
      if (asRoot) host.log.warn(asRoot);
      for (const name of settings.passEnv.filter((name) => !(name in env))) {
        host.log.warn(
          `--sandbox-env ${name}: hel's environment has no ${name}, so commands get none; ` +
            "check the name",
        );
      }
      if (!settings.sandbox) {
        host.log.warn(
          "--sandbox off: bash, glob and grep run without a sandbox and can read and change " +
            "anything your user account can",
        );
      } else if (settings.gitWrites) {
        host.log.warn(
          "--allow-git-writes: sandboxed commands can change .git; a command could set a " +
            "program (core.fsmonitor, a hook) that git then runs outside the sandbox, the next " +
            "time you or your shell prompt runs git here",
        );
      }
      if (await containsHome(project, env.HOME)) {
        // The home folder is the project here, so the sandbox cannot hide it.
        host.log.warn(
          "hel runs in your home folder, so the tools can read all of it, ~/.ssh and other " +
            "keys included; start hel in a project folder to keep them out of reach",
        );
      }
      let warned = false;
      const sandbox = createSandbox({
        enabled: settings.sandbox,
        network: settings.network,
        project,
        helDir: `${project}/.hel`,
        ...(helHome ? { helHome } : {}),
        helHomeAnywhere: host.helHome,
        extraReads: settings.extraReads,
        passEnv: settings.passEnv,
        gitWritable,
        env,
      }, (problem) => {
        if (!warned) host.log.warn(`sandbox unavailable: ${problem}`);
        warned = true;
      });
      const search: SearchDeps = {
        workspace,
        sandbox,
        path: env.PATH ?? "",
        timeoutSeconds: settings.timeoutSeconds,
      };
      const make: Record<ToolName, () => Tool> = {
        bash: () =>
          bashTool({
            sandbox,
            project,
            timeoutSeconds: settings.timeoutSeconds,
            sandboxed: settings.sandbox,
            network: settings.network,
            gitReadOnly: !gitWritable,
          }),
        read_file: () => readFileTool({ workspace, cursors }),
        write_file: () => writeFileTool(workspace),
        search_replace: () => searchReplaceTool(workspace),
        glob: () => globTool(search),
        grep: () => grepTool(search),
      };
      for (const name of settings.tools) host.registerTool(make[name]());
      report = () => reportPlantedGit(sandbox, host);
    },
    async shutdown() {
      await report?.();
    },
    saveState: () => ({ cursors: cursors.save() }),
    restoreState(state) {
      cursors.restore((state as { cursors?: unknown } | null)?.cursors);
    },
  };
}

/**
 * Tells the person, at the end of the run, of the git repositories sandboxed programs created
 * or changed: git would run the programs their settings name outside the sandbox.
 */
async function reportPlantedGit(sandbox: Sandbox, host: Host): Promise<void> {
  // A last look: the file tools may have written one since the last command.
  await sandbox.afterRun();
  const changes = sandbox.gitChanges();
  if (changes.length === 0) return;
  host.log.warn(
    `commands in this run created or changed git repositories in ${host.project}; git runs ` +
      "the programs their settings name, outside the sandbox, when you or your shell prompt " +
      "run git in them (or in a folder under them), so check these before you run git there:\n" +
      changes.map((change) => `  ${describeChange(change)}`).join("\n"),
  );
}

/** Whether the project is the home folder or holds it (hel started in `~` or `/home`). */
async function containsHome(project: string, home: string | undefined): Promise<boolean> {
  if (!home) return false;
  try {
    return isWithin(project, await Deno.realPath(home));
  } catch {
    return false;
  }
}

/**
 * `$HEL_HOME` as a canonical path when it lies strictly inside the project, else undefined
 * (elsewhere the sandbox already keeps it read-only and the file tools out). It is created
 * first, so the sandbox can cover it before a command could plant a trust store there.
 */
async function helHomeInside(project: string, helHome: string): Promise<string | undefined> {
  // Under `.hel` (hel run in the home folder) it is hidden and refused already; binding it
  // would uncover `.hel` inside the sandbox.
  const inside = (path: string) =>
    isWithin(project, path) && path !== project && !touchesProtected(project, path);
  const path = resolve(project, helHome);
  if (!inside(path)) return undefined;
  try {
    await Deno.mkdir(path, { recursive: true, mode: 0o700 });
    const real = await Deno.realPath(path);
    return inside(real) ? real : undefined;
  } catch {
    return path;
  }
}
