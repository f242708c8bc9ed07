/**
 * hel's own change to a project configuration file the person trusts by its bytes (the
 * project's `.hel/settings.jsonc`): the file changes, so its trust record would no longer match
 * and hel would ask again about a change the person just made through hel. The bytes hel writes
 * are recorded as trusted only when the bytes before were trusted, or there was no file: an
 * untrusted file (a cloned repository's) stays untrusted after hel adds to it.
 *
 * @module
 */
import type { JSONPath } from "jsonc-parser";
import type { TrustKind, TrustStore } from "../../core/trust.ts";
import { editJsoncFile } from "./jsonc_edit.ts";
import { makeHelFolder } from "./hel_folder.ts";

/** The file and its trust record: which kind, for which project. */
export interface TrustedFile {
  trust: TrustStore;
  kind: TrustKind;
  project: string;
  file: string;
}

/**
 * Sets the value at `path` of the project's JSONC file as {@link editJsoncFile} does, then
 * carries the file's trust over to the new bytes when the old ones had it.
 */
export async function editTrustedJsonc(
  target: TrustedFile,
  path: JSONPath,
  value: unknown,
): Promise<void> {
  await makeHelFolder(target.project);
  // Under the file's lock: exactly the bytes this edit starts from, and the text it wrote.
  const { before, written } = await editJsoncFile(target.project, target.file, path, () => value);
  const wasTrusted = before === undefined ||
    await target.trust.isTrusted(target.kind, target.project, before);
  if (wasTrusted) {
    await target.trust.record(target.kind, target.project, new TextEncoder().encode(written));
  }
}
