/**
 * The skills plugin. Skills are folders `.agents/skills/<name>/` with a `SKILL.md` (YAML
 * front matter `name` and `description`, then the instructions). The system message lists
 * them; the model loads one by reading its SKILL.md with `read_file`, so the plugin is on only
 * when `read_file` is offered. A second whole read of an unchanged skill that is still in
 * context answers "already loaded"; after compaction the most recently used skills are kept
 * in a retained region; what was loaded is part of the session snapshot.
 *
 * @module
 */
import { resolve } from "node:path";
import {
  type ChatMessage,
  errorMessage,
  type Host,
  type Plugin,
  type PluginHooks,
  type ToolCallInfo,
  type ToolResult,
} from "../../core/mod.ts";
import { sha256Hex } from "../../kit/mod.ts";
import { type CatalogEntry, discoverSkills, readSkillFile } from "./discovery.ts";
import { bodyVisible, LoadedSkills } from "./loaded_skills.ts";
import { LISTING_MAX_BYTES, omittedNote, skillsListing } from "./listing.ts";
import { retainedRegion } from "./retained.ts";
import instructions from "./system_section.txt" with { type: "text" };

/** The name of the tool that loads skills. */
const LOADER = "read_file";

/** The system message section listing the catalog. */
export function skillsSection(catalog: readonly CatalogEntry[]): string | undefined {
  if (catalog.length === 0) return undefined;
  const { listed, omitted } = skillsListing(catalog);
  return `Available skills:\n<available-skills>\n${JSON.stringify(listed, null, 2)}\n` +
    `</available-skills>\n${omitted > 0 ? `${omittedNote(omitted)}\n` : ""}${instructions.trim()}`;
}

const isWholeRead = (args: Record<string, unknown>) =>
  args.cursor === undefined && args.max_lines === undefined &&
  (args.start_line === undefined || args.start_line === 1);

/** Creates the plugin. */
export default function skills(): Plugin {
  return {
    name: "skills",
    description: "skills: .agents/skills/<name>/SKILL.md procedures, loaded with read_file",
    hooks: [
      "ready",
      "systemPrompt",
      "beforeToolCall",
      "afterToolCall",
      "afterCompaction",
      "saveState",
      "restoreState",
    ],
    setup: (host) => skillHooks(host),
  };
}

/** The hooks of one run: the catalog is found in `ready`, once every tool is registered. */
function skillHooks(host: Host): PluginHooks {
  let enabled = false;
  let catalog: CatalogEntry[] = [];
  const loaded = new LoadedSkills();
  const warn = (text: string) => host.log.warn(text);

  /** The catalogued skill a read_file path names, if any. */
  const skillAt = (args: Record<string, unknown>): CatalogEntry | undefined => {
    if (!enabled || typeof args.path !== "string") return undefined;
    const absolute = resolve(host.project, args.path);
    return catalog.find((entry) => `${host.project}/${entry.path}` === absolute);
  };

  return {
    async ready() {
      // Whatever the plugin order in deno.json: every plugin has registered its tools by now.
      enabled = host.registeredToolNames().includes(LOADER);
      if (enabled) catalog = await discoverSkills(host.project, warn);
      const { omitted } = skillsListing(catalog);
      if (omitted > 0) {
        warn(
          `the project has ${catalog.length} skills; the list of them in each request is ` +
            `limited to ${LISTING_MAX_BYTES / 1024} KiB, so ${omitted} are left out of it ` +
            "(the model is told how to find them)",
        );
      }
    },
    systemPrompt: () => enabled ? skillsSection(catalog) : undefined,
    async beforeToolCall(call: ToolCallInfo) {
      if (call.name !== LOADER) return;
      const entry = skillAt(call.args);
      if (!entry) return;
      try {
        await Deno.lstat(`${host.project}/${entry.path}`);
        return;
      } catch {
        // The catalogued skill is gone: refresh the catalog and say so.
      }
      loaded.forget(entry.path);
      catalog = await discoverSkills(host.project, warn);
      const current = catalog.map((skill) => `${skill.name} (${skill.path})`).join(", ");
      return {
        block: `${entry.path} no longer exists: the skill was moved or removed. The skills ` +
          `list was refreshed; current skills: ${current || "none"}. Pick a current skill and ` +
          "read its SKILL.md; do not follow instructions remembered from the old one.",
      };
    },
    async afterToolCall(call: ToolCallInfo, _result: ToolResult) {
      if (call.name !== LOADER) return;
      const entry = skillAt(call.args);
      if (!entry) return;
      let skill;
      try {
        skill = await readSkillFile(host.project, entry.path);
      } catch (error) {
        warn(`${entry.path}: ${errorMessage(error)}; no longer tracked as a skill`);
        loaded.forget(entry.path);
        return;
      }
      entry.name = skill.name;
      entry.description = skill.description;
      const hash = await sha256Hex(new TextEncoder().encode(skill.body));
      const previous = loaded.get(entry.path);
      const conversation: readonly ChatMessage[] = host.conversation?.() ?? [];
      if (
        isWholeRead(call.args) && previous?.hash === hash &&
        bodyVisible(previous.body, conversation)
      ) {
        loaded.touch(entry.path);
        return {
          ok: true,
          text: `Skill at ${entry.path} is already loaded in the current context; its ` +
            "instructions above are current. Follow them (read a line range if you need to " +
            "see a part again).",
        };
      }
      loaded.record({ path: entry.path, name: skill.name, hash, body: skill.body });
    },
    afterCompaction: (messages, budgetTokens) =>
      enabled ? retainedRegion(loaded.newestFirst(), messages, budgetTokens) : [],
    saveState: () => loaded.save(),
    restoreState(state) {
      loaded.restore(state);
      for (const skill of loaded.newestFirst()) {
        if (!catalog.some((entry) => entry.path === skill.path)) loaded.forget(skill.path);
      }
    },
  };
}
