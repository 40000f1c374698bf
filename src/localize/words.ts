/**
 * Words for the contract's enum values. The API sends English values (`Healthy`, `Open`); a
 * person reads them in the element's language. A value this version does not know is shown as
 * sent, never dropped.
 */
import { ERROR_CATEGORIES, type ActivityKind } from '@ops-console/contract/enums';
import { msg } from './localize.ts';

const statusWords = (): Record<string, string> => ({
  Healthy: msg('Healthy'),
  Failing: msg('Failing'),
  Slow: msg('Slow'),
  Active: msg('Active'),
  Expired: msg('Expired'),
  Open: msg('Open'),
  Fixed: msg('Fixed'),
  Ignored: msg('Ignored'),
  Deprecated: msg('Deprecated'),
  'Turned off': msg('Turned off'),
  Idle: msg('Idle'),
  Revoked: msg('Revoked'),
  Unregistered: msg('Unregistered'),
  firing: msg('Firing'),
  pending: msg('Pending'),
  resolved: msg('Resolved'),
  ok: msg('OK'),
});

/** An endpoint, customer, webhook or error status as a person reads it. */
export function statusLabel(value: string): string {
  const words = statusWords();
  return Object.hasOwn(words, value) ? words[value]! : value;
}

const historyWords = (): Record<string, string> => ({
  Created: msg('Created'),
  'Updated details': msg('Updated details'),
  'Status changed': msg('Status changed'),
  'Note added': msg('Note added'),
  'Assigned owner': msg('Assigned owner'),
});

/** A history entry's kind (`Status changed`) as a person reads it. */
export function historyKindLabel(value: string): string {
  const words = historyWords();
  return Object.hasOwn(words, value) ? words[value]! : value;
}

/** The seed's error categories by code: `500` → `Server error`. */
export function errorCategoryTitle(code: number, fallback = ''): string {
  switch (code) {
    case 400:
      return msg('Bad request');
    case 401:
      return msg('Unauthorized');
    case 404:
      return msg('Not found');
    case 429:
      return msg('Too many requests');
    case 500:
      return msg('Server error');
    default:
      return fallback;
  }
}

/** An error record's title in the element's language when it is one of the seed's categories (`500 Server error`), else as the API sent it. */
export function errorTitle(record: { code: number; title: string }): string {
  const english = ERROR_CATEGORIES.find((category) => category.code === record.code)?.title;
  return english === record.title ? errorCategoryTitle(record.code, record.title) : record.title;
}

/** The activity feed's filter names. */
export function activityKindLabel(kind: ActivityKind): string {
  switch (kind) {
    case 'rate-limit-raised':
      return msg('Rate limit raised');
    case 'key-created':
      return msg('Key created');
    case 'error-spike':
      return msg('Error spike');
    case 'docs-published':
      return msg('Docs published');
    case 'endpoint-deprecated':
      return msg('Endpoint deprecated');
  }
}
