/**
 * What the skills plugin remembers about loaded skills: the body the model last read, its
 * hash and when it was last used. Whether a body is still visible to the model is decided
 * from the conversation itself, so pruning, compaction and resume need no bookkeeping.
 *
 * @module
 */
import type { ChatMessage } from "../../core/mod.ts";

/** A skill the model has read. */
export interface LoadedSkill {
  path: string;
  name: string;
  /** SHA-256 of the body, hex. */
  hash: string;
  body: string;
  /** Logical clock of the last read; higher is more recent. */
  lastUsed: number;
}

/** The state saved in the session snapshot. */
export interface SkillsState {
  version: 1;
  clock: number;
  loaded: LoadedSkill[];
}

/** Marks the retained region the plugin inserts after a compaction checkpoint. */
export const RETAINED_OPEN = "<retained-skills>";
export const RETAINED_CLOSE = "</retained-skills>";

/** Loaded skills by path, with a logical clock. */
export class LoadedSkills {
  #clock = 0;
  #byPath = new Map<string, LoadedSkill>();

  get(path: string): LoadedSkill | undefined {
    return this.#byPath.get(path);
  }

  /** Records a read of `path` (new or updated body) as the most recent use. */
  record(skill: Omit<LoadedSkill, "lastUsed">): void {
    this.#byPath.set(skill.path, { ...skill, lastUsed: ++this.#clock });
  }

  /** Marks an unchanged skill as just used. */
  touch(path: string): void {
    const skill = this.#byPath.get(path);
    if (skill) skill.lastUsed = ++this.#clock;
  }

  forget(path: string): void {
    this.#byPath.delete(path);
  }

  /** Most recently used first; ties by path. */
  newestFirst(): LoadedSkill[] {
    return [...this.#byPath.values()].sort((a, b) =>
      b.lastUsed - a.lastUsed || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
    );
  }

  save(): SkillsState {
    return { version: 1, clock: this.#clock, loaded: this.newestFirst() };
  }

  /** Restores a saved state; throws when it is not one (the core then warns). */
  restore(state: unknown): void {
    const value = state as Partial<SkillsState> | null;
    if (!value || value.version !== 1 || !Array.isArray(value.loaded)) {
      throw new Error("unknown skills state");
    }
    const loaded = new Map<string, LoadedSkill>();
    for (const item of value.loaded) {
      const ok = item && ["path", "name", "hash", "body"].every((key) =>
        typeof (item as unknown as Record<string, unknown>)[key] === "string"
      ) && Number.isInteger(item.lastUsed);
      if (!ok) {
        throw new Error("a loaded skill in the saved state is malformed");
      }
      loaded.set(item.path, { ...item });
    }
    this.#byPath = loaded;
    this.#clock = Number.isInteger(value.clock) ? value.clock as number : 0;
  }
}

/**
 * True when the whole body is visible in the conversation: one tool result holds all of it,
 * or a retained region holds it in full.
 */
export function bodyVisible(body: string, messages: readonly ChatMessage[]): boolean {
  const needle = body.trim();
  return messages.some((message) =>
    (message.role === "tool" ||
      (message.role === "user" && message.content.startsWith(RETAINED_OPEN))) &&
    typeof message.content === "string" && message.content.includes(needle)
  );
}
