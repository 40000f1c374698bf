import type * as z from 'zod/mini';
import { loadValidation, type Validation } from './load-validation.ts';
import { renderInLocale } from '../localize/localize.ts';

type InputSchemas = Pick<Validation['schemas'], 'newNote' | 'newErrorRecord' | 'newAlertChannel' | 'newAlertRule'>;
export type InputCheck<N extends keyof InputSchemas> =
  { success: true; data: z.output<InputSchemas[N]> } | { success: false; issues: readonly { path: readonly PropertyKey[]; message: string }[] };

let loaded: Validation | undefined;

/**
 * Fetches the contract's schemas ahead of a form's first submit (a form calls it when it
 * connects; the element's first request brings the same chunk), so {@link checkInput} answers
 * in the same task as the click.
 */
export function prepareInputCheck(): Promise<unknown> {
  return loadValidation().then(
    (validation) => (loaded = validation),
    () => undefined, // checkInput says what happens then
  );
}

/**
 * Checks what a person typed with the contract's schema for it: at once when the schemas are
 * here, else once they have loaded. If they cannot be loaded, the value passes unchecked; the
 * write itself then stops before anything is sent and says the console's code could not load.
 */
export function checkInput<N extends keyof InputSchemas>(name: N, value: unknown, locale?: string): InputCheck<N> | Promise<InputCheck<N>> {
  // The messages are written in the language of the form that asks.
  const inLocale = (validation: Validation) => renderInLocale(locale, () => check(validation, name, value));
  if (loaded) return inLocale(loaded);
  return loadValidation().then(
    (validation) => inLocale((loaded = validation)),
    (): InputCheck<N> => ({ success: true, data: value as z.output<InputSchemas[N]> }),
  );
}

function check<N extends keyof InputSchemas>(validation: Validation, name: N, value: unknown): InputCheck<N> {
  const parsed = (validation.schemas[name] as z.ZodMiniType).safeParse(value);
  return parsed.success ? { success: true, data: parsed.data as z.output<InputSchemas[N]> } : { success: false, issues: parsed.error.issues };
}
