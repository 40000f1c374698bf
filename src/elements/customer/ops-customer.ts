import { html, type PropertyValues } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { property, state } from 'lit/decorators.js';
import { checkInput, prepareInputCheck } from '../../api/check-input.ts';
import type { Customer, HistoryItem, Note, RateLimit } from '../../api/schemas.ts';
import { formatDate, formatDateTime, formatInteger, formatPercent, type FormatOptions } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader, renderFacts, renderPerson, renderRelatedEndpoints } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { RangedElement } from '../../shared/time-range.ts';
import { renderDataStates } from '../../shared/states.ts';
import { Submission } from '../../shared/submission.ts';
import { renderNotes } from './customer-notes.ts';
import { styles } from './ops-customer.styles.ts';
import { msg, str } from '../../localize/localize.ts';
import { historyKindLabel } from '../../localize/words.ts';

/** The limit, and the busiest minute against it: its requests, their share of the limit, and when. */
function rateLimitFacts({ requestsPerMinute: limit, peakPerMinute: peak, peakAt }: RateLimit, format: FormatOptions): [string, unknown][] {
  const count = formatInteger(peak, format);
  const share = limit ? formatPercent((peak / limit) * 100, format) : '';
  const headline = limit
    ? msg(str`${count} (${share} of the limit)`, { desc: 'The busiest minute’s requests against the rate limit: 588 (98.0% of the limit)' })
    : count;
  return [
    [msg('Rate limit'), limit === null ? msg('None set') : msg(str`${formatInteger(limit, format)} a minute`, { desc: 'A rate limit: 600 a minute' })],
    [msg('Busiest minute'), peakAt ? html`${headline}<div class="when">${formatDateTime(peakAt, format)}</div>` : '—'],
  ];
}

/**
 * A customer's page: key facts, related endpoints, the customer's API keys, traffic and latest
 * requests (the key list, the traffic panel and the request log filtered to it, over the time
 * range), notes (with a form to add one) and history.
 *
 * @summary Customer detail with notes and history.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A related endpoint `{ kind: 'endpoint', id }`, one of its API keys `{ kind: 'key', id }`, or the "Customers" crumb `{ kind: 'customers', id: '' }` where the host has a customers page. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the page shows the error and Retry.
 *
 * @csspart header - The breadcrumb, the title and the status badge beside it.
 * @csspart breadcrumb - The `Customers / <name>` trail.
 * @csspart facts - The label/value list of key facts.
 * @csspart related - The related endpoints.
 * @csspart notes - The notes section and its form.
 * @csspart history - The history list.
 *
 * @customElement ops-customer
 */
export class OpsCustomer extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The customer to show. */
  @property({ attribute: 'customer-id' }) customerId = '';

  /** Where the "Customers" crumb points (http(s) or relative; default: the wrapper's `routes.customers`; without either the crumb is plain text). */
  @property({ attribute: 'customers-href' }) customersHref?: string;

  /** Notes and history items added on this page since the record loaded. */
  @state() private added: { notes: Note[]; history: HistoryItem[] } = { notes: [], history: [] };
  /** Unsent note drafts by customer id: a draft belongs to the customer it was typed for. */
  @state() private drafts: ReadonlyMap<string, string> = new Map();
  @state() private noteInvalid: string | undefined;
  private readonly noteSubmission = new Submission(this);

  private readonly data: DataTask<readonly [string], Customer> = new DataTask(this, {
    args: () => [this.customerId] as const,
    load: (client, [id], signal) => client.getCustomer(id, { signal }),
  });

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('customerId')) {
      this.added = { notes: [], history: [] };
      this.noteInvalid = undefined;
      this.noteSubmission.reset();
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void prepareInputCheck();
  }

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this customer'),
      notFound: {
        title: msg('Customer not found.'),
        message: msg(str`No customer has the id “${this.customerId}”. It may have been deleted, or the link may be wrong.`),
      },
      skeleton: ['title', 'facts', ['lines', 2], 'figures', 'chart', ['table', 6], ['table', 11], ['fields', 1], ['lines', 5]],
      empty: () => '',
      complete: (customer) => this.renderCustomer(customer),
    });
  }

  private renderCustomer(customer: Customer) {
    const format = this.formatOptions;
    const range = this.timeRange;
    const notes = [...this.added.notes, ...customer.notes];
    const history = [...this.added.history, ...customer.history].sort((a, b) => b.at.localeCompare(a.at));
    return html`${renderDetailHeader(
      [{ label: msg('Customers'), target: this.customersTarget() }, { label: customer.name }],
      { navigate: this.navigate },
      { status: renderBadge(customer.status) },
    )}
      ${renderFacts([
        [msg('Created', { id: 'customer-created-on', desc: 'Label of the date the customer was created on' }), formatDate(customer.createdAt, format)],
        [msg('Plan'), customer.plan],
        [msg('Requests'), formatInteger(customer.requests, format)],
        [msg('Errors'), formatPercent(customer.errorPct, format)],
        [msg('Account owner'), renderPerson(customer.owner)],
        ...(customer.rateLimit ? rateLimitFacts(customer.rateLimit, format) : []),
        ...(customer.throttled === undefined ? [] : [[msg('429s'), formatInteger(customer.throttled, format)] as [string, unknown]]),
      ])}
      <h3>${msg('Related endpoints')}</h3>
      ${renderRelatedEndpoints({ related: customer.relatedEndpoints, format }, { link: (target, label, className) => this.renderLink(target, label, className) })}
      <h3>${msg('API keys')}</h3>
      <ops-key-list
        customer-id=${customer.id}
        hide-filter
        sort="name"
        limit="10"
        range=${ifDefined(range.range)}
        from=${ifDefined(range.from)}
        to=${ifDefined(range.to)}
        api-base=${ifDefined(this.apiBase)}
        locale=${ifDefined(this.locale)}
        time-zone=${ifDefined(this.timeZone)}
        theme=${ifDefined(this.theme)}
      ></ops-key-list>
      <h3>${msg('Traffic')}</h3>
      <ops-traffic
        customer-id=${customer.id}
        range=${ifDefined(range.range)}
        from=${ifDefined(range.from)}
        to=${ifDefined(range.to)}
        api-base=${ifDefined(this.apiBase)}
        locale=${ifDefined(this.locale)}
        time-zone=${ifDefined(this.timeZone)}
        theme=${ifDefined(this.theme)}
      ></ops-traffic>
      <h3>${msg('Latest requests')}</h3>
      <ops-request-log
        customer-id=${customer.id}
        limit="20"
        range=${ifDefined(range.range)}
        from=${ifDefined(range.from)}
        to=${ifDefined(range.to)}
        api-base=${ifDefined(this.apiBase)}
        locale=${ifDefined(this.locale)}
        time-zone=${ifDefined(this.timeZone)}
        theme=${ifDefined(this.theme)}
      ></ops-request-log>
      ${renderNotes(
        notes,
        {
          text: this.drafts.get(this.customerId) ?? '',
          fieldError: this.noteInvalid ?? this.noteSubmission.error?.fieldErrors.find((f) => f.field === 'text')?.message,
          submission: this.noteSubmission,
          onInput: (text) => this.setDraft(this.customerId, text),
          onSubmit: (event) => void this.addNote(event),
        },
        format,
      )}
      <section part="history" aria-labelledby="history-title">
        <h3 id="history-title">${msg('History')}</h3>
        <ol class="history">
          ${history.map(
            (item) => html`<li>
              <p class="history-kind">${historyKindLabel(item.kind)}</p>
              <p class="muted">${msg(str`${item.actor.name}, ${formatDate(item.at, format)}`, { desc: 'Who and when: Ana Silva, 14 Sep 2026' })}</p>
            </li>`,
          )}
        </ol>
      </section>`;
  }

  /** "Customers" links only where the host has a customers page (`customers-href` or `routes.customers`); hosts from before it existed get plain text. */
  private customersTarget() {
    return this.customersHref || this.hrefFor({ kind: 'customers', id: '' }) ? this.listTarget('customers', this.customersHref, 'customers-href') : undefined;
  }

  private setDraft(customerId: string, text: string) {
    const drafts = new Map(this.drafts);
    if (text) drafts.set(customerId, text);
    else drafts.delete(customerId);
    this.drafts = drafts;
  }

  private addNote = async (event: SubmitEvent) => {
    event.preventDefault();
    const customerId = this.customerId;
    const checked = checkInput('newNote', { text: this.drafts.get(customerId) ?? '' }, this.resolvedLocale);
    // In the click's own task once the schemas are here, so the form answers before the next frame.
    const parsed = checked instanceof Promise ? await checked : checked;
    this.noteInvalid = parsed.success ? undefined : (parsed.issues[0]?.message ?? msg('Write a note first.'));
    if (!parsed.success) {
      this.shadowRoot?.querySelector('textarea')?.focus();
      return;
    }
    const client = this.client;
    if (!client) return;
    // The customer is part of the payload: the same text for another customer is another note.
    const note = await this.noteSubmission.run({ customerId, note: parsed.data }, (payload, idempotencyKey) =>
      client.addNote(payload.customerId, payload.note, { idempotencyKey }),
    );
    if (!note) return;
    this.setDraft(customerId, '');
    if (customerId !== this.customerId) return;
    this.added = {
      notes: [note, ...this.added.notes],
      history: [{ kind: 'Note added', actor: note.author, at: note.createdAt }, ...this.added.history],
    };
  };
}
