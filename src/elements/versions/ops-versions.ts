import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { Deprecation, DeprecationCaller, Versions } from '../../api/schemas.ts';
import { formatDateTime, formatDayOf, formatDaysAhead, formatInteger, formatPercent } from '../../format/format.ts';
import { msg, str } from '../../localize/localize.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderBadge } from '../../shared/badge.ts';
import { renderFacts } from '../../shared/detail.ts';
import { renderExternalLink } from '../../shared/navigate.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { bucketAxis, RangedElement } from '../../shared/time-range.ts';
import { styles } from './ops-versions.styles.ts';

/**
 * The API versions callers name: each version's share of the requests over the last 30 days (or
 * the time range), and its requests bucket by bucket, as a chart and a table, with the day each
 * version's documentation was published. Requests that named no version are a row of their own.
 * Then each deprecated endpoint: its sunset, and the customers and keys still calling it, with
 * their requests and last call.
 *
 * @summary API versions and deprecations: requests per version, and who still calls what turns off.
 *
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the panel shows the error and Retry.
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A customer `{ kind: 'customer', id }` or an API key `{ kind: 'key', id }` still calling a deprecated endpoint was chosen (cancelable).
 *
 * @csspart chart - The requests of each version over time.
 * @csspart versions - The table of versions with their requests, shares and publication days.
 * @csspart deprecations - The deprecated endpoints, each with its callers.
 * @csspart callers - A table of the customers, or the keys, still calling a deprecated endpoint.
 *
 * @customElement ops-versions
 */
export class OpsVersions extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  private readonly data: DataTask<readonly [string], Versions> = new DataTask(this, {
    args: () => [JSON.stringify(this.timeRange)] as const,
    load: (client, _, signal) => client.getVersions({ signal }, this.timeRange),
    isEmpty: (answer) => !answer.versions.some((v) => v.requests) && !answer.deprecations?.length,
  });

  override render() {
    return renderDataStates(this.data, {
      noun: msg('API versions'),
      skeleton: ['chart', ['table', 4], 'title', 'facts', ['table', 3]],
      empty: () => msg('No requests in this time range.'),
      complete: (answer) => this.renderVersions(answer),
    });
  }

  private renderVersions({ window, starts, versions, deprecations }: Versions) {
    const format = this.formatOptions;
    const name = (version: string | null) => version ?? msg('No version');
    const chart = {
      type: 'bar' as const,
      ...bucketAxis(starts, window.bucket, format),
      // A published version nobody calls yet is a table row, not a flat line.
      series: versions.filter((v) => v.requests).map((v) => ({ name: name(v.version), values: v.perBucket })),
    };
    return html`<ops-chart
        part="chart"
        locale=${ifDefined(format.locale)}
        label=${msg('Requests by API version over time')}
        .data=${chart}
        .formatValue=${(v: number) => formatInteger(v, format)}
      ></ops-chart>
      <div class="scroller" role="region" aria-label=${msg('API versions')} tabindex="0">
        <table part="versions" class="stack">
          <thead>
            <tr>
              <th scope="col">${msg('Version')}</th>
              <th scope="col" class="num">${msg('Requests')}</th>
              <th scope="col" class="num">${msg('Share')}</th>
              <th scope="col">${msg('Published')}</th>
            </tr>
          </thead>
          <tbody>
            ${versions.map(
              (v) =>
                html`<tr>
                  <th scope="row" class=${v.version === null ? 'muted' : ''}>${name(v.version)}</th>
                  <td class="num">${formatInteger(v.requests, format)}</td>
                  <td class="num">${formatPercent(v.sharePct, format)}</td>
                  <td class="published">${v.publishedAt ? renderExternalLink(v.docsUrl, formatDayOf(v.publishedAt, format)) : '—'}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${
        deprecations?.length
          ? html`<section part="deprecations" class="deprecations">
            <h3>${msg('Deprecated endpoints')}</h3>
            ${deprecations.map((d) => this.renderDeprecated(d))}
          </section>`
          : nothing
      }`;
  }

  private renderDeprecated(d: Deprecation) {
    const format = this.formatOptions;
    const sunset = formatDayOf(d.sunsetAt, format);
    return html`<article class="deprecated">
      <h4>
        <span class="endpoint">${d.endpoint}</span>
        ${d.apiVersion === null ? nothing : html`<span class="version">${d.apiVersion}</span>`} ${renderBadge(d.turnedOff ? 'Turned off' : 'Deprecated')}
      </h4>
      ${renderFacts([
        [
          msg('Sunset'),
          d.turnedOff
            ? sunset
            : msg(str`${sunset}, ${formatDaysAhead(d.daysToSunset, format)}`, {
                id: 'sunset-ahead',
                desc: 'A sunset day and how far ahead: 14 Oct 2026, in 30 days',
              }),
        ],
        [msg('Requests'), formatInteger(d.requests, format)],
        ...(d.replacement === null ? [] : [[msg('Replacement'), d.replacement] as [string, unknown]]),
        ...(d.docsUrl === null ? [] : [[msg('Documentation'), renderExternalLink(d.docsUrl, msg('Migration guide'))] as [string, unknown]]),
      ])}
      <div class="callers">
        ${this.renderCallers(d, msg('Customers still calling'), msg('Customer'), d.customers, (c) =>
          this.renderLink({ kind: 'customer', id: c.id, label: c.name ?? c.id }, c.name ?? c.id),
        )}
        ${this.renderCallers(d, msg('Keys still calling'), msg('Key'), d.keys, (c) => this.renderLink({ kind: 'key', id: c.id, label: c.id }, c.id, 'key'))}
      </div>
    </article>`;
  }

  private renderCallers(d: Deprecation, title: string, noun: string, callers: readonly DeprecationCaller[], name: (caller: DeprecationCaller) => unknown) {
    const format = this.formatOptions;
    if (!callers.length) return html`<p class="none"><strong>${title}</strong> ${msg('No calls in this time range.')}</p>`;
    // Each region's name says which endpoint too: two deprecations' tables must not share one.
    const where = `${d.endpoint}${d.apiVersion === null ? '' : ` ${d.apiVersion}`}`;
    return html`<div>
      <h5>${title}</h5>
      <div class="scroller" role="region" aria-label=${`${title}: ${where}`} tabindex="0">
      <table part="callers" class="stack" aria-label=${title}>
        <thead>
          <tr>
            <th scope="col">${noun}</th>
            <th scope="col" class="num">${msg('Requests')}</th>
            <th scope="col">${msg('Last call')}</th>
          </tr>
        </thead>
        <tbody>
          ${callers.map(
            (c) =>
              html`<tr>
                <th scope="row">${name(c)}</th>
                <td class="num">${formatInteger(c.requests, format)}</td>
                <td class="when">${formatDateTime(c.lastCallAt, format)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div></div>`;
  }
}
