/**
 * What went wrong, in words: the one way hel turns a thrown value into a message, and the
 * error that names the plugin and the hook a failure came from.
 *
 * @module
 */

/** The message of a thrown value: an Error's message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A plugin hook that threw. The message is the one wording every report uses:
 * `plugin <name> failed in <hook>[ for <subject>]: <message>`.
 */
export class PluginHookError extends Error {
  override name = "PluginHookError";
  constructor(
    /** The plugin's name. */
    readonly plugin: string,
    /** The hook that threw (`setup`, `beforeToolCall`, ...). */
    readonly hook: string,
    cause: unknown,
    /** What the hook was working on, e.g. the tool name of a call. */
    readonly subject?: string,
  ) {
    super(
      `plugin ${plugin} failed in ${hook}${subject === undefined ? "" : ` for ${subject}`}: ${
        errorMessage(cause)
      }`,
      { cause },
    );
  }
}
