import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { Versions } from '../../api/schemas.ts';
import { formatInteger, formatPercent } from '../../format/format.ts';
import { msg } from '../../localize/localize.ts';
import { DataTask } from '../../shared/data-task.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { bucketAxis, RangedElement } from '../../shared/time-range.ts';
import { styles } from './ops-versions.styles.ts';

/**
 * The API versions callers name: each version's share of the requests over the last 30 days (or
 * the time range), and its requests bucket by bucket, as a chart and a table. Requests that
 * named no version are a row of their own.
 *
 * @summary API versions: requests per version over a time range, with shares.
 *
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the panel shows the error and Retry.
 *
 * @csspart chart - The requests of each version over time.
 * @csspart versions - The table of versions with their requests and shares.
 *
 * @customElement ops-versions
 */
export class OpsVersions extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  private readonly data: DataTask<readonly [string], Versions> = new DataTask(this, {
    args: () => [JSON.stringify(this.timeRange)] as const,
    load: (client, _, signal) => client.getVersions({ signal }, this.timeRange),
    isEmpty: (answer) => !answer.versions.length,
  });

  override render() {
    return renderDataStates(this.data, {
      noun: msg('API versions'),
      skeleton: ['chart', 'table'],
      empty: () => msg('No requests in this time range.'),
      complete: (answer) => this.renderVersions(answer),
    });
  }

  private renderVersions({ window, starts, versions }: Versions) {
    const format = this.formatOptions;
    const name = (version: string | null) => version ?? msg('No version');
    const chart = {
      type: 'bar' as const,
      ...bucketAxis(starts, window.bucket, format),
      series: versions.map((v) => ({ name: name(v.version), values: v.perBucket })),
    };
    return html`<ops-chart
        part="chart"
        locale=${ifDefined(format.locale)}
        label=${msg('Requests by API version over time')}
        .data=${chart}
        .formatValue=${(v: number) => formatInteger(v, format)}
      ></ops-chart>
      <div class="scroller" role="region" aria-label=${msg('API versions')} tabindex="0">
        <table part="versions">
          <thead>
            <tr>
              <th scope="col">${msg('Version')}</th>
              <th scope="col" class="num">${msg('Requests')}</th>
              <th scope="col" class="num">${msg('Share')}</th>
            </tr>
          </thead>
          <tbody>
            ${versions.map(
              (v) =>
                html`<tr>
                  <th scope="row" class=${v.version === null ? 'muted' : ''}>${name(v.version)}</th>
                  <td class="num">${formatInteger(v.requests, format)}</td>
                  <td class="num">${formatPercent(v.sharePct, format)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
  }
}
