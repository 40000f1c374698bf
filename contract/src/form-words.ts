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
  nameEmpty(): string;
  nameTooLong(max: number): string;
  chooseChannelKind(): string;
  urlInvalid(): string;
  urlWithCredentials(): string;
  urlNeeded(): string;
  secretShort(min: number): string;
  secretLong(max: number): string;
  secretNeeded(): string;
  emailInvalid(): string;
  emailNeeded(): string;
  chooseMetric(): string;
  thresholdNumber(): string;
  windowDuration(): string;
  forDuration(): string;
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
  nameEmpty: () => 'Enter a name.',
  nameTooLong: (max) => `Keep the name under ${max} characters.`,
  chooseChannelKind: () => 'Choose webhook, Slack or email.',
  urlInvalid: () => 'Enter an http or https URL.',
  urlWithCredentials: () => 'Leave the user name and password out of the URL: the secret signs each delivery.',
  urlNeeded: () => 'Enter the URL to send to.',
  secretShort: (min) => `Use a secret of at least ${min} characters.`,
  secretLong: (max) => `Keep the secret under ${max} characters.`,
  secretNeeded: () => 'Enter a secret to sign each delivery with.',
  emailInvalid: () => 'Enter an email address such as ops@example.com.',
  emailNeeded: () => 'Enter the address to send to.',
  chooseMetric: () => 'Choose a metric.',
  thresholdNumber: () => 'Enter a threshold of 0 or more.',
  windowDuration: () => 'Enter a window such as 5m, 1h or 1d.',
  forDuration: () => 'Enter a duration such as 0m, 5m or 1h.',
};
