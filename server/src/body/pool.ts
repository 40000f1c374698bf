/**
 * Reads ingest and OTLP bodies off the server's event loop, in a pool of worker threads
 * (piscina): unpacking, parsing, decoding and checking up to 10 MB takes far longer than the
 * 50 ms any one request may hold the loop (only small plain batches are read on it). Each
 * worker's heap is capped, so a body that would take more memory than that ends its read with a
 * 413, not the server.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { readBody, type BatchRead, type OtlpRead, type ReadTask, type Refusal } from './read.ts';

// Run from source the worker is TypeScript (Node strips its types); once packed it is compiled.
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url).href;

/** A worker's heap, at most: a 10 MB body of the smallest events, parsed and checked, fits in it. */
const WORKER_HEAP_MB = 384;

/**
 * A body this small, sent unpacked, with this few objects (so few items to check, whatever they
 * hold: checking 500 bad ones takes some 7 ms), is read on the event loop. The common small
 * batch then never waits for a worker, and the workers (which run at a lower CPU priority than
 * the event loop) are left to the big bodies.
 */
const READ_INLINE = { bytes: 64 * 1024, objects: 500 };

/** Whether a body is small enough to read on the event loop. */
function readInline(task: ReadTask): boolean {
  if (task.kind === 'otlp' || task.body.length > READ_INLINE.bytes) return false;
  if ((task.contentEncoding ?? 'identity').trim().toLowerCase() !== 'identity') return false;
  let objects = 0;
  for (let at = task.body.indexOf(0x7b); at !== -1; at = task.body.indexOf(0x7b, at + 1)) if (++objects > READ_INLINE.objects) return false;
  return true;
}

/** Reads a body in a worker (the ingest handlers send one account's bodies one after another). */
export interface BodyReader {
  read(task: Extract<ReadTask, { kind: 'otlp' }>): Promise<OtlpRead | Refusal>;
  read(task: Exclude<ReadTask, { kind: 'otlp' }>): Promise<BatchRead<unknown> | Refusal>;
  close(): Promise<void>;
}

export function createBodyReader({ threads = Math.max(2, Math.min(4, availableParallelism())) } = {}): BodyReader {
  let pool: Piscina | undefined;
  const started = () =>
    (pool ??= new Piscina({
      filename: WORKER,
      minThreads: 0,
      maxThreads: threads,
      // A worker stays for the next batch a while, so a steady stream of batches does not pay its start each time.
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      // Below the event loop's priority (Linux; where it cannot be set, at the same): a stream of
      // 10 MB bodies takes a core, and the answers to every other account must not wait for it.
      niceIncrement: 10,
    }));
  return {
    async read(task: ReadTask) {
      if (readInline(task)) return readBody(task);
      try {
        return (await started().run(task, { transferList: [task.body.buffer as ArrayBuffer] })) as OtlpRead | BatchRead<unknown> | Refusal;
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_WORKER_OUT_OF_MEMORY') throw error;
        return { refused: 413, message: 'The body takes more memory to read than the server allows; send it in smaller batches.' } satisfies Refusal;
      }
    },
    async close() {
      await pool?.destroy();
    },
  } as BodyReader;
}
