/**
 * The contract's schemas (`@ops-console/contract/schemas`), with the words of the form schemas
 * in the page's language: a refused note, error record, alert channel or rule says what is wrong in the words of
 * `msg()` at the moment the form checks.
 */
import { formSchemas } from '@ops-console/contract/schemas';
import { msg, str } from '../localize/localize.ts';

export * from '@ops-console/contract/schemas';

export const { newNote, newErrorRecord, errorPatch, newAlertChannel, newAlertRule } = formSchemas({
  noteEmpty: () => msg('Write a note first.'),
  notesTooLong: (max) => msg(str`Keep notes under ${max} characters.`),
  chooseError: () => msg('Choose an error.'),
  chooseEndpoint: () => msg('Choose an endpoint.'),
  countWhole: () => msg('Enter the count as a whole number.'),
  countNegative: () => msg('The count cannot be negative.'),
  firstSeenEmpty: () => msg('Enter the date it was first seen.'),
  firstSeenDate: () => msg('Enter a date such as 2026-09-14.'),
  chooseStatus: () => msg('Choose a status.'),
  nameEmpty: () => msg('Enter a name.'),
  nameTooLong: (max) => msg(str`Keep the name under ${max} characters.`),
  chooseChannelKind: () => msg('Choose webhook, Slack or email.'),
  urlInvalid: () => msg('Enter an http or https URL.'),
  urlWithCredentials: () => msg('Leave the user name and password out of the URL: the secret signs each delivery.'),
  urlNeeded: () => msg('Enter the URL to send to.'),
  secretShort: (min) => msg(str`Use a secret of at least ${min} characters.`),
  secretLong: (max) => msg(str`Keep the secret under ${max} characters.`),
  secretNeeded: () => msg('Enter a secret to sign each delivery with.'),
  emailInvalid: () => msg('Enter an email address such as ops@example.com.'),
  emailNeeded: () => msg('Enter the address to send to.'),
  chooseMetric: () => msg('Choose a metric.'),
  thresholdNumber: () => msg('Enter a threshold of 0 or more.'),
  windowDuration: () => msg('Enter a window such as 5m, 1h or 1d.'),
  forDuration: () => msg('Enter a duration such as 0m, 5m or 1h.'),
});
