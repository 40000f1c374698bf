import { html, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ErrorPatch, ErrorRecord } from '../../api/schemas.ts';
import { formatDate, formatInteger } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { type ConsoleApiError } from '../../api/errors.ts';
import { saveVersioned } from '../../shared/versioned-edit.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader, renderFacts, renderPerson, renderRelatedEndpoints } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { countChart, RangedElement } from '../../shared/time-range.ts';
import { renderDataStates } from '../../shared/states.ts';
import { renderErrorEdit } from './error-edit.ts';
import { styles } from './ops-error.styles.ts';
import { msg, str } from '../../localize/localize.ts';
import { errorTitle } from '../../localize/words.ts';
import { ifDefined } from 'lit/directives/if-defined.js';

/**
 * An error record's page, titled `<code> <title>` (e.g. `500 Server error`) with its status;
 * status and notes can be changed.
 *
 * @summary Error record detail with status/notes editing (PATCH) and monthly series.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - Breadcrumb `{ kind: 'errors', id: '' }` or related endpoint. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the page shows the error and Retry.
 * @fires {CustomEvent<ErrorRecordDetail>} ops-error-updated - A change was saved; detail has the updated record.
 *
 * @csspart header - The breadcrumb, the title and the status badge beside it.
 * @csspart breadcrumb - The `Errors / <code> <title>` trail.
 * @csspart facts - The label/value list of key facts.
 * @csspart related - The related endpoints.
 * @csspart edit - The status and notes form.
 *
 * @customElement ops-error
 */
export class OpsError extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The error record to show. */
  @property({ attribute: 'error-id' }) errorId = '';

  /** Where the "Errors" crumb points (http(s) or relative; default: the wrapper's `routes.errors`, else `#errors`). */
  @property({ attribute: 'errors-href' }) errorsHref?: string;

  /** The record as last saved here; it replaces the loaded one. */
  @state() private saved: ErrorRecord | undefined;
  /** A change on its way: shown at once, reverted if refused. */
  @state() private optimistic: ErrorPatch | undefined;
  @state() private failure: ConsoleApiError | undefined;
  /** The server refused the change because the record changed elsewhere (412): offer Reload, keep the edit. */
  @state() private conflict = false;
  /** Only the fields the person changed: a field they did not touch follows the record (after a Reload too), so saving never sends back a stale value over someone else's change. */
  @state() private draft: Draft | undefined;

  private readonly data: DataTask<readonly [string, string], ErrorRecord> = new DataTask(this, {
    args: () => [this.errorId, JSON.stringify(this.timeRange)] as const,
    load: (client, [id], signal) => client.getError(id, { signal }, this.timeRange),
  });

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('errorId')) {
      this.saved = this.optimistic = this.failure = this.draft = undefined;
      this.conflict = false;
    }
  }

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this error record'),
      notFound: {
        title: msg('Error record not found.'),
        message: msg(str`No error record has the id “${this.errorId}”. It may have been deleted, or the link may be wrong.`),
      },
      skeleton: ['title', 'facts', ['fields', 2], ['lines', 1], 'chart'],
      empty: () => '',
      complete: (loaded) => this.renderRecord(loaded),
    });
  }

  private renderRecord(loaded: ErrorRecord) {
    const format = this.formatOptions;
    const base = this.saved?.id === loaded.id ? this.saved : loaded;
    const record: ErrorRecord = { ...base, ...this.optimistic, notes: this.optimistic?.notes !== undefined ? this.optimistic.notes : base.notes };
    const title = `${record.code} ${errorTitle(record)}`;
    // The chart is the loaded answer's: a saved change (the PATCH answer) carries no time range.
    const monthly = countChart(loaded.monthly, loaded, msg('Occurrences'), format);
    // Over a range, a bucket leads to the requests it counts: its endpoint's, answered with its code, in that time.
    const endpointId = loaded.relatedEndpoints.find((r) => r.label === loaded.endpoint)?.id;
    const links =
      loaded.window && loaded.countsOverTime && endpointId
        ? this.bucketLinks(loaded.countsOverTime.starts, loaded.window, monthly.categories, { endpointId, status: String(loaded.code) })
        : undefined;
    return html`${renderDetailHeader([{ label: msg('Errors'), target: this.listTarget('errors', this.errorsHref, 'errors-href') }, { label: title }], { navigate: this.navigate }, { status: renderBadge(record.status) })}
      ${renderFacts([
        [msg('Endpoint'), html`<span class="mono">${record.endpoint}</span>`],
        [msg('Count'), formatInteger(record.count, format)],
        [msg('First seen'), formatDate(record.firstSeen, format)],
        [msg('Account owner'), renderPerson(record.owner)],
      ])}
      ${renderErrorEdit({
        status: this.draft?.status ?? base.status,
        notes: this.draft?.notes ?? base.notes ?? '',
        saving: this.optimistic !== undefined,
        failure: this.failure?.sentence,
        conflict: this.conflict,
        onReload: this.reload,
        current: { status: base.status, notes: base.notes ?? '' },
        // Read the draft at event time: two edits can land before the next render.
        onStatus: (status) => this.edit('status', status, base.status),
        onNotes: (notes) => this.edit('notes', notes, base.notes ?? ''),
        onSubmit: (event) => void this.save(event, base, this.draft ?? {}),
      })}
      <h3>${msg('Related endpoints')}</h3>
      ${renderRelatedEndpoints({ related: record.relatedEndpoints, format }, { link: (target, label, className) => this.renderLink(target, label, className) })}
      <h3>${loaded.countsOverTime ? msg('Occurrences over time') : msg('Monthly occurrences')}</h3>
      <ops-chart locale=${ifDefined(format.locale)} label=${loaded.countsOverTime ? msg('Occurrences over time') : msg('Occurrences per month')} .data=${monthly}
        .categoryLink=${links?.link}
        @ops-chart-select=${(event: CustomEvent<{ index: number }>) => links?.open(event.detail.index)}
        .formatValue=${(v: number) => formatInteger(v, format)}></ops-chart>`;
  }

  /** A field typed back to the record's value is no longer an edit: it follows the record again (after a Reload too). */
  private edit(field: keyof Draft, value: string, saved: string) {
    const { [field]: _, ...rest } = this.draft ?? {};
    const draft: Draft = value === saved ? rest : { ...rest, [field]: value };
    this.draft = Object.keys(draft).length ? draft : undefined;
  }

  private async save(event: SubmitEvent, base: ErrorRecord, draft: Draft) {
    event.preventDefault();
    const client = this.client;
    if (!client || this.optimistic) return;
    const patch: ErrorPatch = {};
    if (draft.status !== undefined && draft.status !== base.status) patch.status = draft.status;
    if (draft.notes !== undefined && draft.notes !== (base.notes ?? '')) patch.notes = draft.notes.trim() ? draft.notes : null;
    if (!Object.keys(patch).length) return;
    const id = base.id;
    this.failure = undefined;
    this.conflict = false;
    this.optimistic = patch;
    try {
      const result = await saveVersioned({
        send: () => client.patchError(id, patch, { version: base.version }),
        read: () => client.getError(id),
        applied: (record) => applied(record, patch),
      });
      if (id !== this.errorId) return;
      if (result.kind === 'saved') this.accept(result.record);
      else if (result.kind === 'conflict') this.conflict = true;
      else this.failure = result.problem;
    } finally {
      if (id === this.errorId) this.optimistic = undefined;
    }
  }

  private accept(record: ErrorRecord) {
    this.saved = record;
    this.draft = undefined;
    this.emit('ops-error-updated', { record });
  }

  /** Loads the record as it is now; the person's edit stays in the form. */
  private reload = () => {
    this.conflict = false;
    this.saved = undefined;
    this.data.retry();
  };
}

/** The fields of the edit form the person changed. */
interface Draft {
  status?: string;
  notes?: string;
}

/** Whether `record` already carries every part of `patch`. */
function applied(record: ErrorRecord, patch: ErrorPatch): boolean {
  return (patch.status === undefined || record.status === patch.status) && (patch.notes === undefined || record.notes === patch.notes);
}
