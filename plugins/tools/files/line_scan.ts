/**
 * Finding where a line starts, for `read_file`'s `start_line`: a stream over the file in
 * blocks, never the whole file in memory, that stops when the call is cancelled (Ctrl-C) and
 * after a budget of bytes. A 40 GiB file of zeros is one line; looking for its second line
 * once scanned for minutes and could not be stopped. With the budget one call costs at most
 * about a second of reading, and the caller hands out a cursor to go on from where it paused.
 *
 * @module
 */

/** Bytes one call scans for a line at most: about a second's read on a disk, less in cache. */
export const SCAN_BUDGET_BYTES = 256 * 1024 * 1024;
const BLOCK_BYTES = 1024 * 1024;

/** Where the scan ended. */
export type LineScan =
  /** The line starts at `offset`. */
  | { kind: "found"; offset: number }
  /** The file ended first; it has `lines` lines. */
  | { kind: "beyond"; lines: number }
  /** The budget was spent: `skip` line breaks are still to pass from `offset`. */
  | { kind: "paused"; offset: number; skip: number }
  | { kind: "cancelled" };

/** What {@link scanLines} needs besides the file. */
export interface ScanRequest {
  /** Byte offset where the scan starts, at the start of a line. */
  from: number;
  /** Line breaks to pass from there (0: the line at `from`). */
  skip: number;
  /** Line breaks already passed before `from`, to count the lines of a file that ends first. */
  passed: number;
  /** The file's size when it was opened. */
  size: number;
  budget: number;
  signal: AbortSignal;
}

/** Passes `skip` line breaks from `from` in `file`; see {@link LineScan}. */
export async function scanLines(file: Deno.FsFile, request: ScanRequest): Promise<LineScan> {
  const { from, size, budget, signal } = request;
  let skip = request.skip;
  if (skip === 0) return { kind: "found", offset: from };
  await file.seek(from, Deno.SeekMode.Start);
  const block = new Uint8Array(BLOCK_BYTES);
  let at = from;
  let last = -1;
  while (at < size) {
    if (signal.aborted) return { kind: "cancelled" };
    if (at - from >= budget) return { kind: "paused", offset: at, skip };
    const n = await file.read(block.subarray(0, Math.min(BLOCK_BYTES, budget - (at - from))));
    if (n === null) break;
    const bytes = block.subarray(0, n);
    for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) {
      if (--skip > 0) continue;
      const offset = at + i + 1;
      return offset < size ? { kind: "found", offset } : beyond(request, request.skip);
    }
    last = bytes[n - 1] ?? last;
    at += n;
  }
  return beyond(request, request.skip - skip, last);
}

/**
 * The file ended before the line: it has the line breaks passed, plus a last line without one
 * when the last byte read was not a line break.
 */
function beyond(request: ScanRequest, passedHere: number, lastByte = 0x0a): LineScan {
  const unterminated = lastByte !== 0x0a && lastByte !== -1 ? 1 : 0;
  return { kind: "beyond", lines: request.passed + passedHere + unterminated };
}
