import { html } from 'lit';

/**
 * "POST /auth/token" with a line-break opportunity before each `/` of the path, so a narrow
 * column wraps it as "POST /auth" + "/token" rather than mid-segment ("/auth/tok" + "en").
 * Pair with `overflow-wrap: break-word`, which breaks inside a segment only when it alone is too wide.
 */
export const renderEndpointName = (method: string, path: string) =>
  html`${method} ${path.split(/(?=\/)/).map((segment, i) => (i ? html`<wbr />${segment}` : segment))}`;
