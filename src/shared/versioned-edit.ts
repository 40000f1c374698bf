import { toConsoleError, type ConsoleApiError } from '../api/errors.ts';

/** How an optimistic change of a versioned record ended. */
export type VersionedOutcome<T> =
  /** Saved, or found already applied after its answer was lost. */
  | { kind: 'saved'; record: T }
  /** The record moved on (412): `current` is how it is now, when it could be read. */
  | { kind: 'conflict'; current: T | undefined }
  /** Refused or failed for another reason: the change is to be shown reverted, with `problem`. */
  | { kind: 'failed'; problem: ConsoleApiError };

export interface VersionedEdit<T> {
  /** Sends the change with If-Match of the version it was made on. */
  send: () => Promise<T>;
  /** Reads the record as it is now. */
  read: () => Promise<T>;
  /** Whether a record already carries the change. */
  applied: (record: T) => boolean;
}

/**
 * Saves one change of a versioned record (`PATCH` with `If-Match`), the writes' one mechanism
 * beside `Submission` (which creates). When the answer is lost (timeout, network) or the record
 * moved on (412), the server is asked what is true now: a change it already carries counts as
 * saved, so nothing kept is shown reverted, and a conflict comes with the record as it is.
 */
export async function saveVersioned<T>({ send, read, applied }: VersionedEdit<T>): Promise<VersionedOutcome<T>> {
  try {
    return { kind: 'saved', record: await send() };
  } catch (error) {
    const problem = toConsoleError(error);
    const conflict = problem.kind === 'http' && problem.status === 412;
    const lost = problem.kind === 'timeout' || problem.kind === 'network';
    const current = conflict || lost ? await read().catch(() => undefined) : undefined;
    if (current && applied(current)) return { kind: 'saved', record: current };
    return conflict ? { kind: 'conflict', current } : { kind: 'failed', problem };
  }
}
