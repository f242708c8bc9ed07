/**
 * The system message: hel's base instructions, an `Environment:` block, the project's context
 * file, then the sections plugins add. Rebuilt at start and on resume from the current state.
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
  /** The context file's name and text, when present and not blank. */
  contextFile: { name: string; text: string } | undefined;
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
  if (parts.contextFile) {
    sections.push(
      `Contents of ${parts.contextFile.name} in the working directory:\n\n` +
        parts.contextFile.text.trimEnd(),
    );
  }
  for (const section of parts.pluginSections) {
    if (section.trim() !== "") sections.push(section.trimEnd());
  }
  return sections.join("\n\n");
}
