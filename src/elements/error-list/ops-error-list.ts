import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ErrorQuery } from '../../api/client.ts';
import { ERROR_SORTS, ERROR_STATUSES, type ErrorSort, type ErrorStatus } from '@ops-console/contract/enums';
import { saveVersioned } from '../../shared/versioned-edit.ts';
import type { ErrorRecord } from '../../api/schemas.ts';
import { formatDate, formatInteger } from '../../format/format.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { renderListTable } from '../../shared/list-table.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { apiSort } from '../../shared/table.ts';
import { styles } from './ops-error-list.styles.ts';
import { msg, str } from '../../localize/localize.ts';
import { errorTitle, statusLabel } from '../../localize/words.ts';

const LIMIT: NumberRule = { tag: 'ops-error-list', attribute: 'limit', fallback: 20, min: 1, max: 500, integer: true };
/** Most records kept as "Load more" adds pages. */
const MAX_ROWS = 10_000;
/** Unset, the API lists the newest recorded first, which no column shows. */
const SORT = apiSort('ops-error-list', ERROR_SORTS);

/** A row's status change: the record as saved here, the status being saved, or why it was not. */
interface RowEdit {
  saved?: ErrorRecord | undefined;
  saving?: string | undefined;
  problem?: string | undefined;
}

/** A row as shown: the record (or the edit saved over it), its title and the edit in flight. */
interface ShownRecord {
  id: string;
  record: ErrorRecord;
  edit: RowEdit | undefined;
  title: string;
}

/**
 * The error records: status filter, sorting by count or first seen (by the API), "Load more",
 * each record a drill-down, and its status changed right in the list with the same rules as
 * `<ops-error>` (only the status is sent, with `If-Match`; shown at once, reverted with the
 * reason if refused; a record changed elsewhere shows what it is now).
 *
 * @summary Error record list with status filter, sorting and status changes in place.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A record `{ kind: 'error', id }`, its endpoint `{ kind: 'endpoint', id }` or "New error" `{ kind: 'new-error', id: '' }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the list shows the error and Retry.
 * @fires {CustomEvent<SortDetail>} ops-sort - The person sorted by a column; detail `{ sort }` (`-count`, `firstSeen`, …), also reflected in the `sort` attribute.
 * @fires {CustomEvent<ErrorRecordDetail>} ops-error-updated - A status change was saved; detail has the updated record.
 *
 * @csspart base - The panel.
 * @csspart toolbar - The row holding the status filter and "New error".
 * @csspart new-error - The "New error" link.
 * @csspart table - The table.
 * @csspart row - A table row of one record.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @customElement ops-error-list
 */
export class OpsErrorList extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Show only records with this status (`Open`, `Fixed`, `Ignored`); empty shows all. */
  @property({ reflect: true }) status: ErrorStatus | '' = '';

  /** Show only the records of this endpoint, by its label (`POST /webhooks`); the endpoint page sets it. */
  @property({ reflect: true }) endpoint = '';

  /** Order: `count`, `-count`, `firstSeen` or `-firstSeen` (`-`: most or newest first); empty is newest recorded first. */
  @property({ reflect: true }) sort: ErrorSort | '' = '';

  /** Records per page, 1–500; another value falls back to 20 with a warning. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  /** Where "New error" points (http(s) or relative; default: the wrapper's `routes['new-error']`, else `#new-error`). */
  @property({ attribute: 'new-error-href' }) newErrorHref?: string;

  @state() private edits: ReadonlyMap<string, RowEdit> = new Map();

  /** The first page the edits were made on: a newer one (a reload, another filter or tenant) shows the records as they are. */
  #editedPage: unknown;

  private readonly list: ListController<ErrorQuery, ErrorRecord> = new ListController<ErrorQuery, ErrorRecord>(this, {
    query: () => ({
      status: this.status || undefined,
      endpoint: this.endpoint.trim() || undefined,
      sort: SORT.known(this.sort),
      limit: validNumber(LIMIT, this.limit),
    }),
    load: (client, query, { cursor }, signal) => client.listErrors({ ...query, cursor }, { signal }),
    cap: MAX_ROWS,
  });

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('sort')) SORT.warnIfUnknown(this.sort);
    const page = this.list.first.value;
    if (page !== this.#editedPage) {
      this.#editedPage = page;
      if (this.edits.size) this.edits = new Map();
    }
  }

  override render() {
    return html`<div part="base" class="base">
      ${this.renderToolbar()}
      ${renderDataStates(this.list.first, {
        noun: msg('error records'),
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 6),
        empty: () =>
          this.status
            ? msg(str`No ${statusLabel(this.status)} error records.`)
            : this.endpoint.trim()
              ? msg(str`No error records for ${this.endpoint.trim()}.`)
              : msg('No error records yet.'),
        complete: (_page, busy) => this.renderTable(busy),
      })}
    </div>`;
  }

  private renderToolbar() {
    return html`<div part="toolbar" class="toolbar">
      <label>
        <span>${msg('Status')}</span>
        <select .value=${this.status} @change=${(e: Event) => (this.status = (e.target as HTMLSelectElement).value as ErrorStatus | '')}>
          <option value="" ?selected=${!this.status}>${msg('All statuses')}</option>
          ${ERROR_STATUSES.map((s) => html`<option value=${s} ?selected=${this.status === s}>${statusLabel(s)}</option>`)}
        </select>
      </label>
      ${this.renderLink({ ...this.listTarget('new-error', this.newErrorHref, 'new-error-href'), label: msg('New error') }, msg('New error'), 'button new-error', 'new-error')}
    </div>`;
  }

  private renderTable(busy: boolean) {
    const format = this.formatOptions;
    return renderListTable({
      label: msg('Error records'),
      rows: this.list.items,
      view: (row): ShownRecord => {
        const edit = this.edits.get(row.id);
        // An edit saved here is shown until the list brings the record at least as new.
        const record = edit?.saved && (edit.saved.version ?? 0) >= (row.version ?? 0) ? edit.saved : row;
        return { id: row.id, record, edit, title: `${record.code} ${errorTitle(record)}` };
      },
      host: this,
      sorter: SORT,
      busy,
      more: this.list.renderMore(),
      columns: [
        { label: msg('Error'), cell: ({ id, title }) => this.renderLink({ kind: 'error', id, label: title }, title, 'row-link') },
        {
          label: msg('Endpoint'),
          className: 'wide',
          cell: ({ record }) => {
            const endpointId = record.relatedEndpoints.find((r) => r.label === record.endpoint)?.id;
            return endpointId
              ? this.renderLink({ kind: 'endpoint', id: endpointId, label: record.endpoint }, record.endpoint, 'link mono')
              : html`<span class="mono">${record.endpoint}</span>`;
          },
        },
        { label: msg('Count'), sort: { key: 'count' }, numeric: true, cell: ({ record }) => formatInteger(record.count, format) },
        { label: msg('First seen'), sort: { key: 'firstSeen' }, cell: ({ record }) => formatDate(record.firstSeen, format) },
        { label: msg('Status'), className: 'status wide', labelled: false, cell: ({ record, title, edit }) => this.renderStatus(record, title, edit) },
      ],
    });
  }

  private renderStatus(record: ErrorRecord, title: string, edit: RowEdit | undefined) {
    const shown = edit?.saving ?? record.status;
    // A status this version does not know is still shown as the record's, not replaced by the first option.
    const statuses = (ERROR_STATUSES as readonly string[]).includes(record.status) ? ERROR_STATUSES : [...ERROR_STATUSES, record.status];
    // Busy, not disabled, while saving: disabling the control in use would drop the keyboard's focus.
    const saving = edit?.saving !== undefined;
    return html`<select
        aria-label=${msg(str`Status of ${title}`)}
        aria-busy=${saving ? 'true' : 'false'}
        aria-disabled=${saving ? 'true' : 'false'}
        .value=${shown}
        @change=${(e: Event) => {
          if (saving) {
            (e.target as HTMLSelectElement).value = shown;
            return;
          }
          void this.changeStatus(record, (e.target as HTMLSelectElement).value);
        }}
      >
        ${statuses.map((s) => html`<option value=${s} ?selected=${shown === s}>${statusLabel(s)}</option>`)}
      </select>
      ${edit?.problem ? html`<p class="row-problem" role="alert">${edit.problem}</p>` : nothing}`;
  }

  private edit(id: string, edit: RowEdit) {
    this.edits = new Map(this.edits).set(id, edit);
  }

  /** Saves one record's new status: shown at once, kept when saved, reverted with the reason when not. */
  private async changeStatus(record: ErrorRecord, status: string) {
    const client = this.client;
    if (!client || status === record.status) return;
    const previous = this.edits.get(record.id)?.saved;
    this.edit(record.id, { saved: previous, saving: status });
    const result = await saveVersioned({
      send: () => client.patchError(record.id, { status }, { version: record.version }),
      read: () => client.getError(record.id),
      applied: (current) => current.status === status,
    });
    if (result.kind === 'saved') this.accept(result.record);
    else if (result.kind === 'conflict' && result.current) {
      const current = result.current;
      this.edit(record.id, {
        saved: current,
        problem: msg(str`Not saved: someone changed this record meanwhile. It is now ${statusLabel(current.status)}; choose again to change it.`),
      });
    } else if (result.kind === 'conflict') {
      // The record moved on and could not be read: only a fresh list has its new version.
      this.list.reload();
    } else {
      const { problem } = result;
      this.edit(record.id, { saved: previous, problem: msg(str`Not saved: ${problem.sentence}`) });
    }
  }

  private accept(record: ErrorRecord) {
    this.edit(record.id, { saved: record });
    this.emit('ops-error-updated', { record });
    // A record that left the filtered status leaves the list: the pages after it start one record earlier now.
    if (this.status && record.status !== this.status) this.list.reload();
  }
}
