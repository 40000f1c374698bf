/** The body-reading worker thread of ./pool.ts: one task is one body. */
import { readBody, type ReadTask } from './read.ts';

export default (task: ReadTask) => readBody(task);
