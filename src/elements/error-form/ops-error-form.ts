import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { checkInput, prepareInputCheck } from '../../api/check-input.ts';
import type { ErrorOptions, ErrorRecord, NewErrorRecord } from '../../api/schemas.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { Submission } from '../../shared/submission.ts';
import { EMPTY_VALUES, FIELDS, renderField, type Field, type FieldErrors, type FormValues } from './error-form-fields.ts';
import { styles } from './ops-error-form.styles.ts';
import { msg, str } from '../../localize/localize.ts';
import { errorTitle } from '../../localize/words.ts';

/** Stands in for the saved record's link inside the translated confirmation. */
const RECORD = '\uE000';

/**
 * The form that creates an error record. Validated with the contract's own schema before it
 * is sent; the server's 422 field errors land on the same fields. "Save error" posts once,
 * with one Idempotency-Key per submission reused on retry; typed values survive any failure.
 *
 * @summary New error form: validation, 422 mapping, idempotent save, no lost input.
 *
 * @fires {CustomEvent<ErrorRecordDetail>} ops-error-created - The record was saved; detail has the new record.
 * @fires {CustomEvent<CancelDetail>} ops-cancel - "Cancel" was pressed. Cancel the event to keep the form as it is and decide yourself; otherwise the person is asked before typed values are discarded.
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - The "Errors" crumb, `{ kind: 'errors', id: '' }`, or the saved record's title in the confirmation, `{ kind: 'error', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - The endpoint options failed to load.
 *
 * @csspart header - The breadcrumb and the title.
 * @csspart breadcrumb - The `Errors / New` trail.
 * @csspart form - The form.
 * @csspart actions - The Cancel and Save error buttons.
 *
 * @customElement ops-error-form
 */
export class OpsErrorForm extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Where the "Errors" crumb points (http(s) or relative; default: the wrapper's `routes.errors`, else `#errors`). */
  @property({ attribute: 'errors-href' }) errorsHref?: string;

  @state() private values: FormValues = { ...EMPTY_VALUES };
  @state() private errors: FieldErrors = {};
  @state() private confirmingDiscard = false;
  /** The record just created: the confirmation names it and links to it. */
  @state() private saved: ErrorRecord | undefined;
  private readonly submission = new Submission(this);

  private readonly options: DataTask<readonly [], ErrorOptions> = new DataTask(this, {
    args: () => [] as const,
    load: (client, _args, signal) => client.getErrorOptions({ signal }),
  });

  /** Whether anything differs from an empty form. */
  get dirty(): boolean {
    return FIELDS.some((field) => this.values[field] !== EMPTY_VALUES[field]);
  }

  /** Empties the form (after a host's own "discard?" dialog, say). */
  reset(): void {
    this.values = { ...EMPTY_VALUES };
    this.errors = {};
    this.confirmingDiscard = false;
    this.submission.reset();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void prepareInputCheck();
  }

  override render() {
    return html`${renderDetailHeader([{ target: this.listTarget('errors', this.errorsHref, 'errors-href'), label: msg('Errors') }, { label: msg('New') }], { navigate: this.navigate }, { title: msg('New error') })}
      <p class="hint">${msg('You can change these details later.')}</p>
      ${renderDataStates(this.options, { noun: msg('the form'), skeleton: ['fields'], skeletonRows: 6, empty: () => '', complete: (options) => this.renderForm(options.endpoints) })}`;
  }

  private renderForm(endpoints: readonly string[]) {
    const { submitting, error } = this.submission;
    const ctx = { values: this.values, errors: this.errors, endpoints, onInput: this.onInput, format: this.formatOptions };
    return html`<form part="form" novalidate @submit=${(e: SubmitEvent) => void this.save(e)}>
      ${FIELDS.map((field) => renderField(field, ctx))}
      <p class="form-error" role="alert">${error && !error.fieldErrors.length ? msg(str`The error was not saved. ${error.sentence} Your entries are kept; try again.`) : ''}</p>
      <p class="saved" role="status" ?hidden=${!this.saved}>${this.saved ? this.renderSaved(this.saved) : ''}</p>
      ${
        this.confirmingDiscard
          ? html`<p class="confirm" role="alert">
            ${msg('Discard what you entered?')}
            <button type="button" class="button" @click=${() => this.reset()}>${msg('Discard')}</button>
            <button type="button" class="button" @click=${() => (this.confirmingDiscard = false)}>${msg('Keep editing')}</button>
          </p>`
          : nothing
      }
      <div part="actions" class="actions">
        <button type="button" class="button" @click=${this.cancel}>${msg('Cancel')}</button>
        <button type="submit" class="button button-primary" ?disabled=${submitting} aria-disabled=${submitting ? 'true' : 'false'}>
          ${submitting ? msg('Saving…') : msg('Save error')}
        </button>
      </div>
    </form>`;
  }

  /** "Saved 500 Server error." with the title a drill-down to the new record. */
  private renderSaved(record: ErrorRecord) {
    const title = `${record.code} ${errorTitle(record)}`;
    // The sentence is translated as text with a marker where the link goes, wherever a language puts it.
    const [before, after = ''] = msg(str`Saved ${RECORD}.`).split(RECORD);
    return html`${before}${this.renderLink({ kind: 'error', id: record.id, label: title }, title)}${after}`;
  }

  private onInput = (field: Field, value: string) => {
    this.values = { ...this.values, [field]: value };
    this.saved = undefined;
    if (this.errors[field]) this.errors = { ...this.errors, [field]: undefined };
  };

  private toRecord(): unknown {
    const { code, endpoint, count, firstSeen, status, notes } = this.values;
    return {
      code: code === '' ? undefined : Number(code),
      endpoint,
      count: count.trim() === '' ? undefined : Number(count),
      firstSeen,
      status,
      ...(notes.trim() ? { notes } : {}),
    };
  }

  private async save(event: SubmitEvent) {
    event.preventDefault();
    if (this.submission.submitting) return; // a second click while the first is on its way
    const checked = checkInput('newErrorRecord', this.toRecord(), this.resolvedLocale);
    // In the click's own task once the schemas are here, so the form answers before the next frame.
    const parsed = checked instanceof Promise ? await checked : checked;
    if (!parsed.success) {
      this.showErrors(Object.fromEntries(parsed.issues.map((issue): [string, string] => [String(issue.path[0]), issue.message]).reverse()));
      return;
    }
    const client = this.client;
    if (!client) return;
    const record: NewErrorRecord = parsed.data;
    const created = await this.submission.run(record, (payload, idempotencyKey) => client.createError(payload, { idempotencyKey }));
    if (created) {
      this.values = { ...EMPTY_VALUES };
      this.errors = {};
      this.saved = created;
      this.emit('ops-error-created', { record: created });
    } else if (this.submission.error?.fieldErrors.length) {
      this.showErrors(Object.fromEntries(this.submission.error.fieldErrors.map((f) => [f.field, f.message])));
    }
  }

  /** Shows messages next to their fields and moves focus to the first field with a problem. */
  private showErrors(errors: Record<string, string>) {
    this.errors = Object.fromEntries(FIELDS.filter((f) => errors[f]).map((f) => [f, errors[f]]));
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  private cancel = () => {
    const proceed = this.emit('ops-cancel', { dirty: this.dirty, values: { ...this.values } }, { cancelable: true });
    if (proceed && this.dirty) this.confirmingDiscard = true;
  };
}
