import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { ERROR_CATEGORIES, ERROR_STATUSES } from '@ops-console/contract/enums';
import { formatDate, type FormatOptions } from '../../format/format.ts';
import { msg } from '../../localize/localize.ts';
import { errorCategoryTitle, statusLabel } from '../../localize/words.ts';

export const FIELDS = ['code', 'endpoint', 'count', 'firstSeen', 'status', 'notes'] as const;
export type Field = (typeof FIELDS)[number];
export type FormValues = Record<Field, string>;
export type FieldErrors = Partial<Record<Field, string>>;

export const EMPTY_VALUES: FormValues = { code: '', endpoint: '', count: '', firstSeen: '', status: 'Open', notes: '' };

const labels = (): Record<Field, string> => ({
  code: msg('Error'),
  endpoint: msg('Endpoint'),
  count: msg('Count'),
  firstSeen: msg('First seen'),
  status: msg('Status'),
  notes: msg('Notes (optional)'),
});

interface FieldContext {
  values: FormValues;
  errors: FieldErrors;
  endpoints: readonly string[];
  onInput: (field: Field, value: string) => void;
  format: FormatOptions;
}

const valueOf = (event: Event) => (event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement).value;

/** One labelled field with its message; `aria-invalid` and `aria-describedby` tie them together. */
export function renderField(field: Field, ctx: FieldContext) {
  const error = ctx.errors[field];
  const common: { invalid: 'true' | 'false'; describedBy: string } = {
    invalid: error ? 'true' : 'false',
    // The browser draws a date field in its own locale's order (mm/dd/yyyy for en-US); the chosen day is read back under it as every date in the console is written.
    describedBy: field === 'firstSeen' && ctx.values.firstSeen ? `${field}-error ${field}-shown` : `${field}-error`,
  };
  const onInput = (event: Event) => ctx.onInput(field, valueOf(event));
  let control;
  switch (field) {
    case 'code':
      control = html`<select id="code" name="code" aria-invalid=${common.invalid} aria-describedby=${common.describedBy} @change=${onInput}>
        <option value="" ?selected=${!ctx.values.code}>${msg('Choose an error')}</option>
        ${ERROR_CATEGORIES.map((c) => html`<option value=${c.code} ?selected=${ctx.values.code === String(c.code)}>${c.code} ${errorCategoryTitle(c.code, c.title)}</option>`)}
      </select>`;
      break;
    case 'endpoint':
      control = html`<select id="endpoint" name="endpoint" aria-invalid=${common.invalid} aria-describedby=${common.describedBy} @change=${onInput}>
        <option value="" ?selected=${!ctx.values.endpoint}>${msg('Choose an endpoint')}</option>
        ${ctx.endpoints.map((e) => html`<option value=${e} ?selected=${ctx.values.endpoint === e}>${e}</option>`)}
      </select>`;
      break;
    case 'status':
      control = html`<select id="status" name="status" aria-invalid=${common.invalid} aria-describedby=${common.describedBy} @change=${onInput}>
        ${ERROR_STATUSES.map((s) => html`<option value=${s} ?selected=${ctx.values.status === s}>${statusLabel(s)}</option>`)}
      </select>`;
      break;
    case 'notes':
      control = html`<textarea id="notes" name="notes" maxlength="2000" aria-invalid=${common.invalid} aria-describedby=${common.describedBy} .value=${ctx.values.notes} @input=${onInput}></textarea>`;
      break;
    default:
      control = html`<input
        id=${field}
        name=${field}
        type=${field === 'count' ? 'number' : 'date'}
        min=${ifDefined(field === 'count' ? 0 : undefined)}
        step=${ifDefined(field === 'count' ? 1 : undefined)}
        inputmode=${ifDefined(field === 'count' ? 'numeric' : undefined)}
        aria-invalid=${common.invalid}
        aria-describedby=${common.describedBy}
        .value=${ctx.values[field]}
        @input=${onInput}
      />`;
  }
  return html`<div class="field" data-field=${field}>
    <label for=${field}>${labels()[field]}</label>
    ${control}
    ${field === 'firstSeen' && ctx.values.firstSeen ? html`<p id="firstSeen-shown" class="field-hint">${formatDate(ctx.values.firstSeen, ctx.format)}</p>` : nothing}
    <p id="${field}-error" class="field-error">${error ?? ''}</p>
  </div>`;
}
