/** Stopping a host API without losing its last requests, and without keeping it from stopping. */
import type { Collector } from './collector.ts';

export interface CloseOnSignalsOptions {
  /** The signals that stop the process (default SIGTERM and SIGINT). */
  signals?: NodeJS.Signals[];
  /** How long the collector may take to send what waits (default 5,000 ms). */
  timeoutMs?: number;
}

/**
 * On SIGTERM (or SIGINT), closes the collector, then lets the signal do what it does without a
 * listener: the process ends. When the host has its own listener for the signal, the host's
 * shutdown decides when to exit. Returns a function that removes the listeners.
 *
 * A bare `process.on('SIGTERM', () => collector.close())` replaces Node's default exit, so the
 * API would go on answering and rollouts would hang.
 */
export function closeOnSignals(collector: Collector, { signals = ['SIGTERM', 'SIGINT'], timeoutMs = 5_000 }: CloseOnSignalsOptions = {}): () => void {
  const handlers = new Map<NodeJS.Signals, () => void>();
  const remove = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  for (const signal of signals) {
    const handler = () => {
      remove();
      void collector
        .close({ timeoutMs })
        .catch(() => undefined)
        .then(() => {
          if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
        });
    };
    handlers.set(signal, handler);
    process.once(signal, handler);
  }
  return remove;
}
