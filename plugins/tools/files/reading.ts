/**
 * How the model reads, with read_file, a file hel pointed it at: the words this plugin offers
 * the host (`host.offerFileReading`) for the notices of spilled and pruned results and of a
 * context file cut short.
 *
 * @module
 */
import type { FileReading } from "../../../core/mod.ts";

/** read_file's arguments and cursor, as those notices name them. */
export const READ_FILE_READING: FileReading = {
  spilled: "Read it with read_file using start_line and max_lines, or continue with its cursor.",
  pruned: "read it with read_file if you need it again",
  from: (path, line) => `read it with read_file (path ${path}, start_line ${line})`,
};
