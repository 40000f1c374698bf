import { html } from 'lit';
import { changeDirection, formatChange, type FormatOptions } from '../format/format.ts';
import { msg, str } from '../localize/localize.ts';

const ARROWS = { up: '▲', down: '▼', flat: '▬' } as const;
const words = () => ({ up: msg('Up'), down: msg('Down'), flat: msg('No change') });

/** Whether a change is good news, bad news or neither for a figure (`riseIsGood`: more requests yes, more errors no). */
export function changeTone(changePct: number | null | undefined, riseIsGood: boolean | null): 'good' | 'bad' | 'flat' {
  const direction = changeDirection(changePct);
  return direction === 'flat' || riseIsGood === null ? 'flat' : (direction === 'up') === riseIsGood ? 'good' : 'bad';
}

/**
 * `▲ +12.5%`, its direction in words for screen readers, coloured good or bad for this figure
 * (`riseIsGood: false` for errors and latency; `null` when neither, e.g. bandwidth). Without a
 * change (`null` from the API or `undefined`: nothing to compare), a dash, not a "0.0%" that would claim one.
 */
export function renderChange(changePct: number | null | undefined, riseIsGood: boolean | null, format: FormatOptions, suffix: string = msg('vs last month')) {
  if (changePct === null || changePct === undefined) {
    return html`<p class="change tone-flat" data-direction="none">—<span class="visually-hidden">${msg(str`No comparison ${suffix}`)}</span></p>`;
  }
  const direction = changeDirection(changePct);
  const tone = changeTone(changePct, riseIsGood);
  return html`<p class="change tone-${tone}" data-direction=${direction} data-tone=${tone}>
    <span aria-hidden="true">${ARROWS[direction]}</span>
    <span class="visually-hidden">${words()[direction]}</span>
    ${formatChange(changePct, format)}
    ${suffix ? html`<span class="versus">${suffix}</span>` : ''}
  </p>`;
}
