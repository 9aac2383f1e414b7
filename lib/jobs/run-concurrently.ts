/**
 * Runs `work` over `items` with at most `limit` calls in flight. `work` must not throw (jobs turn
 * failures into counted outcomes); a throw still rejects the whole run, as a bug should.
 */
export async function runConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
