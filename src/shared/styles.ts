import { css } from 'lit';

/**
 * Design tokens: public `--ops-*` custom properties (documented on OpsElement) feed private
 * `--_*` values with light and dark defaults through `light-dark()`, which follows the used
 * `color-scheme`: the page's by default, or the one forced by the `theme` attribute.
 */
export const tokens = css`
  :host {
    --_font: var(--ops-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_font-size: var(--ops-font-size, 0.875rem);
    --_surface: var(--ops-color-surface, light-dark(#ffffff, #15171c));
    --_surface-raised: var(--ops-color-surface-raised, light-dark(#f3f5f8, #20242b));
    --_text: var(--ops-color-text, light-dark(#1b1f24, #e8eaed));
    --_muted: var(--ops-color-text-muted, light-dark(#4f5863, #a9b1bb));
    --_border: var(--ops-color-border, light-dark(#d0d7de, #3a404a));
    --_accent: var(--ops-color-accent, light-dark(#0a58ca, #8ab8ff));
    --_success: var(--ops-color-success, light-dark(#1a7f37, #56d38a));
    --_warning: var(--ops-color-warning, light-dark(#9a6700, #e3b341));
    --_danger: var(--ops-color-danger, light-dark(#c62828, #ff8a80));
    --_neutral: var(--ops-color-neutral, light-dark(#6e7781, #8b949e));
    --_chart-1: var(--ops-chart-1, var(--_accent));
    --_chart-2: var(--ops-chart-2, light-dark(#2e9e6a, #5fd3a0));
    --_chart-3: var(--ops-chart-3, light-dark(#d08a1e, #f0b95a));
    --_chart-4: var(--ops-chart-4, light-dark(#8250df, #b392f0));
    --_chart-5: var(--ops-chart-5, var(--_neutral));
    --_radius: var(--ops-radius, 8px);
    --_space: var(--ops-space, 0.5rem);

    display: block;
    box-sizing: border-box;
    container-type: inline-size;
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.45;
    /* API text can be one 10,000-character word: let it wrap anywhere rather than widen the host page. */
    overflow-wrap: anywhere;
    color: var(--_text);
    background: var(--_surface);
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  :host([theme='auto']) {
    color-scheme: light dark;
  }
  :host([hidden]) {
    display: none;
  }
  /* border-box, not inherit: inheriting a property that does not inherit by itself makes each
     element's style depend on its parent's, and cost Chromium about four times as much to
     compute (the request log's rows, scrolled fast: 3 against 13 ms of style a frame). */
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
`;

/** Shared pieces: state panels, buttons, badges, focus rings, visually hidden text. */
export const sharedStyles = css`
  /*
   * Drill-downs look the same whether they are an <a> (the host gave a route) or a <button> (it
   * did not). A link among other text (breadcrumb, facts, related endpoints, "View all") is
   * underlined; a row's name link, where the whole row is the drill-down, only on hover and focus.
   */
  .link,
  .crumb,
  .view-all,
  .row-link {
    font: inherit;
    color: var(--_accent);
    background: none;
    border: none;
    padding: 0;
    cursor: pointer;
    text-align: inherit;
    text-decoration: underline;
    text-underline-offset: 0.15em;
  }
  .row-link {
    text-decoration: none;
  }
  .row-link:hover,
  .row-link:focus-visible {
    text-decoration: underline;
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  /* Fields show focus however they got it (a date input focuses its inner parts). */
  input:focus,
  input:focus-within,
  select:focus,
  textarea:focus {
    outline: 2px solid var(--_accent);
    outline-offset: 1px;
  }
  /* Form fields (not the checkboxes and radios, which keep their native look); :where() keeps
     this rule weaker than the states below ([aria-invalid]), as the select's and textarea's are. */
  select,
  textarea,
  input:where(:not([type='checkbox'], [type='radio'])) {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 1.5);
    padding: 0.25rem 0.45rem;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger);
  }
  /* One height for every single-line control, so fields and buttons side by side line up (a
     button's label may wrap in a narrow container, a field's never does). */
  select,
  input:where(:not([type='checkbox'], [type='radio'])) {
    height: 2rem;
  }
  .button {
    min-height: 2rem;
  }
  /* Summary figures: a label, a large value and, where there is one, a change. */
  .figures {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr));
    gap: var(--_space);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .figure {
    padding: calc(var(--_space) * 1.25);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    min-width: 0;
  }
  .figure p {
    margin: 0;
  }
  .figure-label {
    color: var(--_muted);
  }
  .figure-value {
    font-size: 1.5em;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .button {
    font: inherit;
    color: var(--_accent);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 1.5);
    padding: calc(var(--_space) * 0.5) calc(var(--_space) * 1.5);
    cursor: pointer;
  }
  .button:hover:not(:disabled) {
    background: var(--_surface-raised);
  }
  /* Faded rather than recoloured, so a primary button's label keeps its contrast with its fill. */
  .button:disabled {
    opacity: 0.6;
    border-style: dashed;
    cursor: not-allowed;
  }
  /* Live lists: the quiet "Updated 10:41" line, the gap marker and "N new". */
  .live {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
  }
  .live-status,
  .gap,
  .capped {
    margin: 0;
    font-size: 0.9em;
    color: var(--_muted);
  }
  .gap {
    color: var(--_text);
  }
  /* Holds its line from the start, so the first "Updated …" never pushes the list down. */
  .live-status {
    min-height: 1.45em;
  }
  .skeleton {
    padding: var(--_space) 0;
  }
  /* The skeleton's sketch follows the loaded layout's sizes: 1.45 line height, 2rem fields. */
  .sketch {
    display: grid;
    gap: calc(var(--_space) * 1.5);
  }
  .bone {
    height: 1em;
    margin: 0.225em 0;
    border-radius: calc(var(--_radius) / 2);
    background: linear-gradient(90deg, var(--_surface-raised) 25%, color-mix(in srgb, var(--_surface-raised), var(--_border) 40%) 50%, var(--_surface-raised) 75%);
    background-size: 200% 100%;
    animation: shimmer 1.4s linear infinite;
  }
  .bone-short {
    width: 40%;
  }
  .bone-half {
    width: 25%;
  }
  .bone-num {
    width: 60%;
    justify-self: end;
  }
  .bone-title {
    width: min(16rem, 60%);
    height: 1.4em;
  }
  .bone-value {
    width: 60%;
    height: 1.5em;
  }
  .bone-chart {
    height: var(--ops-chart-height, 220px);
  }
  .bone-avatar {
    flex: none;
    width: 2rem;
    height: 2rem;
    margin: 0;
    border-radius: 50%;
  }
  .bone-input {
    height: 2rem;
    margin: 0;
  }
  .sketch-figures {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr));
    gap: var(--_space);
  }
  .sketch-card {
    padding: calc(var(--_space) * 1.25);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .sketch-table {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
  }
  .sketch-head {
    height: 2.4rem;
    background: var(--_surface-raised);
    border-bottom: 1px solid var(--_border);
  }
  .sketch-tr {
    display: grid;
    grid-template-columns: 2fr 1fr 1fr;
    gap: calc(var(--_space) * 2);
    padding: calc(var(--_space) * 0.75) var(--_space);
    border-bottom: 1px solid var(--_border);
  }
  .sketch-tr:last-child {
    border-bottom: none;
  }
  .sketch-item {
    display: flex;
    gap: var(--_space);
    align-items: center;
  }
  .sketch-lines {
    display: grid;
    flex: 1;
  }
  .sketch-facts {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 8.5rem), 1fr));
    gap: var(--_space) calc(var(--_space) * 2);
  }
  @keyframes shimmer {
    to {
      background-position: -200% 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .bone {
      animation: none;
    }
  }
  .empty {
    padding: calc(var(--_space) * 3) var(--_space);
    color: var(--_muted);
    text-align: center;
  }
  .error {
    padding: calc(var(--_space) * 2);
    border: 1px solid var(--_danger);
    border-radius: var(--_radius);
  }
  .error p {
    margin: 0 0 var(--_space);
  }
  .error-title {
    font-weight: 600;
    color: var(--_danger);
  }
  .load-more {
    margin-top: var(--_space);
  }
  .more-error {
    color: var(--_danger);
  }
  .avatar {
    display: inline-grid;
    place-items: center;
    flex: none;
    width: 2rem;
    height: 2rem;
    border-radius: 50%;
    font-size: 0.75rem;
    font-weight: 600;
    color: var(--_text);
    background: var(--_surface-raised);
    border: 1px solid var(--_border);
  }
  .tone-good {
    color: var(--_success);
  }
  .tone-bad {
    color: var(--_danger);
  }
  .tone-flat {
    color: var(--_muted);
  }
  .change {
    margin: 0;
    font-variant-numeric: tabular-nums;
  }
  .versus {
    color: var(--_muted);
    white-space: nowrap;
  }
  /* Each card is a container: cards of one width switch together, so a row of figures never has
     one change line wrapped beside others that are not. */
  .figure {
    container-type: inline-size;
  }
  /* In em, the card's own font size: about the width of "▲ +12.5% vs last month" on one line. */
  @container (max-width: 12.5em) {
    .change .versus {
      display: block;
    }
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.35em;
    padding: 0 0.55em;
    border: 1px solid var(--_tone, var(--_neutral));
    border-radius: 999px;
    white-space: nowrap;
    font-size: 0.9em;
  }
  /* An API version beside an endpoint's name. */
  .version {
    padding: 0 0.35rem;
    border: 1px solid var(--_border);
    border-radius: 999px;
    color: var(--_muted);
    font-size: 0.85em;
    font-weight: 400;
    white-space: nowrap;
  }
  /* A deprecated endpoint: its badge and, beside it (or under it, when narrow), the sunset. */
  .deprecation {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.15em 0.4em;
  }
  .deprecation .sunset {
    color: var(--_muted);
    font-size: 0.9em;
    white-space: nowrap;
  }
  .badge::before {
    content: '';
    width: 0.55em;
    height: 0.55em;
    border-radius: 50%;
    background: var(--_tone, var(--_neutral));
  }
  .tone-success {
    --_tone: var(--_success);
  }
  .tone-warning {
    --_tone: var(--_warning);
  }
  .tone-danger {
    --_tone: var(--_danger);
  }
  .tone-neutral {
    --_tone: var(--_neutral);
  }
`;
