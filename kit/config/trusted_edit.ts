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
import { editJsoncFile, editJsoncText } from "./jsonc_edit.ts";
import { makeHelFolder } from "./hel_folder.ts";

/** The file and its trust record: which kind, for which project. */
export interface TrustedFile {
  trust: TrustStore;
  kind: TrustKind;
  project: string;
  file: string;
}

/**
 * Sets the value at `path` of the project's JSONC file as {@link editJsoncFile} does (`value`
 * computed under its lock from nothing: appending with an index of -1 needs no current value),
 * then carries the file's trust over to the new bytes when the old ones had it.
 */
export async function editTrustedJsonc(
  target: TrustedFile,
  path: JSONPath,
  value: unknown,
): Promise<void> {
  let before: Uint8Array | undefined;
  let written: string | undefined;
  await makeHelFolder(target.project);
  await editJsoncFile(target.project, target.file, path, () => {
    // Under the file's lock: exactly the bytes this edit starts from.
    before = readIfThere(target.file);
    written = editJsoncText(new TextDecoder().decode(before ?? new Uint8Array()), path, value);
    return value;
  });
  if (written === undefined) return;
  const wasTrusted = before === undefined ||
    await target.trust.isTrusted(target.kind, target.project, before);
  if (wasTrusted) {
    await target.trust.record(target.kind, target.project, new TextEncoder().encode(written));
  }
}

function readIfThere(file: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
