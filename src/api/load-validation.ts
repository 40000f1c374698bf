/**
 * The contract's schemas (and zod with them), imported with the first request rather than with
 * the client: the script tag's core stays small, and the chunk downloads while the request is
 * under way. A failed import is tried again on the next call. (The eager bundle swaps this
 * module for `load-validation.eager.ts` at build time.)
 */
export type Validation = typeof import('./validation.ts');

let loading: Promise<Validation> | undefined;

export function loadValidation(): Promise<Validation> {
  loading ??= import('./validation.ts').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
