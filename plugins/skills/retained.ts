/**
 * The retained region: after a compaction, the skills the model used most recently are put
 * back right after the checkpoint, so their instructions survive the summary. At most 5,000
 * tokens per skill and 25,000 in all, newest first; it stops at the first skill that does
 * not fit.
 *
 * @module
 */
import { type ChatMessage, estimateTokens, headChars } from "../../core/mod.ts";
import { bodyVisible, type LoadedSkill, RETAINED_CLOSE, RETAINED_OPEN } from "./loaded_skills.ts";

/** Per-skill and total budgets of the region, in estimated tokens. */
export const RETAINED_SKILL_TOKENS = 5_000;
export const RETAINED_TOTAL_TOKENS = 25_000;

/** The longest prefix of `text` within `tokens`, by binary search on its code points. */
export function prefixWithin(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  const chars = Array.from(text);
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(chars.slice(0, mid).join("")) <= tokens) low = mid;
    else high = mid - 1;
  }
  return headChars(text, low);
}

function section(skill: LoadedSkill): string {
  const header = `Skill ${JSON.stringify(skill.name)} from ${skill.path} ` +
    `(sha256 ${skill.hash.slice(0, 16)}):`;
  const body = skill.body.trim();
  const kept = prefixWithin(body, RETAINED_SKILL_TOKENS);
  if (kept.length === body.length) return `${header}\n${body}`;
  return `${header}\n${kept}\n[Only the first part of this skill is retained here; read ` +
    `${skill.path} with read_file for the whole text.]`;
}

/**
 * The region for `skills` (newest first), leaving out those still fully visible in `kept`
 * (the conversation after compaction), within 25,000 tokens or `budgetTokens` if smaller (the
 * room left under the compaction threshold); empty when there is nothing to retain.
 */
export function retainedRegion(
  skills: readonly LoadedSkill[],
  kept: readonly ChatMessage[],
  budgetTokens: number = RETAINED_TOTAL_TOKENS,
): ChatMessage[] {
  const limit = Math.min(RETAINED_TOTAL_TOKENS, budgetTokens);
  const intro = `${RETAINED_OPEN}\nThese skills were loaded before the conversation was ` +
    "compacted. They are their current versions and replace any earlier copy; follow them " +
    "as before.\n";
  let used = estimateTokens(intro + RETAINED_CLOSE);
  const sections: string[] = [];
  for (const skill of skills) {
    if (bodyVisible(skill.body, kept)) continue;
    const text = section(skill);
    const cost = estimateTokens(`\n${text}\n`);
    if (used + cost > limit) break;
    used += cost;
    sections.push(text);
  }
  if (sections.length === 0) return [];
  return [{ role: "user", content: `${intro}\n${sections.join("\n\n")}\n${RETAINED_CLOSE}` }];
}
