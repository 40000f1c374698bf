import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Note } from '../../api/schemas.ts';
import { formatDate, type FormatOptions } from '../../format/format.ts';
import type { Submission } from '../../shared/submission.ts';
import { msg, str } from '../../localize/localize.ts';

export interface NotesFormState {
  text: string;
  /** A problem with the text itself: from validation here, or the server's 422. */
  fieldError: string | undefined;
  submission: Submission;
  onInput: (text: string) => void;
  onSubmit: (event: SubmitEvent) => void;
}

/** The notes of a customer, or exactly "No notes yet.", and the form that adds one. */
export function renderNotes(notes: readonly Note[], form: NotesFormState, format: FormatOptions) {
  const { submission, fieldError } = form;
  return html`<section part="notes" aria-labelledby="notes-title">
    <h3 id="notes-title">${msg('Notes')}</h3>
    ${
      notes.length
        ? html`<ul class="notes">
          ${notes.map(
            (note) => html`<li class="note" data-id=${note.id}>
              <p class="note-text">${note.text}</p>
              <p class="muted">${msg(str`${note.author.name}, ${formatDate(note.createdAt, format)}`, { desc: 'Who and when: Ana Silva, 14 Sep 2026' })}</p>
            </li>`,
          )}
        </ul>`
        : html`<p class="muted no-notes">${msg('No notes yet.')}</p>`
    }
    <form class="note-form" @submit=${form.onSubmit} novalidate>
      <label for="note-text">${msg('Add a note')}</label>
      <textarea
        id="note-text"
        name="text"
        maxlength="2000"
        .value=${live(form.text)}
        aria-invalid=${fieldError ? 'true' : 'false'}
        aria-describedby="note-error"
        @input=${(e: Event) => form.onInput((e.target as HTMLTextAreaElement).value)}
      ></textarea>
      <p id="note-error" class="form-error" role="alert">${fieldError ?? (submission.error ? msg(str`Could not add the note. ${submission.error.sentence}`) : '')}</p>
      <button class="button button-primary" type="submit" ?disabled=${submission.submitting}>${submission.submitting ? msg('Adding…') : msg('Add note')}</button>
    </form>
  </section>`;
}
