/**
 * `read_file`: a text file, or a range of its lines, in replies of at most 10,000 UTF-8 bytes.
 * A longer read ends with a notice and an opaque cursor to continue from.
 *
 * @module
 */
import { defineTool, groupDigits, type Tool, type ToolResult, z } from "../../../core/mod.ts";
import { openVerified, resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import { identityOf, sameIdentity } from "../../../kit/mod.ts";
import type { CursorStore } from "./read_cursors.ts";
import { SCAN_BUDGET_BYTES, scanLines } from "./line_scan.ts";
import { limitText } from "./whole_file.ts";
import description from "./read_file.txt" with { type: "text" };
import { pathTarget } from "../workspace/rule_path.ts";

/** A whole reply, notice included, stays within this many UTF-8 bytes. */
export const READ_REPLY_BYTES = 10_000;
/** Room kept for the continuation notice. */
const NOTICE_BYTES = 160;
const CONTENT_BYTES = READ_REPLY_BYTES - NOTICE_BYTES;

// path may be left out when a cursor continues a read, so it is not required here.
const parameters = z.strictObject({
  path: z.string().describe("File path, relative to the working directory").optional(),
  start_line: z.int().min(1).describe("First line to read (from 1)").optional(),
  max_lines: z.int().min(1).describe("Read at most this many lines").optional(),
  cursor: z.string().describe("Continue a truncated read (alone, or with path)").optional(),
});

/** What `read_file` needs from the plugin. */
export interface ReadFileDeps {
  workspace: Workspace;
  cursors: CursorStore;
  /** Bytes one call scans for `start_line` at most (default {@link SCAN_BUDGET_BYTES}). */
  scanBudget?: number;
}

/** Creates the tool. */
export function readFileTool(deps: ReadFileDeps): Tool {
  return defineTool({
    name: "read_file",
    description,
    parameters,
    toolClass: "read",
    category: "read",
    // A continued read is about the cursor's file.
    ruleTarget: ({ path, cursor }) =>
      pathTarget(deps.workspace, cursor ? deps.cursors.get(cursor)?.path : path),
    run: (args, context) => readFile(deps, args, context.signal),
  });
}

const fail = (text: string): ToolResult => ({ ok: false, text });

async function readFile(
  deps: ReadFileDeps,
  args: z.infer<typeof parameters>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const { path, cursor, start_line: startLine, max_lines: maxLines } = args;
  if (cursor !== undefined) {
    if (startLine !== undefined || maxLines !== undefined) {
      return fail("cursor cannot be combined with start_line or max_lines; send the cursor alone");
    }
    return await continueRead(deps, cursor, path, signal);
  }
  if (path === undefined) {
    return fail("path is required but missing (or send a cursor to continue a read)");
  }
  const resolved = await resolveInWorkspace(deps.workspace, path, { allowSpill: true });
  if (!resolved.ok) return fail(resolved.text);
  const shown = path;
  const kind = await regularFile(resolved.path, shown);
  if (kind) return fail(kind);
  const opened = await openVerified(deps.workspace, resolved.path, shown, { read: true });
  if (!opened.ok) return fail(opened.text);
  using file = opened.file;
  const read: ReadAt = {
    path: resolved.path,
    shown,
    offset: 0,
    maxLines,
    line: startLine ?? 1,
    skip: (startLine ?? 1) - 1,
  };
  return await seekAndRead(deps, file, opened.info, read, signal);
}

async function continueRead(
  deps: ReadFileDeps,
  id: string,
  path: string | undefined,
  signal: AbortSignal,
): Promise<ToolResult> {
  const cursor = deps.cursors.get(id);
  if (!cursor) {
    return fail("unknown or expired cursor; start a new read with path (and start_line)");
  }
  let shown = cursor.path.startsWith(`${deps.workspace.project}/`)
    ? cursor.path.slice(deps.workspace.project.length + 1)
    : cursor.path;
  // Cursors come back from the session snapshot: confinement must not rest on its integrity.
  const confined = await resolveInWorkspace(deps.workspace, cursor.path, { allowSpill: true });
  if (!confined.ok) return fail(confined.text);
  if (path !== undefined) {
    const resolved = await resolveInWorkspace(deps.workspace, path, { allowSpill: true });
    if (!resolved.ok) return fail(resolved.text);
    if (resolved.path !== cursor.path) {
      return fail(`cursor belongs to a different file than ${path}; leave out path or fix it`);
    }
    shown = path;
  }
  const changed = `${shown}: the file changed since the cursor was created; start a new read`;
  const opened = await openVerified(deps.workspace, cursor.path, shown, { read: true });
  if (!opened.ok) return fail(changed);
  using file = opened.file;
  if (!sameIdentity(identityOf(opened.info), cursor.identity)) return fail(changed);
  const read: ReadAt = {
    path: cursor.path,
    shown,
    offset: cursor.offset,
    maxLines: cursor.remainingLines,
    line: cursor.line ?? 1,
    skip: cursor.skipLines ?? 0,
  };
  return await seekAndRead(deps, file, opened.info, read, signal);
}

/** Where a read starts: `skip` line breaks after `offset`, looking for line `line`. */
interface ReadAt {
  path: string;
  shown: string;
  offset: number;
  maxLines: number | undefined;
  line: number;
  skip: number;
}

/** Finds the line the read starts at (within the scan budget), then reads from there. */
async function seekAndRead(
  deps: ReadFileDeps,
  file: Deno.FsFile,
  info: Deno.FileInfo,
  read: ReadAt,
  signal: AbortSignal,
): Promise<ToolResult> {
  const budget = deps.scanBudget ?? SCAN_BUDGET_BYTES;
  const scan = await scanLines(file, {
    from: read.offset,
    skip: read.skip,
    passed: read.line - 1 - read.skip,
    size: info.size,
    budget,
    signal,
  });
  if (scan.kind === "cancelled") return fail("the read was cancelled");
  if (scan.kind === "beyond") {
    const { lines } = scan;
    return fail(
      `${read.shown}: start_line ${read.line} is beyond the end of the file (it has ${lines} ` +
        `line${lines === 1 ? "" : "s"})`,
    );
  }
  if (scan.kind === "found") {
    return await readChunk(deps, file, info, read.path, read.shown, scan.offset, read.maxLines);
  }
  const id = deps.cursors.add({
    path: read.path,
    offset: scan.offset,
    remainingLines: read.maxLines,
    identity: identityOf(info),
    line: read.line,
    skipLines: scan.skip,
  });
  const passed = read.line - 1 - scan.skip;
  return {
    ok: true,
    text: `[read_file looked for line ${read.line} of ${read.shown} and paused after ` +
      `${groupDigits(passed)} line breaks, at byte ${groupDigits(scan.offset)} of ${
        groupDigits(info.size)
      }: one call scans at most ${
        limitText(budget)
      }. Continue with read_file({"cursor":"${id}"}), or reach a far line at once with ` +
      `grep, or with sed -n '${read.line},+50p' ${read.shown} in bash.]\n`,
  };
}

/** Refuses directories, FIFOs and devices before opening (a FIFO would block the read). */
async function regularFile(path: string, shown: string): Promise<string | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    return `${shown}: cannot read (${(error as Error).name})`;
  }
  if (info.isFile) return undefined;
  if (info.isDirectory) {
    return `${shown} is a directory, not a regular file; use glob to list its files`;
  }
  return `${shown} is not a regular file (a device, pipe or socket); read_file reads files only`;
}

async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  await file.seek(offset, Deno.SeekMode.Start);
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const n = await file.read(buffer.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

/** Length of `bytes` without a code point cut off at its end. */
function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

async function readChunk(
  deps: ReadFileDeps,
  file: Deno.FsFile,
  before: Deno.FileInfo,
  path: string,
  shown: string,
  offset: number,
  maxLines: number | undefined,
): Promise<ToolResult> {
  const bytes = await readAt(file, offset, CONTENT_BYTES);
  let end = bytes.length;
  if (maxLines !== undefined) {
    let seen = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0x0a && ++seen === maxLines) {
        end = i + 1;
        break;
      }
    }
  }
  const cutByLimit = end === CONTENT_BYTES && offset + end < before.size;
  // A code point split by the byte limit is delivered whole in the next chunk.
  if (cutByLimit) end = completeUtf8Length(bytes.subarray(0, end));
  const chunk = bytes.subarray(0, end);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(chunk);
  } catch {
    return fail(
      `${shown} is not valid UTF-8 text (near bytes ${offset}-${offset + end}); it may be a ` +
        "binary file, which read_file cannot show",
    );
  }
  const after = await file.stat();
  if (!sameIdentity(identityOf(before), identityOf(after))) {
    return fail(`${shown}: the file changed while reading; start a new read`);
  }
  const newlines = chunk.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);
  const remainingLines = maxLines === undefined ? undefined : maxLines - newlines;
  const next = offset + end;
  if (next >= before.size || (remainingLines !== undefined && remainingLines <= 0)) {
    return { ok: true, text };
  }
  const id = deps.cursors.add({ path, offset: next, remainingLines, identity: identityOf(before) });
  return {
    ok: true,
    text: `${text}\n\n[Read truncated at ${groupDigits(READ_REPLY_BYTES)} bytes. ` +
      `Continue with read_file({"cursor":"${id}"}).]\n`,
  };
}
