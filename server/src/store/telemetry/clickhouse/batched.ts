/**
 * Reads asked in the same turn of the event loop (one route's `Promise.all`, or requests served
 * side by side) become one query per account and filter. On ClickHouse a query costs a few
 * milliseconds of planning and HTTP before it reads a row: the year overview's dozen small
 * rollup reads cost more than one read that asks for all of their periods.
 */
import DataLoader from 'dataloader';

interface Key<Filter, Ask> {
  accountId: string;
  filter: Filter;
  ask: Ask;
}

/**
 * `run(accountId, filter, asks)` answers every ask of one account and filter, in order. The
 * returned function asks for several at once and waits for the batch they join; nothing is cached,
 * so each batch reads what is stored now.
 */
export function batched<Filter, Ask, Answer>(
  run: (accountId: string, filter: Filter, asks: Ask[]) => Promise<Answer[]>,
): (accountId: string, filter: Filter, asks: readonly Ask[]) => Promise<Answer[]> {
  const loader = new DataLoader<Key<Filter, Ask>, Answer>(
    async (keys) => {
      const groups = new Map<string, { key: Key<Filter, Ask>; at: number }[]>();
      keys.forEach((key, at) => {
        const name = `${key.accountId}\u0000${JSON.stringify(key.filter)}`;
        const group = groups.get(name) ?? [];
        group.push({ key, at });
        groups.set(name, group);
      });
      const answers = new Array<Answer | Error>(keys.length);
      await Promise.all(
        [...groups.values()].map(async (group) => {
          const { accountId, filter } = group[0]!.key;
          try {
            const found = await run(
              accountId,
              filter,
              group.map(({ key }) => key.ask),
            );
            group.forEach(({ at }, j) => (answers[at] = found[j]!));
          } catch (error) {
            // DataLoader rejects a load whose answer is an Error: every ask of the failed query fails with its error.
            for (const { at } of group) answers[at] = error instanceof Error ? error : new Error(String(error));
          }
        }),
      );
      return answers;
    },
    // After every promise job of this turn, so reads asked after an await of the same batch join too.
    { cache: false, batchScheduleFn: (flush) => setImmediate(flush) },
  );
  return (accountId, filter, asks) => Promise.all(asks.map((ask) => loader.load({ accountId, filter, ask })));
}
