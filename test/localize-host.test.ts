/**
 * A host app that localises its own text with @lit/localize, sharing the package's copy (as a
 * bundler does): configuring it after the panels have loaded works, its `msg()` answers in its
 * language, and the panels keep theirs. A file of its own: @lit/localize can be configured once
 * per page.
 */
import { expect } from '@open-wc/testing';
import { configureLocalization, msg } from '@lit/localize';
import '../src/all.ts';
import { $, text, waitFor } from './dom.ts';
import { mount } from './harness.ts';
import { useMockApi } from './mock-api.ts';

useMockApi();

describe('a host app with its own @lit/localize', () => {
  it('configures it after the panels loaded, and both speak their own language', async () => {
    const { setLocale } = configureLocalization({
      sourceLocale: 'en',
      targetLocales: ['fr'],
      loadLocale: () => Promise.resolve({ templates: { 'host-greeting': 'Bonjour' } }),
    });
    await setLocale('fr');
    expect(msg('Hello', { id: 'host-greeting' })).to.equal('Bonjour');

    const el = await mount('ops-customer', { 'customer-id': 'cus_acme', locale: 'de' });
    await waitFor(() => text($(el, '#notes-title')) === 'Notizen', 'the panel in German');
    expect(msg('Hello', { id: 'host-greeting' }), "the host's text after a panel rendered").to.equal('Bonjour');
  });
});
