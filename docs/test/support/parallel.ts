// Runs a browser check over many pages in a few pages at once: Chromium renders each page in its own process, so on
// two cores two or three pages in flight finish sooner than one after the other, while the test's process waits.

/** `run` over every item, at most `limit` at a time; results in the items' order. A failure fails the whole call. */
export async function mapInParallel<T, R>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
