/**
 * The built-in tools plugin: read_file, write_file, search_replace, glob, grep and bash. File
 * tools are confined to the working directory, kept out of `.hel` and never write `.git`; bash
 * and the search tools run inside a bubblewrap sandbox, where `.git` is read-only unless
 * `--allow-git-writes`. `--tools` picks the set.
 *
 * @module
 */
import type { Host, Plugin, PluginHooks, Tool } from "../../core/mod.ts";
import {
  createSandbox,
  describeChange,
  gitMetadata,
  isWithin,
  type Sandbox,
  sandboxSettingsFor,
} from "../../kit/mod.ts";
import { bashTool } from "./shell/bash.ts";
import type { Workspace } from "./workspace/confinement.ts";
import { globTool } from "./search/glob.ts";
import { grepTool } from "./search/grep.ts";
import { CursorStore } from "./files/read_cursors.ts";
import { readFileTool } from "./files/read_file.ts";
import type { SearchDeps } from "./search/ripgrep.ts";
import { searchReplaceTool } from "./files/search_replace.ts";
import { KNOWN_TOOLS, TOOL_OPTIONS, type ToolName, toolSettings } from "./settings.ts";
import { writeFileTool } from "./files/write_file.ts";
import { READ_FILE_READING } from "./files/reading.ts";
import { shellLine } from "./shell/environment.ts";

/** Creates the plugin. */
export default function tools(): Plugin {
  return {
    name: "tools",
    description: "built-in tools: files, search (ripgrep) and bash, confined and sandboxed",
    toolNames: KNOWN_TOOLS,
    hooks: ["environmentLines", "saveState", "restoreState", "shutdown"],
    options: TOOL_OPTIONS,
    async setup(host: Host): Promise<PluginHooks> {
      const cursors = new CursorStore();
      const env = host.childEnv();
      const settings = toolSettings(host.flags);
      const sandboxSettings = await sandboxSettingsFor(host);
      const project = host.project;
      const { helHome, gitWritable = false, enabled: sandboxed, network } = sandboxSettings;
      const workspace: Workspace = {
        project,
        // Read when used: the chat can switch the run to another session (/clear, /resume).
        get spillDir() {
          return `${host.session.dir}/spill`;
        },
        ...(helHome ? { helHome } : {}),
        gitDirs: async () => (await gitMetadata(project)).namedGitDirs,
        gitThroughBash: gitWritable && settings.tools.includes("bash"),
      };
      if (await containsHome(project, env.HOME)) {
        // The home folder is the project here, so the sandbox cannot hide it.
        host.log.warn(
          "hel runs in your home folder, so the tools can read all of it, ~/.ssh and other " +
            "keys included; start hel in a project folder to keep them out of reach",
        );
      }
      const sandbox = createSandbox(
        sandboxSettings,
        (problem) => host.log.warn(`sandbox unavailable: ${problem}`),
      );
      host.onShutdown(() => reportPlantedGit(sandbox, host));
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
            sandboxed,
            network,
            gitReadOnly: !gitWritable,
            onParserProblem: once((problem) =>
              host.log.warn(
                `${problem}; rules for bash commands cannot be checked, so hel asks about those commands`,
              )
            ),
          }),
        read_file: () =>
          readFileTool({
            workspace,
            cursors,
            ...(settings.readScanBytes ? { scanBudget: settings.readScanBytes } : {}),
          }),
        write_file: () => writeFileTool(workspace),
        search_replace: () => searchReplaceTool(workspace),
        glob: () => globTool(search),
        grep: () => grepTool(search),
      };
      for (const name of settings.tools) host.registerTool(make[name]());
      if (settings.tools.includes("read_file")) host.offerFileReading(READ_FILE_READING);
      const environment = settings.tools.includes("bash") ? [shellLine(env.SHELL)] : [];
      return {
        environmentLines: () => environment,
        saveState: () => ({ cursors: cursors.save() }),
        restoreState(state) {
          cursors.restore((state as { cursors?: unknown } | null)?.cursors);
        },
      };
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

/** `report`, called at most once. */
function once(report: (text: string) => void): (text: string) => void {
  let told = false;
  return (text) => {
    if (!told) report(text);
    told = true;
  };
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
