/**
 * The system message: hel's base instructions, an `Environment:` block, the project's context
 * files in order, then the sections plugins add. Rebuilt at start and on resume from the current state.
 *
 * @module
 */
import baseInstructions from "./base_instructions.txt" with { type: "text" };

/**
 * Facts for the `Environment:` block, gathered by the caller (this module does no I/O);
 * plugins add lines of their own after the OS (the tools plugin: the shell commands run in).
 */
export interface EnvironmentFacts {
  os: string;
  cwd: string;
  date: string;
}

/** What goes into the system message. */
export interface SystemPromptParts {
  environment: EnvironmentFacts | undefined;
  /** The context files' names and texts, in order (those present and not blank). */
  contextFiles: readonly { name: string; text: string }[];
  /** The plugins' lines of the `Environment:` block (the plugin driver's `environmentLines`). */
  environmentLines: readonly string[];
  /** The plugins' sections, in plugin order (the plugin driver's `systemSections`). */
  pluginSections: readonly string[];
}

/** Joins the parts with blank lines. */
export function buildSystemPrompt(parts: SystemPromptParts): string {
  const sections = [baseInstructions.trim()];
  if (parts.environment) {
    const env = parts.environment;
    const lines = [`OS: ${env.os}`, ...parts.environmentLines, `Working directory: ${env.cwd}`];
    sections.push(
      `Environment:\n${[...lines, `Date: ${env.date}`].map((l) => `- ${l}`).join("\n")}`,
    );
  }
  for (const file of parts.contextFiles) {
    sections.push(
      `Contents of ${file.name} in the working directory:\n\n${file.text.trimEnd()}`,
    );
  }
  for (const section of parts.pluginSections) {
    if (section.trim() !== "") sections.push(section.trimEnd());
  }
  return sections.join("\n\n");
}
