/** `@ops-console/server/collect`: the collector package, re-exported for those who install the server (`@ops-console/collect` alone has no dependencies). */
export * from '@ops-console/collect';
export * from '@ops-console/collect/hono';
