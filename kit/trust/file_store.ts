/**
 * The trust store kept in `$HEL_HOME/trust.json` (mode 0600, written atomically). A damaged
 * file is reported and read as "nothing trusted", never as "everything trusted".
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { withFileLock, writePrivateFile } from "../private_file.ts";
import type { TrustKind, TrustRecord, TrustStore } from "../../core/trust.ts";

interface TrustFile {
  version: 1;
  records: TrustRecord[];
}

/** SHA-256 of bytes as lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Opens the store in `helHome`; `onDamage` hears about a file that could not be read or whose
 * permissions hel had to repair.
 */
export function createTrustFileStore(
  helHome: string,
  onDamage: (message: string) => void,
): TrustStore {
  const path = `${helHome}/trust.json`;

  /** The records, and whether a file was there that could not be read as a store. */
  async function read(): Promise<{ records: TrustRecord[]; damaged: boolean }> {
    let text: string;
    try {
      const refusal = await unsafeStore(path, onDamage);
      if (refusal) {
        onDamage(refusal);
        return { records: [], damaged: true };
      }
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { records: [], damaged: false };
      onDamage(`cannot read trust store ${path}: ${errorMessage(error)}; nothing is trusted`);
      return { records: [], damaged: true };
    }
    try {
      const parsed = JSON.parse(text) as TrustFile;
      if (parsed.version !== 1 || !Array.isArray(parsed.records)) throw new Error("unknown format");
      const records = parsed.records.filter((r) =>
        typeof r?.kind === "string" && typeof r.project === "string" &&
        typeof r.sha256 === "string"
      );
      return { records, damaged: false };
    } catch (error) {
      onDamage(
        `trust store ${path} is damaged (${errorMessage(error)}); nothing is trusted ` +
          "until you trust again or remove the file",
      );
      return { records: [], damaged: true };
    }
  }

  const load = async () => (await read()).records;

  /**
   * The records to change. A damaged store is moved aside first, not overwritten: it may hold
   * approvals the user can still recover by hand (a typo, or a store from a newer hel).
   */
  async function loadForChange(): Promise<TrustRecord[]> {
    const { records, damaged } = await read();
    if (!damaged) return records;
    const kept = `${path}.damaged-${new Date().toISOString().replaceAll(":", "-")}`;
    await Deno.rename(path, kept);
    onDamage(`the damaged trust store was kept as ${kept}; a new ${path} is started`);
    return records;
  }

  async function save(records: TrustRecord[]): Promise<void> {
    await Deno.mkdir(helHome, { recursive: true, mode: 0o700 });
    const body: TrustFile = { version: 1, records };
    await writePrivateFile(path, JSON.stringify(body, null, 2) + "\n");
  }

  const same = (r: TrustRecord, kind: TrustKind, project: string) =>
    r.kind === kind && r.project === project;

  /** Runs a read-modify-write alone, so two hel processes approving at once both keep theirs. */
  async function exclusively<T>(change: () => Promise<T>): Promise<T> {
    await Deno.mkdir(helHome, { recursive: true, mode: 0o700 });
    return await withFileLock(`${helHome}/trust.lock`, change);
  }

  return {
    async isTrusted(kind, project, bytes) {
      const hash = await sha256Hex(bytes);
      return (await load()).some((r) => same(r, kind, project) && r.sha256 === hash);
    },
    async record(kind, project, bytes) {
      const sha256 = await sha256Hex(bytes);
      await exclusively(async () => {
        const records = (await loadForChange()).filter((r) => !same(r, kind, project));
        records.push({ kind, project, sha256, trustedAt: new Date().toISOString() });
        await save(records);
      });
    },
    revoke(kind, project) {
      return exclusively(async () => {
        // A damaged store trusts nothing, so there is nothing to revoke: leave it as it is.
        const records = await load();
        const kept = records.filter((r) => !same(r, kind, project));
        if (kept.length === records.length) return false;
        await save(kept);
        return true;
      });
    },
    list: load,
  };
}

/**
 * Why the store file cannot be relied on, after repairing what can be repaired; undefined when
 * it is fine or absent. A symlink could point the approvals at a file someone else controls
 * (inside a repository, say), and a file others can write lets them approve configurations.
 */
async function unsafeStore(
  path: string,
  warn: (message: string) => void,
): Promise<string | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch {
    return undefined; // absent or unreadable: the read that follows reports it
  }
  if (info.isSymlink) {
    return `trust store ${path} is a symbolic link; hel does not follow it, so nothing is ` +
      "trusted. Remove the link (hel trust then starts a new store)";
  }
  const mode = info.mode ?? 0;
  if ((mode & 0o022) === 0) return undefined;
  const shown = (mode & 0o777).toString(8).padStart(4, "0");
  if (info.uid !== null && info.uid === Deno.uid()) {
    await Deno.chmod(path, 0o600);
    warn(
      `trust store ${path} could be written by other users (mode ${shown}); hel made it ` +
        "writable only by you (mode 0600). Check its approvals with hel trust --list",
    );
    return undefined;
  }
  return `trust store ${path} can be written by other users (mode ${shown}) and is not yours; ` +
    "nothing is trusted. Remove it or make it yours with mode 0600";
}
