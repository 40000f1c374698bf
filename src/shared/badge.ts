import { html } from 'lit';
import { statusLabel } from '../localize/words.ts';

export type Tone = 'success' | 'warning' | 'danger' | 'neutral';

/** Tones of the known enum values; anything else (a value added later by the server) is neutral. */
const TONES: Record<string, Tone> = {
  Healthy: 'success',
  Active: 'success',
  Fixed: 'success',
  Slow: 'warning',
  Open: 'warning',
  Failing: 'danger',
  Expired: 'danger',
  Ignored: 'neutral',
  Deprecated: 'warning',
  'Turned off': 'danger',
  Idle: 'neutral',
  Revoked: 'danger',
  Unregistered: 'warning',
  firing: 'danger',
  pending: 'warning',
  resolved: 'success',
  ok: 'success',
};

export const toneOf = (value: string): Tone => (Object.hasOwn(TONES, value) ? TONES[value]! : 'neutral');

/** A status badge: the status in words always (in the element's language), colour only as a second cue. */
export function renderBadge(value: string) {
  const tone = toneOf(value);
  return html`<span part="badge badge-${tone}" class="badge tone-${tone}" data-tone=${tone}>${statusLabel(value)}</span>`;
}

/** Tone of an HTTP status code by class: 2xx success, 4xx warning, 5xx danger, others neutral. */
export function toneOfStatusCode(code: number): Tone {
  const statusClass = Math.floor(code / 100);
  return statusClass === 2 ? 'success' : statusClass === 4 ? 'warning' : statusClass === 5 ? 'danger' : 'neutral';
}

export function renderStatusCode(code: number) {
  const tone = toneOfStatusCode(code);
  return html`<span part="badge badge-${tone}" class="badge tone-${tone}" data-tone=${tone}>${code}</span>`;
}
