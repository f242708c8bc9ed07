/**
 * The trust store: which exact configuration bytes (hooks, MCP) the user approved for which
 * project. Records live under `$HEL_HOME`, never inside the project, so a cloned repository
 * cannot ship its own approval.
 *
 * @module
 */

/** What a trust record approves. Hooks and MCP are recorded separately. */
export type TrustKind = "hooks" | "mcp";

/** One approval: this kind, for this canonical project path, of exactly these bytes. */
export interface TrustRecord {
  kind: TrustKind;
  project: string;
  sha256: string;
  trustedAt: string;
}

/** Reads and writes trust records. Implementations never treat damage as trust. */
export interface TrustStore {
  /** True only when a record binds kind, project and the SHA-256 of `bytes`. */
  isTrusted(kind: TrustKind, project: string, bytes: Uint8Array): Promise<boolean>;
  /** Records trust of these bytes, replacing any earlier record of the same kind and project. */
  record(kind: TrustKind, project: string, bytes: Uint8Array): Promise<void>;
  /** Removes the record; returns whether there was one. */
  revoke(kind: TrustKind, project: string): Promise<boolean>;
  /** Every record, for `hel trust --list`. */
  list(): Promise<TrustRecord[]>;
}
