/**
 * What hel says at start when it runs as root. The sandbox holds less then: a sandboxed
 * command is still uid 0 (without capabilities), so it reads every file only root may read
 * and the files it makes belong to root; hel keeps it from making set-uid or set-gid files
 * (setid_filter.ts) and from the kernel's settings (proc_covers.ts), but nothing else that
 * root runs is confined.
 *
 * @module
 */

/** The warning for a run as root (uid 0), or undefined for any other user. */
export function rootWarning(
  sandboxed: boolean,
  uid: number | null = Deno.uid(),
): string | undefined {
  if (uid !== 0) return undefined;
  const commands = sandboxed
    ? "programs in its sandbox still run as root, without capabilities: they can read files " +
      "only root may read (such as /etc/shadow and SSH host keys), and what they write " +
      "belongs to root"
    : "with --sandbox off, bash, glob and grep run as root with every privilege and can " +
      "change anything on this machine";
  return `hel runs as root: ${commands}; hooks or servers that run outside the sandbox can ` +
    "do anything. Run hel as an ordinary user (for example sudo -u <user> hel, or a " +
    "non-root user in the container)";
}
