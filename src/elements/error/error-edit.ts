import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { ERROR_STATUSES } from '@ops-console/contract/enums';
import { msg, str } from '../../localize/localize.ts';
import { statusLabel } from '../../localize/words.ts';

export interface ErrorEditState {
  status: string;
  notes: string;
  saving: boolean;
  /** Why the last change was refused, shown with the reverted record. */
  failure: string | undefined;
  /** The record changed elsewhere since it loaded (412): the edit stays, Reload fetches the new version. */
  conflict: boolean;
  onReload: () => void;
  /** What the record says now, to tell whether there is anything to save. */
  current: { status: string; notes: string };
  onStatus: (status: string) => void;
  onNotes: (notes: string) => void;
  onSubmit: (event: SubmitEvent) => void;
}

/** Status and notes of an error record, saved with PATCH. */
export function renderErrorEdit(state: ErrorEditState) {
  const statuses: string[] = [...ERROR_STATUSES];
  if (!statuses.includes(state.current.status)) statuses.push(state.current.status);
  const changed = state.status !== state.current.status || state.notes !== state.current.notes;
  return html`<form part="edit" class="edit" @submit=${state.onSubmit}>
    <h3>${msg('Change', { id: 'error-edit-heading', desc: 'Heading of the form that changes an error record (a verb: make a change)' })}</h3>
    <label class="field">
      <span>${msg('Status')}</span>
      <select name="status" @change=${(e: Event) => state.onStatus((e.target as HTMLSelectElement).value)}>
        ${statuses.map((s) => html`<option value=${s} ?selected=${state.status === s}>${statusLabel(s)}</option>`)}
      </select>
    </label>
    <label class="field">
      <span>${msg('Notes')}</span>
      <textarea name="notes" maxlength="2000" .value=${live(state.notes)} @input=${(e: Event) => state.onNotes((e.target as HTMLTextAreaElement).value)}></textarea>
    </label>
    <p class="form-error" role="alert">
      ${
        state.conflict
          ? html`${msg('This record changed elsewhere. Your edit is kept: reload to see the latest version, then save again.')}
            <button class="button" type="button" @click=${state.onReload}>${msg('Reload')}</button>`
          : state.failure
            ? msg(str`The change was not saved: ${state.failure}`)
            : ''
      }
    </p>
    <button class="button button-primary" type="submit" ?disabled=${state.saving || !changed}>${state.saving ? msg('Saving…') : msg('Save changes')}</button>
  </form>`;
}
