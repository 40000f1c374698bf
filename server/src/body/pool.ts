/**
 * Reads ingest and OTLP bodies off the server's event loop, in a pool of worker threads
 * (piscina): unpacking, parsing, decoding and checking up to 10 MB takes far longer than the
 * 50 ms any one request may hold the loop. Each worker's heap is capped, so a body that would
 * take more memory than that ends its read with a 413, not the server.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { BatchRead, OtlpRead, ReadTask, Refusal } from './read.ts';

// Run from source the worker is TypeScript (Node strips its types); once packed it is compiled.
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url).href;

/** A worker's heap, at most: a 10 MB body of the smallest events, parsed and checked, fits in it. */
const WORKER_HEAP_MB = 384;

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
    }));
  return {
    async read(task: ReadTask) {
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
