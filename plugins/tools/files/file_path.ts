/**
 * The `path` argument the file tools share, as the model sees it.
 *
 * @module
 */
import { z } from "../../../core/mod.ts";

/** A file path the model gives, relative to the working directory (not empty). */
export const FILE_PATH = z.string().min(1).describe("File path, relative to the working directory");
