/**
 * The line the tools plugin adds to the system message's `Environment:` block when bash is
 * offered: the shell commands run in.
 *
 * @module
 */

/**
 * `Shell: bash`, naming the user's login shell besides when it is another one: commands run
 * in bash whatever the login shell is, and naming a fish or zsh login shell as "the shell"
 * would invite syntax that bash refuses.
 */
export function shellLine(loginShell: string | undefined): string {
  return loginShell && !/\/bash$/.test(loginShell)
    ? `Shell: bash (the user's login shell is ${loginShell})`
    : "Shell: bash";
}
