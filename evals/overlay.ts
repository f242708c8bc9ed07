/**
 * A condition's `overlay`: a folder of the task, `overlays/<name>/`, copied over the fixture
 * for that condition's runs. It lets one task vary one file per condition (the lab h10-scale
 * gives the inventory server 10, 300 or 3,000 tools through its `.hel/mcp.json`) without a
 * copy of the whole task per variant. The pin (`mcp_sha256`) covers the configuration the run
 * really gets, the overlay's when it has one.
 *
 * @module
 */
import { MCP_CONFIG } from "./workspace.ts";
import { type Condition, SpecError, type Task } from "./spec.ts";

/** The folders copied into a run's workspace, in order: the fixture, then the overlay. */
export async function fixtureLayers(task: Task, condition: Condition): Promise<string[]> {
  const name = condition.settings.overlay;
  if (name === undefined) return [task.fixtureDir];
  const dir = `${task.dir}/overlays/${name}`;
  const info = await Deno.lstat(dir).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new SpecError(
      `condition ${condition.name}: overlay "${name}" needs the folder ${dir} in task ` +
        `${task.id}; add it or drop the overlay`,
    );
  }
  return [task.fixtureDir, dir];
}

/** The layer whose `.hel/mcp.json` a run of `condition` gets (the last one that has it). */
export async function mcpConfigLayer(task: Task, condition: Condition): Promise<string> {
  const layers = await fixtureLayers(task, condition);
  for (const layer of layers.toReversed()) {
    if (await Deno.lstat(`${layer}/${MCP_CONFIG}`).then(() => true, () => false)) return layer;
  }
  return task.fixtureDir;
}
