/** Work on a list a few items at a time: the one "N lanes take the next item" loop. */

/**
 * Calls `work(item, index, lane)` for each of `items`, at most `lanes` at once (`lane`: which of
 * them, 0-based, for per-lane scratch). Items start in list order, each lane taking the next one
 * when its last is done. After a failure no item is started, and the first error thrown is thrown again once
 * every lane has stopped, so nothing this call started is still running when it settles.
 * @throws the first error `work` threw (in time).
 */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T, index: number, lane: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const run = async (lane: number) => {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index, lane);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, (_, lane) => run(lane)));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
