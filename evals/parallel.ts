/**
 * Runs a list of jobs with at most `limit` of them at a time, in list order of starting.
 * Eval runs are independent processes (each in its own run folder, workspace and `HEL_HOME`),
 * so the only shared things are the model API (see rate_limit.ts) and the progress output.
 *
 * @module
 */

/**
 * Calls `work` for every item, `limit` at a time. After the first failure no further item
 * starts; the items already running finish, then the first error is thrown (a run stopped
 * half-way would leave a folder that looks unfinished, which is what a rerun expects anyway).
 */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit ${limit} is not >= 1`);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
