/**
 * A usage or setup error: printed as `hel: <message>` and exits with code 2. Plugins throw it
 * from `setup` for bad flags or configuration that make the run impossible.
 *
 * @module
 */
export class UsageError extends Error {
  override name = "UsageError";
}
