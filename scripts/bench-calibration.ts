/**
 * `npm run bench` only: the yardstick every element's paint time is divided by. A plain Lit
 * element that fetches the endpoints page and renders its rows as a table, with none of what the
 * elements add (validation, formatting, states, styles), measured the same way in the same page
 * and run. A machine twice as slow is twice as slow for both, so the ratio holds where the
 * milliseconds do not. Not shipped.
 */
import { html, LitElement } from 'lit';

interface Row {
  method: string;
  path: string;
  requests: number;
  p95Ms: number;
  errorPct: number;
  status: string;
}

export class BenchPlainList extends LitElement {
  static override properties = { apiBase: { attribute: 'api-base' }, rows: { state: true } };
  declare apiBase: string;
  declare rows: Row[];

  constructor() {
    super();
    this.apiBase = '';
    this.rows = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void fetch(`${this.apiBase}/endpoints`)
      .then((response) => response.json() as Promise<{ items: Row[] }>)
      .then((page) => (this.rows = page.items));
  }

  override render() {
    return html`<table>
      ${this.rows.map(
        (row) => html`<tr>
          <td>${row.method}</td>
          <td>${row.path}</td>
          <td>${row.requests}</td>
          <td>${row.p95Ms}</td>
          <td>${row.errorPct}</td>
          <td>${row.status}</td>
        </tr>`,
      )}
    </table>`;
  }
}
customElements.define('bench-plain-list', BenchPlainList);
