/**
 * The UI text in German and Japanese: chosen by the element's `locale`, the wrapper's, or
 * `<html lang>`; complete (nothing a person reads stays in English); host translations on top.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/all.ts';
import { localeReady, registerTranslations } from '../src/localize/localize.ts';
import { $, $$, descendants, nextFrames, text, waitFor } from './dom.ts';
import { ELEMENTS, mount } from './harness.ts';
import { API_BASE, scenarios, useMockApi } from './mock-api.ts';
import { http, HttpResponse } from 'msw';
import * as fixtures from '../mocks/fixtures.ts';

const api = useMockApi();

/** Message ids by their English source, read from the committed XLIFF the way a translator would. */
async function messageIds(): Promise<Map<string, string>> {
  const xml = new DOMParser().parseFromString(await (await fetch('/xliff/de.xlf')).text(), 'application/xml');
  return new Map([...xml.querySelectorAll('trans-unit')].map((unit) => [unit.querySelector('source')!.textContent, unit.id]));
}

/** Every string leaf of a JSON value: names, paths, texts the API sent (data, not UI text). */
function strings(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
}

/** What a person reads or hears in a panel: text, and the labels and hints in attributes. */
function readable(root: Element): string[] {
  const found: string[] = [];
  for (const el of [root, ...descendants(root.shadowRoot!)]) {
    for (const scope of [el, el.shadowRoot].filter(Boolean) as (Element | ShadowRoot)[]) {
      for (const node of scope.childNodes) if (node.nodeType === Node.TEXT_NODE && node.textContent!.trim()) found.push(node.textContent!.trim());
    }
    for (const name of ['aria-label', 'placeholder', 'title']) {
      const value = el.getAttribute(name);
      if (value?.trim()) found.push(value.trim());
    }
  }
  return found;
}

/** Mounts `tag` in a wrapper of `locale` whose fetch keeps every string the API answered with. */
async function render(tag: string, attrs: Record<string, string>, loaded: string, locale: string) {
  const data = new Set<string>();
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    response
      .clone()
      .json()
      .then((body: unknown) => strings(body, data))
      .catch(() => undefined);
    return response;
  };
  const wrapper = document.createElement('ops-console');
  Object.assign(wrapper, { apiBase: API_BASE, locale, timeZone: 'UTC', fetch: recording });
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  wrapper.append(el);
  await fixture(html`${wrapper}`);
  await waitFor(() => $(el, loaded), `${tag} loaded`);
  // The translations arrive as a chunk of their own; the panel re-renders when they do.
  await localeReady(locale);
  await nextFrames();
  return { el, data, texts: readable(el) };
}

describe('UI text in German and Japanese', () => {
  afterEach(() => document.documentElement.removeAttribute('lang'));

  for (const { tag, attrs, loaded } of ELEMENTS) {
    it(`${tag}: nothing a person reads in Japanese is left in English`, async () => {
      const english = await render(tag, attrs, loaded, 'en');
      const japanese = await render(tag, attrs, loaded, 'ja');
      const data = [...english.data, ...japanese.data].filter((s) => s.length > 1).sort((a, b) => b.length - a.length);
      const shownInEnglish = new Set(english.texts);
      // Method names and paths (a placeholder's `/messages`) are the protocol's tokens, the same in every language.
      const methods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      const isPath = (shown: string) => /^\/[\w/{}.-]*$/.test(shown);
      // UI text that reads the same in both languages and has a Latin word once the API's own strings are taken out.
      const untranslated = japanese.texts.filter((shown) => {
        if (!shownInEnglish.has(shown) || methods.has(shown) || isPath(shown) || data.some((s) => s.includes(shown))) return false;
        const rest = data.reduce((left, s) => left.split(s).join(' '), shown);
        return /[A-Za-z]{3,}/.test(rest);
      });
      expect(untranslated).to.deep.equal([]);
      expect(
        japanese.texts.some((shown) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(shown)),
        'some Japanese shown',
      ).to.equal(true);
    });
  }

  it("follows the element's own locale: German words, German numbers", async () => {
    const el = await mount('ops-endpoint-table', { locale: 'de' });
    await waitFor(() => $$(el, 'tbody tr').length, 'rows');
    await waitFor(() => text($(el, 'thead th')) === 'Endpunkt', 'German headers');
    expect($$(el, 'thead th').map(text)).to.deep.equal(['Endpunkt', 'Anfragen↕', 'P95 ms↕', 'Fehler↕', 'Status']);
    const german: Record<string, string> = { Healthy: 'Intakt', Failing: 'Fehlerhaft', Slow: 'Langsam' };
    const first = fixtures.endpoints[0]!;
    const row = $(el, `tbody tr[data-id="${first.id}"]`)!;
    expect(text(row.querySelector('[part~="badge"]'))).to.equal(german[first.status]);
    expect(text(row.querySelector('td'))).to.equal(new Intl.NumberFormat('de').format(first.requests));
  });

  it('follows <html lang> when neither the element nor a wrapper sets one, and a change of it', async () => {
    document.documentElement.lang = 'ja';
    const el = await mount('ops-traffic');
    await waitFor(() => text($(el, '#breakdown')) === '内訳', 'Japanese heading');
    document.documentElement.lang = 'de';
    await waitFor(() => text($(el, '#breakdown')) === 'Aufschlüsselung', 'German heading after <html lang> changed');
  });

  it('shows two panels in two languages side by side', async () => {
    const box = await fixture<HTMLDivElement>(html`<div>
      <ops-customer api-base=${API_BASE} customer-id="cus_acme" locale="de-CH"></ops-customer>
      <ops-customer api-base=${API_BASE} customer-id="cus_acme" locale="ja-JP"></ops-customer>
    </div>`);
    const [german, japanese] = [...box.children];
    await waitFor(() => text($(german!, '#notes-title')) === 'Notizen' && text($(japanese!, '#notes-title')) === 'メモ', 'both languages');
    expect(text($(german!, '#history-title'))).to.equal('Verlauf');
    expect(text($(japanese!, '#history-title'))).to.equal('履歴');
  });

  it('says what went wrong in the panel’s language, with its Retry', async () => {
    api.use(...scenarios.serverError());
    const el = await mount('ops-endpoint-table', { locale: 'ja' });
    await waitFor(() => text($(el, '.error-title')) === 'エンドポイントを読み込めませんでした。', 'Japanese error title');
    expect(text($(el, '.error-message'))).to.contain('コンソールAPIの応答中に問題が発生しました。');
    expect(text($(el, '[part="retry-button"]'))).to.equal('再試行');
  });

  it('checks a form in its language', async () => {
    const el = await mount('ops-error-form', { locale: 'de' });
    const form = await waitFor(() => $<HTMLFormElement>(el, 'form'), 'form');
    form.requestSubmit();
    await waitFor(() => text($(el, '#code-error')) === 'Wählen Sie einen Fehler.', 'German validation message');
    expect(text($(el, '#endpoint-error'))).to.equal('Wählen Sie einen Endpunkt.');
    expect(text($(el, 'label[for="count"]'))).to.equal('Anzahl');
  });

  it('reads ages aloud in words of the language, beside the compact age', async () => {
    const el = await mount<HTMLElement & { clock: () => Date }>('ops-activity-feed', { locale: 'de' });
    const item = await waitFor(() => $(el, '[part="item"] time'), 'item');
    el.clock = () => new Date(Date.parse(item.getAttribute('datetime')!) + 3 * 60_000);
    await waitFor(() => text(item.querySelector('.visually-hidden')) === 'vor 3 Minuten', 'German relative time');
    expect(text(item.querySelector('.age'))).to.equal(new Intl.NumberFormat('de', { style: 'unit', unit: 'minute', unitDisplay: 'narrow' }).format(3));
  });

  it("takes the host's translations for a new language, English where it has none, and over a built-in one", async () => {
    const ids = await messageIds();
    const id = (source: string) => ids.get(source)!;
    registerTranslations('fr', { [id('Add a note')]: 'Ajouter une note' });
    const french = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'fr-CA' });
    await waitFor(() => text($(french, 'label[for="note-text"]')) === 'Ajouter une note', 'French label');
    expect(text($(french, '#notes-title'))).to.equal('Notes');

    registerTranslations('pt_BR', { [id('Add a note')]: 'Adicionar uma nota' });
    const brazilian = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'pt-BR' });
    await waitFor(() => text($(brazilian, 'label[for="note-text"]')) === 'Adicionar uma nota', 'pt_BR registered, pt-BR asked');

    const german = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'de' });
    await waitFor(() => text($(german, '#notes-title')) === 'Notizen', 'German');
    registerTranslations('de', { [id('Add a note')]: 'Neue Notiz' });
    await waitFor(() => text($(german, 'label[for="note-text"]')) === 'Neue Notiz', "the host's German word");
    expect(text($(german, '#notes-title'))).to.equal('Notizen');
  });

  it("keeps a regional variant's built-in language under the host's corrections to it", async () => {
    const ids = await messageIds();
    registerTranslations('de-AT', { [ids.get('Add a note')!]: 'Notiz erfassen' });
    const el = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'de-AT' });
    await waitFor(() => text($(el, 'label[for="note-text"]')) === 'Notiz erfassen', "the host's Austrian word");
    await waitFor(() => text($(el, '#notes-title')) === 'Notizen', 'German under it');
    expect(text($(el, '#history-title'))).to.equal('Verlauf');
  });

  it('renders a registered tag Intl does not accept (de-informell) with its words, counting in English rules', async () => {
    const ids = await messageIds();
    registerTranslations('de-informell', { [ids.get('Add a note')!]: 'Schreib eine Notiz' });
    const el = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'de-informell' });
    await waitFor(() => text($(el, 'label[for="note-text"]')) === 'Schreib eine Notiz', 'the registered words');
    await waitFor(() => $$(el, '[part="related"] li').length === 2, 'related endpoints counted');
  });

  it('falls back one subtag at a time: zh-Hant-TW finds zh-Hant', async () => {
    const ids = await messageIds();
    registerTranslations('zh-Hant', { [ids.get('Notes')!]: '備註' });
    const el = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'zh-Hant-TW' });
    await waitFor(() => text($(el, '#notes-title')) === '備註', 'zh-Hant text');
  });

  it('formats numbers and dates of a locale written with an underscore (de_DE) in that language', async () => {
    const el = await mount('ops-endpoint-table', { locale: 'de_DE' });
    await waitFor(() => text($(el, 'thead th')) === 'Endpunkt', 'German headers');
    const first = fixtures.endpoints[0]!;
    expect(text($(el, `tbody tr[data-id="${first.id}"] td`))).to.equal(new Intl.NumberFormat('de-DE').format(first.requests));
  });

  it('marks each panel with the language its text is in, and leaves a lang the host set alone', async () => {
    const japanese = await mount('ops-traffic', { locale: 'ja' });
    await waitFor(() => text($(japanese, '#breakdown')) === '内訳', 'Japanese heading');
    expect(japanese.getAttribute('lang')).to.equal('ja');
    const korean = await mount('ops-traffic', { locale: 'ko' });
    await waitFor(() => text($(korean, '#breakdown')) === 'Breakdown', 'English, no Korean translations');
    expect(korean.getAttribute('lang')).to.equal('en');
    const hosts = await mount('ops-traffic', { locale: 'de', lang: 'de-CH' });
    await waitFor(() => text($(hosts, '#breakdown')) === 'Aufschlüsselung', 'German heading');
    expect(hosts.getAttribute('lang')).to.equal('de-CH');
  });

  it("names the error form's heading as a change to make, and a customer's creation date as a date, in Japanese", async () => {
    const error = await mount('ops-error', { 'error-id': 'err_500_webhooks', locale: 'ja' });
    await waitFor(() => text($(error, 'form h3')) === '変更', 'the form heading');
    const customer = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'ja' });
    await waitFor(() => $$(customer, 'dt').some((dt) => text(dt) === '作成日'), 'the creation date label');
  });

  it('writes one request and one second in the singular, and a fraction of a second in the language', async () => {
    api.use(
      http.get(`*${API_BASE}/customers/:id`, () =>
        HttpResponse.json({ ...fixtures.customers[0]!, relatedEndpoints: [{ id: 'ep_2', label: 'GET /contacts', requests: 1 }] }),
      ),
    );
    const customer = await mount('ops-customer', { 'customer-id': 'cus_acme' });
    await waitFor(() => $(customer, '[part="related"] li'), 'related endpoints');
    expect(text($(customer, '[part="related"] li .muted'))).to.equal('1 request');

    api.use(...scenarios.hang());
    const once = await mount('ops-endpoint-table', {}, { wrapper: { 'timeout-ms': '1000' } });
    await waitFor(() => text($(once, '.error-message')).includes('within 1 second.'), 'one second');
    const german = await mount('ops-endpoint-table', {}, { wrapper: { 'timeout-ms': '2500', locale: 'de' } });
    await waitFor(() => text($(german, '.error-message')).includes('2,5 Sekunden'), 'German decimal comma');
  });
});
