/**
 * Whether an error means the database is out of reach (stopped, restarting, unreachable) rather
 * than a fault in the request: such a request is worth retrying, so it is answered 503.
 */
const NETWORK = new Set(['OPS_STORE_CLOSED', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_SOCKET']);
// PostgreSQL: class 08 is a connection exception; 57P01–57P03 are shutdown and start-up.
const POSTGRES = /^(08...|57P0[123])$/;
// ClickHouse, when the server asked cannot reach another (a shard of a cluster): SOCKET_TIMEOUT,
// NETWORK_ERROR, ALL_CONNECTION_TRIES_FAILED. Queries' errors carry the code; inserts' only say it.
const CLICKHOUSE = new Set(['209', '210', '279']);
const CLICKHOUSE_SAYS = /^Code: (209|210|279)\b/;

/** What a store that was closed (a server shutting down) throws: worth retrying, at another server or later. */
export const storeClosed = () => Object.assign(new Error('The store is closed.'), { code: 'OPS_STORE_CLOSED' });

export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK.has(code) || POSTGRES.test(code) || CLICKHOUSE.has(code))) return true;
  if (
    typeof message === 'string' &&
    (/Connection terminated|Cannot use a pool after calling end|socket hang up|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|^Timeout error\.?$/i.test(
      message,
    ) ||
      CLICKHOUSE_SAYS.test(message))
  )
    return true;
  if (Array.isArray(errors) && errors.some((e) => isStoreUnavailable(e, depth + 1))) return true;
  return isStoreUnavailable(cause, depth + 1);
}
