/**
 * The longest wait hel can keep with a timer, shared by every timeout setting (`--timeout`,
 * `--bash-timeout`, a hook's `timeout`) so they all refuse the same values.
 *
 * @module
 */

/**
 * The longest timeout in whole seconds: JavaScript timers hold at most 2^31-1 ms (about 24.8
 * days) and fire at once beyond that, which would end the wait as soon as it started.
 */
export const MAX_TIMER_SECONDS = 2_147_483;
