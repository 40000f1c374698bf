/**
 * `load-validation.ts` for the eager one-file bundle: the validation code is in the file
 * already, so there is nothing to fetch (and no lazy module wrapper for the bundler to add).
 */
import * as validation from './validation.ts';

export type { Validation } from './load-validation.ts';

export const loadValidation = () => Promise.resolve(validation);
