import type * as z from 'zod/mini';
import { loadValidation, type Validation } from './load-validation.ts';

type InputSchemas = Pick<Validation['schemas'], 'newNote' | 'newErrorRecord'>;
export type InputCheck<N extends keyof InputSchemas> =
  { success: true; data: z.output<InputSchemas[N]> } | { success: false; issues: readonly { path: readonly PropertyKey[]; message: string }[] };

/**
 * Checks what a person typed with the contract's schema for it (loaded with the element's first
 * request, so it is here by the time anyone submits). If the schemas cannot be loaded, the value
 * goes to the server unchecked: the server checks it with the same rules and its 422 lands on
 * the same fields.
 */
export async function checkInput<N extends keyof InputSchemas>(name: N, value: unknown): Promise<InputCheck<N>> {
  let schema: z.ZodMiniType;
  try {
    schema = (await loadValidation()).schemas[name];
  } catch {
    return { success: true, data: value as z.output<InputSchemas[N]> };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data as z.output<InputSchemas[N]> } : { success: false, issues: parsed.error.issues };
}
