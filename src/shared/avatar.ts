import { html } from 'lit';
import { initials } from '../format/format.ts';
import type { Person } from '../api/schemas.ts';

/** Initials in a circle; decorative, because the name is always written next to it. */
export function renderAvatar(person: Person) {
  return html`<span part="avatar" class="avatar" aria-hidden="true">${initials(person)}</span>`;
}
