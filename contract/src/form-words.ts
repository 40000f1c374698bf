/**
 * What a refused form field says. The elements give these in the page's language; the server
 * and anyone else without a translation get English.
 */
export interface FormWords {
  noteEmpty(): string;
  notesTooLong(max: number): string;
  chooseError(): string;
  chooseEndpoint(): string;
  countWhole(): string;
  countNegative(): string;
  firstSeenEmpty(): string;
  firstSeenDate(): string;
  chooseStatus(): string;
}

export const ENGLISH_FORM_WORDS: FormWords = {
  noteEmpty: () => 'Write a note first.',
  notesTooLong: (max) => `Keep notes under ${max} characters.`,
  chooseError: () => 'Choose an error.',
  chooseEndpoint: () => 'Choose an endpoint.',
  countWhole: () => 'Enter the count as a whole number.',
  countNegative: () => 'The count cannot be negative.',
  firstSeenEmpty: () => 'Enter the date it was first seen.',
  firstSeenDate: () => 'Enter a date such as 2026-09-14.',
  chooseStatus: () => 'Choose a status.',
};
