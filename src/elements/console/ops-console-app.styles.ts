import { css } from 'lit';

export const styles = css`
  :host {
    display: grid;
    grid-template-columns: minmax(10rem, 13rem) minmax(0, 1fr);
    gap: calc(var(--_space) * 1.5);
    align-items: start;
  }
  nav ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 2px;
  }
  nav a {
    display: block;
    padding: calc(var(--_space) * 0.4) calc(var(--_space) * 0.75);
    border-radius: var(--_radius);
    color: var(--_text);
    text-decoration: none;
  }
  nav a:hover {
    background: var(--_surface-raised);
  }
  nav a[aria-current] {
    background: var(--_surface-raised);
    color: var(--_accent);
    font-weight: 600;
    box-shadow: inset 3px 0 0 var(--_accent);
  }
  nav ops-time-range {
    margin-top: calc(var(--_space) * 1.5);
  }
  .view:focus {
    outline: none;
  }
  .not-found {
    padding: var(--_space);
  }
  /* A narrow console: the navigation becomes a row that wraps above the view. */
  @media (max-width: 40rem) {
    :host {
      grid-template-columns: minmax(0, 1fr);
    }
    nav ul {
      display: flex;
      flex-wrap: wrap;
    }
  }
`;
