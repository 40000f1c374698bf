import { html } from 'lit';

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
};

export const toneOf = (value: string): Tone => (Object.hasOwn(TONES, value) ? TONES[value]! : 'neutral');

/** A status badge: the raw text always, colour only as a second cue. */
export function renderBadge(value: string) {
  const tone = toneOf(value);
  return html`<span part="badge badge-${tone}" class="badge tone-${tone}" data-tone=${tone}>${value}</span>`;
}
