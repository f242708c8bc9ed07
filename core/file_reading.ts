/**
 * How the model can read a file hel saved or cut short (a spilled or pruned tool result, a long
 * context file). The core names no tool: the plugin that offers file reading says how, through
 * `host.offerFileReading`, and notices pointing at such a file end with its words.
 *
 * @module
 */

/** The words of notices that point the model at a file, from the plugin that reads files. */
export interface FileReading {
  /** A sentence ending a spilled result's notice: how to read the saved file in parts. */
  spilled: string;
  /** A clause after the path of a pruned result's saved copy: how to read it again. */
  pruned: string;
  /** A clause saying how to read `path` from line `line` on, for a context file cut short. */
  from(path: string, line: number): string;
}
