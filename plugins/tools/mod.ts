/**
 * The built-in tools plugin: read_file, write_file, search_replace, glob, grep and bash. File
 * tools are confined to the working directory and kept out of `.hel`; bash and the search
 * tools run inside a bubblewrap sandbox. `--tools` picks the set.
 *
 * @module
 */
import type { Host, Plugin, Tool } from "../../core/mod.ts";
import { bashTool } from "./bash.ts";
import type { Workspace } from "./confinement.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { CursorStore } from "./read_cursors.ts";
import { readFileTool } from "./read_file.ts";
import type { SearchDeps } from "./ripgrep.ts";
import { createSandbox } from "./sandbox.ts";
import { searchReplaceTool } from "./search_replace.ts";
import { KNOWN_TOOLS, TOOL_OPTIONS, type ToolName, toolSettings } from "./settings.ts";
import { writeFileTool } from "./write_file.ts";

/** Creates the plugin. */
export default function tools(): Plugin {
  const cursors = new CursorStore();
  return {
    name: "tools",
    description: "built-in tools: files, search (ripgrep) and bash, confined and sandboxed",
    toolNames: KNOWN_TOOLS,
    options: TOOL_OPTIONS,
    setup(host: Host) {
      const settings = toolSettings(host.flags);
      const project = host.project;
      const workspace: Workspace = { project, spillDir: `${host.session.dir}/spill` };
      const env = host.childEnv();
      if (!settings.sandbox) {
        host.log.warn(
          "--sandbox off: bash, glob and grep run without a sandbox and can read and change " +
            "anything your user account can",
        );
      }
      let warned = false;
      const sandbox = createSandbox({
        enabled: settings.sandbox,
        network: settings.network,
        project,
        helDir: `${project}/.hel`,
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
          }),
        read_file: () => readFileTool({ workspace, cursors }),
        write_file: () => writeFileTool(workspace),
        search_replace: () => searchReplaceTool(workspace),
        glob: () => globTool(search),
        grep: () => grepTool(search),
      };
      for (const name of settings.tools) host.registerTool(make[name]());
    },
    saveState: () => ({ cursors: cursors.save() }),
    restoreState(state) {
      cursors.restore((state as { cursors?: unknown } | null)?.cursors);
    },
  };
}
