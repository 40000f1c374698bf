import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { fromWallClock, wallClock } from '@ops-console/contract/calendar';
import { TIME_RANGES } from '@ops-console/contract/enums';
import { MAX_WINDOW_DAYS } from '@ops-console/contract/time-window';
import { msg } from '../../localize/localize.ts';
import type { RangeDetail } from '../../shared/events.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { checkedRange, rangeLabel } from '../../shared/time-range.ts';
import { styles } from './ops-time-range.styles.ts';

/** The select's value for "choose from and to". */
const CUSTOM = 'custom';

/**
 * The time range control: the last hour, 24 hours, 7 days, 30 days or 12 months, or a custom
 * from–to in the configured time zone. Inside `<ops-console>` it shows the wrapper's range, and a
 * choice changes the range of every element inside (the routed console also puts it in the
 * address); alone, it keeps the choice in its own `range`, `from` and `to`.
 *
 * @summary Time range control: last hour … last 12 months, or a custom from–to.
 *
 * @fires {CustomEvent<RangeDetail>} ops-range-change - A range was chosen: `{ range }`, `{ from, to }` (ISO timestamps), or `{}` for the default periods. Cancelable (before `<ops-console>` hears it: a capture listener on the wrapper or above), and the wrapper then keeps its range.
 *
 * @csspart base - The form.
 * @csspart select - The range select.
 * @csspart custom - The from and to fields with Apply, shown for a custom range.
 *
 * @customElement ops-time-range
 */
export class OpsTimeRange extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The chosen named range: `1h`, `24h`, `7d`, `30d` or `12m`; unset, the wrapper's range (or the default periods). */
  @property({ reflect: true }) range?: string;

  /** Start of the chosen custom range, an ISO timestamp (with `to`). */
  @property() from?: string;

  /** End of the chosen custom range, exclusive, an ISO timestamp (with `from`). */
  @property() to?: string;

  /** Set while the person fills in a custom range that is not applied yet. */
  @state() private editingCustom = false;
  @state() private problem = '';

  /** The range last shown, so a change from outside (back, forward, the host) ends an unapplied custom edit. */
  #shownKey = '';

  protected override willUpdate(): void {
    const key = JSON.stringify(this.shown);
    if (key !== this.#shownKey) {
      this.#shownKey = key;
      this.editingCustom = false;
      this.problem = '';
    }
  }

  /** The range shown: its own, else the wrapper's. */
  private get shown(): RangeDetail {
    const own = this.from || this.to || this.range ? { range: this.range, from: this.from, to: this.to } : this.consoleConfig?.range;
    return checkedRange(own, this.localName);
  }

  /** The zone the custom fields are in: the configured one, else the browser's. */
  private get zone(): string {
    return this.formatOptions.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  }

  override render() {
    const shown = this.shown;
    const custom = this.editingCustom || !!shown.from;
    const selected = custom ? CUSTOM : (shown.range ?? '');
    return html`<form part="base" @submit=${this.onApply} novalidate>
      <label
        >${msg('Time range')}
        <select part="select" @change=${this.onSelect}>
          <option value="" .selected=${selected === ''}>${msg('Default periods')}</option>
          ${TIME_RANGES.map((range) => html`<option value=${range} .selected=${selected === range}>${rangeLabel(range)}</option>`)}
          <option value=${CUSTOM} .selected=${selected === CUSTOM}>${rangeLabel(undefined)}</option>
        </select>
      </label>
      ${custom ? this.renderCustom(shown) : nothing}
      <p class="error" role="alert">${this.problem}</p>
    </form>`;
  }

  private renderCustom(shown: RangeDetail) {
    const wall = (iso: string | undefined) => (iso ? wallClock(Date.parse(iso), this.zone) : '');
    return html`<span part="custom" class="custom" role="group" aria-label=${rangeLabel(undefined)}>
      <label>${msg('From')} <input type="datetime-local" name="from" .value=${wall(shown.from)} aria-invalid=${this.problem ? 'true' : 'false'} /></label>
      <label>${msg('To')} <input type="datetime-local" name="to" .value=${wall(shown.to)} aria-invalid=${this.problem ? 'true' : 'false'} /></label>
      <button class="button" type="submit">${msg('Apply')}</button>
    </span>`;
  }

  private onSelect = (event: Event): void => {
    const value = (event.target as HTMLSelectElement).value;
    this.problem = '';
    if (value === CUSTOM) {
      // The fields appear; nothing changes until they are applied.
      this.editingCustom = true;
      return;
    }
    this.editingCustom = false;
    this.choose(value ? { range: value } : {});
  };

  private onApply = (event: SubmitEvent): void => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const read = (name: string) => fromWallClock((form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '', this.zone);
    const from = read('from');
    const to = read('to');
    if (from === undefined || to === undefined) this.problem = msg('Choose both a start and an end.');
    else if (from >= to) this.problem = msg('Choose a start before the end.');
    else if (to - from > MAX_WINDOW_DAYS * 86_400_000) this.problem = msg('Choose a range of at most ten years.');
    else {
      this.problem = '';
      this.editingCustom = false;
      this.choose({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    }
  };

  /** Tells the page; inside `<ops-console>` the wrapper applies it, alone the control keeps it itself. */
  private choose(detail: RangeDetail): void {
    const applied = this.emit('ops-range-change', detail, { cancelable: true });
    if (!applied || this.consoleConfig) return;
    this.range = detail.range;
    this.from = detail.from;
    this.to = detail.to;
  }
}
