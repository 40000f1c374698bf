import { html, nothing } from 'lit';
import { HTTP_METHODS } from '@ops-console/contract/enums';
import { msg } from '../../localize/localize.ts';

export type View = 'timeline' | 'summary';

export interface ToolbarState {
  view: View;
  method: string;
  status: string;
  path: string;
  q: string;
  customerId: string;
  keyId: string;
  live: boolean;
}

export interface ToolbarActions {
  statusInvalid: boolean;
  canExport: boolean;
  setView: (view: View) => void;
  setMethod: (method: string) => void;
  setStatus: (status: string) => void;
  setPath: (path: string) => void;
  setQuery: (q: string) => void;
  /** Absent in a customer's console: the token already names the customer. */
  setCustomer?: ((customerId: string) => void) | undefined;
  setKey: (keyId: string) => void;
  setLive: (live: boolean) => void;
  exportCsv: () => void;
}

const value = (event: Event) => (event.target as HTMLInputElement | HTMLSelectElement).value;

/** View switch (a radio group: arrow keys move between views), filters, live toggle and export. */
export function renderToolbar(state: ToolbarState, actions: ToolbarActions) {
  return html`<div part="toolbar" class="toolbar">
    <fieldset class="switch">
      <legend class="visually-hidden">${msg('View')}</legend>
      ${(['timeline', 'summary'] as const).map(
        (view) => html`<label class="switch-option">
          <input type="radio" name="view" value=${view} .checked=${state.view === view} @change=${() => actions.setView(view)} />
          <span>${view === 'timeline' ? msg('Timeline') : msg('Summary')}</span>
        </label>`,
      )}
    </fieldset>
    <label class="method">
      <span>${msg('Method')}</span>
      <select @change=${(e: Event) => actions.setMethod(value(e))}>
        <option value="" ?selected=${!state.method}>${msg('All')}</option>
        ${HTTP_METHODS.map((m) => html`<option value=${m} ?selected=${state.method === m}>${m}</option>`)}
      </select>
    </label>
    <label class="status-filter">
      <span>${msg('Status')}</span>
      <input
        class="status-input"
        type="text"
        inputmode="numeric"
        placeholder=${msg('500 or 5xx')}
        .value=${state.status}
        aria-invalid=${actions.statusInvalid ? 'true' : 'false'}
        aria-describedby="status-hint"
        @change=${(e: Event) => actions.setStatus(value(e).trim())}
      />
    </label>
    <span id="status-hint" class=${actions.statusInvalid ? 'hint invalid' : 'visually-hidden'}>${msg('A code such as 500, or a class such as 5xx.')}</span>
    <label class="search">
      <span>${msg('Search')}</span>
      <input type="search" placeholder=${msg('Order id, error code…')} .value=${state.q} @change=${(e: Event) => actions.setQuery(value(e).trim())} />
    </label>
    <label class="path-filter">
      <span>${msg('Path')}</span>
      <input type="search" placeholder="/messages" .value=${state.path} @change=${(e: Event) => actions.setPath(value(e).trim())} />
    </label>
    ${
      actions.setCustomer
        ? html`<label class="customer-filter">
          <span>${msg('Customer')}</span>
          <input type="search" .value=${state.customerId} @change=${(e: Event) => actions.setCustomer?.(value(e).trim())} />
        </label>`
        : nothing
    }
    <label class="key-filter">
      <span>${msg('Key')}</span>
      <input type="search" .value=${state.keyId} @change=${(e: Event) => actions.setKey(value(e).trim())} />
    </label>
    <label class="live-toggle">
      <input type="checkbox" .checked=${state.live} @change=${(e: Event) => actions.setLive((e.target as HTMLInputElement).checked)} />
      <span>${msg('Live')}</span>
    </label>
    <button type="button" class="button export" ?disabled=${!actions.canExport} @click=${actions.exportCsv}>${msg('Export CSV')}</button>
  </div>`;
}
