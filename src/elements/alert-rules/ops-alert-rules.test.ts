import { expect } from '@open-wc/testing';
import { http } from 'msw';
import { problem } from '../../../mocks/problem.ts';
import { $, $$, text, waitFor } from '../../../test/dom.ts';
import { mount } from '../../../test/harness.ts';
import { useMockApi } from '../../../test/mock-api.ts';
import './define.ts';
import type { OpsAlertRules } from './ops-alert-rules.ts';

const rowNames = (el: Element, list: string) => $$(el, `[part="${list}"] .item-name`).map((name) => text(name));
const loaded = (el: Element) => waitFor(() => rowNames(el, 'rules').length && rowNames(el, 'channels').length, 'both tables');
function fill(form: HTMLFormElement, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    const input = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`)!;
    input.value = value;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

describe('ops-alert-rules', () => {
  const api = useMockApi();

  it('lists the channels and the rules with their condition and state', async () => {
    const el = await mount<OpsAlertRules>('ops-alert-rules');
    await loaded(el);
    expect(rowNames(el, 'channels')).to.deep.equal(['On-call webhook']);
    const rule = $(el, '[part="rule"]')!;
    expect([text(rule.querySelector('.badge')), text(rule.querySelector('.condition')), text(rule.querySelector('.value'))]).to.deep.equal([
      'Firing',
      'Error rate > 5.0% over 5m',
      'Now 6.8%',
    ]);
  });

  it('sends a test and says how it went', async () => {
    const el = await mount<OpsAlertRules>('ops-alert-rules');
    await loaded(el);
    [...$$(el, '[part="channel"] button')].find((b) => text(b) === 'Send test')!.click();
    await waitFor(() => text($(el, '.test-result')) === 'Test delivered.', 'the outcome');
  });

  it('checks a channel with the contract’s schema before sending it, then adds it', async () => {
    const el = await mount<OpsAlertRules>('ops-alert-rules');
    await loaded(el);
    const posted: string[] = [];
    api.use(
      http.post('*/alert-channels', ({ request }) => {
        posted.push(request.url);
      }),
    );
    const form = $<HTMLFormElement>(el, '[part="channel-form"]')!;
    fill(form, { name: 'Pager', url: 'https://hooks.example.com/pager' });
    form.requestSubmit();
    await waitFor(() => text($(el, '#secret-error')), 'the secret’s error');
    expect(text($(el, '#secret-error'))).to.equal('Enter a secret to sign each delivery with.');
    expect(posted, 'nothing was sent').to.deep.equal([]);
    fill(form, { secret: 'whsec_0123456789abcdef' });
    form.requestSubmit();
    await waitFor(() => rowNames(el, 'channels').includes('Pager'), 'the new channel listed');
    expect(posted).to.have.length(1);
  });

  it('refuses a rule whose window is no duration, and adds one that is right', async () => {
    const el = await mount<OpsAlertRules>('ops-alert-rules');
    await loaded(el);
    const form = $<HTMLFormElement>(el, '[part="rule-form"]')!;
    form.requestSubmit();
    await waitFor(() => text($(el, '#name-error')), 'the name’s error, under the name');
    fill(form, { name: 'Slow usage', metric: 'p95', threshold: '300', window: 'soon' });
    form.requestSubmit();
    await waitFor(() => text($(el, '#window-error')), 'the window’s error');
    expect(text($(el, '#window-error'))).to.equal('Enter a window such as 5m, 1h or 1d.');
    fill(form, { window: '15m' });
    form.requestSubmit();
    await waitFor(() => rowNames(el, 'rules').includes('Slow usage'), 'the new rule listed');
  });

  it('says so when a Remove is refused, and keeps the rule', async () => {
    api.use(
      http.delete('*/alert-rules/*', () => problem(403, 'Forbidden', 'DELETE /console/v1/alert-rules/{id} needs the editor role; this token has viewer.')),
    );
    const el = await mount<OpsAlertRules>('ops-alert-rules');
    await loaded(el);
    [...$$(el, '[part="rule"] button')].find((b) => text(b) === 'Remove')!.click();
    await waitFor(() => text($(el, '.base > [role="alert"]')).startsWith('It was not removed.'), 'the refusal');
    expect(rowNames(el, 'rules')).to.deep.equal(['POST /webhooks failing']);
  });

  it('says what is wrong in the page’s language', async () => {
    const el = await mount<OpsAlertRules>('ops-alert-rules', { locale: 'de' });
    await loaded(el);
    await waitFor(() => text($(el, 'label[for="threshold"]')) === 'Schwelle', 'the German words loaded');
    const channel = $<HTMLFormElement>(el, '[part="channel-form"]')!;
    fill(channel, { name: 'Pager', url: 'ftp://hooks.example.com', secret: 'short' });
    channel.requestSubmit();
    await waitFor(() => text($(el, '#secret-error')), 'the secret’s error');
    expect([text($(el, '#url-error')), text($(el, '#secret-error'))]).to.deep.equal([
      'Geben Sie eine http- oder https-URL ein.',
      'Verwenden Sie ein Secret mit mindestens 16 Zeichen.',
    ]);
    const rule = $<HTMLFormElement>(el, '[part="rule-form"]')!;
    fill(rule, { name: 'Langsam', metric: 'p95', threshold: '-1', window: 'bald' });
    rule.requestSubmit();
    await waitFor(() => text($(el, '#window-error')), 'the window’s error');
    expect([text($(el, '#threshold-error')), text($(el, '#window-error'))]).to.deep.equal([
      'Geben Sie eine Schwelle von 0 oder mehr ein.',
      'Geben Sie ein Zeitfenster wie 5m, 1h oder 1d ein.',
    ]);
  });
});
