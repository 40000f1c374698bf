import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { ALERT_CHANNEL_KINDS, ALERT_METRICS } from '@ops-console/contract/enums';
import { checkInput, prepareInputCheck } from '../../api/check-input.ts';
import { toConsoleError } from '../../api/errors.ts';
import type { AlertChannel, AlertNotification, AlertRule } from '../../api/schemas.ts';
import { msg, str } from '../../localize/localize.ts';
import { alertValue } from '../../shared/alert-value.ts';
import { renderBadge } from '../../shared/badge.ts';
import { DataTask } from '../../shared/data-task.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { Submission } from '../../shared/submission.ts';
import { styles } from './ops-alert-rules.styles.ts';

type Errors = Record<string, string>;
const value = (form: HTMLFormElement, name: string) => (new FormData(form).get(name) as string | null)?.trim() ?? '';
const errorsOf = (issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors =>
  Object.fromEntries(issues.map((i) => [String(i.path[0] ?? 'form'), i.message]));

/**
 * Where alerts go and what raises them: the channels (a signed webhook, Slack or email) with
 * "Send test", and the rules with their condition now. Both forms are checked with the
 * contract's schemas before they are sent, and the server's 422 field errors land on the same
 * fields. Writes need an editor's token.
 *
 * @summary Alert rules and channels: add, remove, and send a test notification.
 *
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the panel shows the error and Retry.
 *
 * @csspart base - The panel.
 * @csspart channels - The list of channels.
 * @csspart channel - One channel.
 * @csspart rules - The list of rules.
 * @csspart rule - One rule.
 * @csspart channel-form - The form that adds a channel.
 * @csspart rule-form - The form that adds a rule.
 * @csspart badge - A rule's state badge.
 *
 * @customElement ops-alert-rules
 */
export class OpsAlertRules extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The channels and the rules, loaded (and retried) together: one panel, one Retry. */
  private readonly data: DataTask<readonly [], { channels: AlertChannel[]; rules: AlertRule[] }> = new DataTask(this, {
    args: () => [] as const,
    load: async (client, _args, signal) => {
      const [channels, rules] = await Promise.all([client.listAlertChannels({ signal }), client.listAlertRules({ signal })]);
      return { channels: channels.items, rules: rules.items };
    },
  });

  private readonly channelSubmission = new Submission(this);
  private readonly ruleSubmission = new Submission(this);
  @state() private channelErrors: Errors = {};
  @state() private ruleErrors: Errors = {};
  @state() private kind: (typeof ALERT_CHANNEL_KINDS)[number] = 'webhook';
  /** Each channel's last test: `sending`, its outcome, or why it could not be sent. */
  @state() private tests: Record<string, AlertNotification | string> = {};
  /** Why the last Remove failed (a viewer's token, the network). */
  @state() private removeFailure: string | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void prepareInputCheck();
  }

  override render() {
    return html`<div part="base" class="base">
      ${this.removeFailure ? html`<p class="form-error" role="alert">${this.removeFailure}</p>` : nothing}
      ${renderDataStates(this.data, {
        noun: msg('alert channels'),
        skeleton: ['title', ['list', 1], 'fields', 'title', ['list', 1], 'fields', 'fields'],
        empty: () => '',
        complete: ({ channels, rules }) => html`<h3>${msg('Channels')}</h3>
          ${channels.length ? this.renderChannels(channels) : html`<p part="empty" class="muted">${msg('No channels yet.')}</p>`}
          ${this.renderChannelForm()}
          <h3>${msg('Rules')}</h3>
          ${rules.length ? this.renderRules(rules) : html`<p class="muted">${msg('No rules yet.')}</p>`} ${this.renderRuleForm(channels)}`,
      })}
    </div>`;
  }

  private renderChannels(items: AlertChannel[]) {
    return html`<ul part="channels" class="items" aria-label=${msg('Channels')}>
      ${items.map(
        (channel) => html`<li part="channel" class="item" data-id=${channel.id}>
          <strong class="item-name">${channel.name}</strong>
          <span class="muted">${kindLabel(channel.kind)}</span>
          <span class="target">${channel.url ?? channel.to ?? ''}</span>
          <span class="actions">
            <button class="button" type="button" ?disabled=${this.tests[channel.id] === 'sending'} @click=${() => void this.sendTest(channel)}>${msg('Send test')}</button>
            <button class="button" type="button" @click=${() => void this.removeOne('channel', channel.id)}>${msg('Remove')}</button>
            <span class="test-result" role="status">${this.testWords(channel.id)}</span>
          </span>
        </li>`,
      )}
    </ul>`;
  }

  private testWords(id: string) {
    const test = this.tests[id];
    if (test === undefined || test === 'sending') return test === 'sending' ? msg('Sending…') : nothing;
    if (typeof test === 'string') return test;
    return test.status === 'delivered' ? msg('Test delivered.') : msg(str`Test failed: ${test.error ?? ''}`);
  }

  private renderRules(items: AlertRule[]) {
    const format = this.formatOptions;
    return html`<ul part="rules" class="items" aria-label=${msg('Rules')}>
      ${items.map(
        (rule) => html`<li part="rule" class="item" data-id=${rule.id}>
          <strong class="item-name">${rule.name}</strong> ${renderBadge(rule.state)}
          <span class="condition">
            ${msg(
              str`${metricLabel(rule.metric)} ${rule.metric === 'requestsBelow' ? '<' : '>'} ${alertValue(rule.metric, rule.threshold, format)} over ${rule.window}`,
              {
                desc: 'A rule’s condition: Error rate > 5.0% over 5m',
              },
            )}
          </span>
          <span class="value">${rule.value === null ? nothing : msg(str`Now ${alertValue(rule.metric, rule.value, format)}`, { desc: 'A rule’s value at its last evaluation: Now 6.8%' })}</span>
          <span class="actions"><button class="button" type="button" @click=${() => void this.removeOne('rule', rule.id)}>${msg('Remove')}</button></span>
        </li>`,
      )}
    </ul>`;
  }

  /** A labelled field (`id`) with its error, found under `key` (the field's name in the schema). */
  private field(id: string, label: string, errors: Errors, input: unknown, key = id) {
    return html`<div class="field">
      <label for=${id}>${label}</label>
      ${input}
      ${errors[key] ? html`<p id=${`${key}-error`} class="form-error">${errors[key]}</p>` : nothing}
    </div>`;
  }

  /** The form's own message: what failed, and any error no field shows; nothing at all without one. */
  private formError(...parts: string[]) {
    const text = parts.filter(Boolean).join(' ');
    return text ? html`<p class="form-error" role="alert">${text}</p>` : nothing;
  }

  /** Errors no field of the form shows (a 422 about something else): said with the form's own message. */
  private unplaced(errors: Errors, fields: readonly string[]) {
    return Object.entries(errors)
      .filter(([key]) => !fields.includes(key))
      .map(([, message]) => message)
      .join(' ');
  }

  private renderChannelForm() {
    const errors = this.channelErrors;
    const invalid = (name: string) => (errors[name] ? 'true' : 'false');
    return html`<form part="channel-form" novalidate @submit=${this.addChannel}>
      <h4>${msg('Add a channel')}</h4>
      ${this.field(
        'kind',
        msg('Kind'),
        errors,
        html`<select id="kind" name="kind" @change=${(e: Event) => (this.kind = (e.target as HTMLSelectElement).value as typeof this.kind)}>
          ${ALERT_CHANNEL_KINDS.map((k) => html`<option value=${k} ?selected=${this.kind === k}>${kindLabel(k)}</option>`)}
        </select>`,
      )}
      ${this.field('name', msg('Name'), errors, html`<input id="name" name="name" aria-invalid=${invalid('name')} />`)}
      ${
        this.kind === 'email'
          ? this.field('to', msg('Email address'), errors, html`<input id="to" name="to" type="email" aria-invalid=${invalid('to')} />`)
          : this.field(
              'url',
              msg('URL'),
              errors,
              html`<input id="url" name="url" type="url" placeholder="https://hooks.example.com/ops" aria-invalid=${invalid('url')} />`,
            )
      }
      ${
        this.kind === 'webhook'
          ? this.field(
              'secret',
              msg('Signing secret'),
              errors,
              html`<input id="secret" name="secret" type="password" autocomplete="off" aria-invalid=${invalid('secret')} />`,
            )
          : nothing
      }
      ${this.formError(this.channelSubmission.error ? msg(str`The channel was not added. ${this.channelSubmission.error.sentence}`) : '', this.unplaced(errors, ['kind', 'name', 'url', 'to', 'secret']))}
      <div class="actions">
        <button class="button button-primary" type="submit" ?disabled=${this.channelSubmission.submitting}>${msg('Add channel')}</button>
      </div>
    </form>`;
  }

  private renderRuleForm(channels: AlertChannel[]) {
    const errors = this.ruleErrors;
    const invalid = (name: string) => (errors[name] ? 'true' : 'false');
    return html`<form part="rule-form" novalidate @submit=${this.addRule}>
      <h4>${msg('Add a rule')}</h4>
      ${this.field('rule-name', msg('Name'), errors, html`<input id="rule-name" name="name" aria-invalid=${invalid('name')} />`, 'name')}
      ${this.field(
        'metric',
        msg('Metric'),
        errors,
        html`<select id="metric" name="metric">
          ${ALERT_METRICS.map((m) => html`<option value=${m}>${metricLabel(m)}</option>`)}
        </select>`,
      )}
      ${this.field('threshold', msg('Threshold'), errors, html`<input id="threshold" name="threshold" type="number" min="0" step="0.01" aria-invalid=${invalid('threshold')} />`)}
      ${this.field('window', msg('Window'), errors, html`<input id="window" name="window" value="5m" aria-invalid=${invalid('window')} />`)}
      ${this.field('for', msg('For'), errors, html`<input id="for" name="for" value="0m" aria-invalid=${invalid('for')} />`)}
      ${this.field('endpointId', msg('Endpoint id (optional)'), errors, html`<input id="endpointId" name="endpointId" placeholder="ep_…" />`)}
      <fieldset>
        <legend>${msg('Send to')}</legend>
        ${
          channels.length
            ? channels.map((c) => html`<label class="check"><input type="checkbox" name="channelIds" value=${c.id} /> ${c.name}</label>`)
            : html`<p class="muted">${msg('Add a channel first to be told.')}</p>`
        }
      </fieldset>
      ${this.formError(this.ruleSubmission.error ? msg(str`The rule was not added. ${this.ruleSubmission.error.sentence}`) : '', this.unplaced(errors, ['name', 'metric', 'threshold', 'window', 'for', 'endpointId']))}
      <div class="actions">
        <button class="button button-primary" type="submit" ?disabled=${this.ruleSubmission.submitting}>${msg('Add rule')}</button>
      </div>
    </form>`;
  }

  private addChannel = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const kind = value(form, 'kind');
    const input = {
      kind,
      name: value(form, 'name'),
      ...(kind === 'email' ? { to: value(form, 'to') || undefined } : { url: value(form, 'url') || undefined }),
      ...(kind === 'webhook' ? { secret: value(form, 'secret') || undefined } : {}),
    };
    const checked = await checkInput('newAlertChannel', input, this.resolvedLocale);
    this.channelErrors = checked.success ? {} : errorsOf(checked.issues);
    if (!checked.success) return;
    const created = await this.channelSubmission.run(checked.data, (data, idempotencyKey) => this.client!.createAlertChannel(data, { idempotencyKey }));
    this.channelErrors = Object.fromEntries(this.channelSubmission.error?.fieldErrors.map((f) => [f.field, f.message]) ?? []);
    if (created) {
      form.reset();
      this.kind = 'webhook';
      void this.data.run();
    }
  };

  private addRule = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const endpointId = value(form, 'endpointId');
    const threshold = value(form, 'threshold');
    const input = {
      name: value(form, 'name'),
      metric: value(form, 'metric'),
      threshold: threshold === '' ? undefined : Number(threshold),
      window: value(form, 'window'),
      for: value(form, 'for'),
      scope: endpointId ? { endpointId } : {},
      channelIds: data.getAll('channelIds').map(String),
    };
    const checked = await checkInput('newAlertRule', input, this.resolvedLocale);
    this.ruleErrors = checked.success ? {} : errorsOf(checked.issues);
    if (!checked.success) return;
    const created = await this.ruleSubmission.run(checked.data, (rule, idempotencyKey) => this.client!.createAlertRule(rule, { idempotencyKey }));
    // The server names `scope.endpointId`; the form's field is `endpointId`.
    this.ruleErrors = Object.fromEntries(this.ruleSubmission.error?.fieldErrors.map((f) => [f.field.replace(/^scope\./, ''), f.message]) ?? []);
    if (created) {
      form.reset();
      void this.data.run();
    }
  };

  private async sendTest(channel: AlertChannel) {
    this.tests = { ...this.tests, [channel.id]: 'sending' };
    try {
      const outcome = await this.client!.testAlertChannel(channel.id);
      this.tests = { ...this.tests, [channel.id]: outcome };
    } catch (error) {
      this.tests = { ...this.tests, [channel.id]: msg(str`Test not sent: ${(error as Error).message}`) };
    }
  }

  private async removeOne(what: 'channel' | 'rule', id: string) {
    this.removeFailure = undefined;
    try {
      await (what === 'channel' ? this.client!.deleteAlertChannel(id) : this.client!.deleteAlertRule(id));
      void this.data.run();
    } catch (error) {
      this.removeFailure = msg(str`It was not removed. ${toConsoleError(error).sentence}`);
    }
  }
}

function kindLabel(kind: string): string {
  return kind === 'webhook' ? msg('Webhook') : kind === 'slack' ? msg('Slack') : kind === 'email' ? msg('Email') : kind;
}

function metricLabel(metric: string): string {
  switch (metric) {
    case 'errorRate':
      return msg('Error rate');
    case 'p95':
      return msg('P95 latency');
    case 'p99':
      return msg('P99 latency');
    case 'requestsAbove':
      return msg('Requests above');
    case 'requestsBelow':
      return msg('Requests below');
    case 'spike':
      return msg('Spike against four weeks');
    default:
      return metric;
  }
}
