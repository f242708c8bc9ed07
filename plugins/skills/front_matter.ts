/**
 * Parsing a `SKILL.md`: a YAML front matter block between `---` lines with a `name` and a
 * `description`, then the body (the instructions the model follows).
 *
 * @module
 */
import { errorMessage } from "../../core/mod.ts";
import { parse } from "yaml";

/** A parsed skill file. */
export interface SkillFile {
  name: string;
  description: string;
  /** Everything after the closing `---` line. */
  body: string;
}

const NAME_MAX_BYTES = 256;
const DESCRIPTION_MAX_BYTES = 4_096;

const byteLength = (text: string) => new TextEncoder().encode(text).length;

function field(meta: Record<string, unknown>, key: string, maxBytes: number): string {
  const value = meta[key];
  if (typeof value !== "string" || value.trim() === "") {
    throw new Error(`the front matter needs a non-blank "${key}" (text)`);
  }
  if (byteLength(value) > maxBytes) {
    throw new Error(`"${key}" is longer than ${maxBytes} bytes; shorten it`);
  }
  return value.trim();
}

/** Parses the text of a SKILL.md; throws an error whose message names the problem and fix. */
export function parseSkillFile(text: string): SkillFile {
  if (text.trim() === "") throw new Error("the file is empty");
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines[0]?.trimEnd() !== "---") {
    throw new Error('it must start with a "---" line opening the YAML front matter');
  }
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === "---");
  if (close < 0) throw new Error('the front matter has no closing "---" line');
  let meta: unknown;
  try {
    meta = parse(lines.slice(1, close).join("\n"));
  } catch (error) {
    throw new Error(`invalid YAML front matter: ${errorMessage(error).split("\n")[0]}`);
  }
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) {
    throw new Error("the front matter must be a YAML mapping with name and description");
  }
  const record = meta as Record<string, unknown>;
  return {
    name: field(record, "name", NAME_MAX_BYTES),
    description: field(record, "description", DESCRIPTION_MAX_BYTES),
    body: lines.slice(close + 1).join("\n"),
  };
}
