/**
 * The contract's schemas (`@ops-console/contract/schemas`), with the words of the form schemas
 * in the page's language: a refused note or error record says what is wrong in the words of
 * `msg()` at the moment the form checks.
 */
import { formSchemas } from '@ops-console/contract/schemas';
import { msg, str } from '../localize/localize.ts';

export * from '@ops-console/contract/schemas';

export const { newNote, newErrorRecord, errorPatch } = formSchemas({
  noteEmpty: () => msg('Write a note first.'),
  notesTooLong: (max) => msg(str`Keep notes under ${max} characters.`),
  chooseError: () => msg('Choose an error.'),
  chooseEndpoint: () => msg('Choose an endpoint.'),
  countWhole: () => msg('Enter the count as a whole number.'),
  countNegative: () => msg('The count cannot be negative.'),
  firstSeenEmpty: () => msg('Enter the date it was first seen.'),
  firstSeenDate: () => msg('Enter a date such as 2026-09-14.'),
  chooseStatus: () => msg('Choose a status.'),
});
