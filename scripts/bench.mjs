// `npm run bench`: size, speed and scale of the elements in headless Chromium, against budgets.
// Prints one table and writes .bench/results.json. Timings are medians of RUNS runs with their
// range beside them (BENCH_RUNS, default 5; the virtualizer comparison BENCH_COMPARE_RUNS, default 1); how each is measured is stated in its row; each row is compared with the
// previous run's .bench/results.json when there is one. Not a test: machines are noisy, so these are figures.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import { launch, serve } from '../test/node/browser.mjs';
import { createHostApp } from '../test/node/host-app.mjs';
import { staticClosure } from './metafile.mjs';
import { ELEMENTS, folderOf } from '../src/elements/registry.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const started = performance.now();
const rows = [];
/** Where the bench is, on stderr (the table goes to stdout at the end). */
const progress = (what) => console.error(`bench: ${what} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
const round = (value) => Math.round(value * 10) / 10;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** One row: `measured` is a figure, or the samples of several runs (their median is the figure, their range the spread). */
function add(group, name, measured, unit, budget, how) {
  const samples = Array.isArray(measured) ? measured : null;
  const value = samples ? median(samples) : measured;
  const spread = samples ? [round(Math.min(...samples)), round(Math.max(...samples))] : null;
  rows.push({ group, name, value: round(value), spread, unit, budget: budget ?? null, pass: budget == null ? null : value <= budget, how });
}
let previous = new Map();
try {
  const last = JSON.parse(readFileSync('.bench/results.json', 'utf8'));
  previous = new Map(last.rows.map((r) => [r.name, r]));
} catch {
  // first run on this machine: nothing to compare with
}
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length / 1024;

execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });

// Bytes --------------------------------------------------------------------------------------
/** esbuild options for a minified browser bundle kept in memory. */
const inMemory = {
  bundle: true,
  format: 'esm',
  minify: true,
  write: false,
  target: 'es2022',
  tsconfig: 'tsconfig.json',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'silent',
};
async function bundle(contents, resolveDir = resolve('.')) {
  const result = await build({
    ...inMemory,
    stdin: { contents, resolveDir, loader: 'ts' },
    splitting: false,
    outdir: '/tmp/bench-out',
    // The chart chunk is loaded lazily: it is not part of what an entry downloads up front.
    external: ['./echarts-chunk.ts', './echarts-cartesian.ts', './echarts-pie.ts'],
  });
  return result.outputFiles.reduce((sum, f) => sum + gz(f.contents), 0);
}
// What a page downloads: a built file and every chunk it imports statically, from the build's
// metafile (dynamic imports — the elements the loader fetches, the chart chunk — come later).
const outputs = (build) => JSON.parse(readFileSync(`.bench/meta-${build}.json`, 'utf8')).outputs;
const core = outputs('core');
const eager = outputs('all');
const gzOf = (paths) => [...paths].reduce((sum, path) => sum + gz(readFileSync(path)), 0);
const entryOutput = (files, entryPoint) => Object.keys(files).find((path) => files[path].entryPoint === entryPoint);
const coreFiles = staticClosure(core, 'dist/ops-console.js');
add('bytes', 'on-demand core dist/ops-console.js', gzOf(coreFiles), 'KB gz', 15, `gzip -9 of it and the ${coreFiles.size - 1} file(s) it imports statically`);
add(
  'bytes',
  'eager dist/ops-console.all.js (every element, no chart code)',
  gzOf(staticClosure(eager, 'dist/ops-console.all.js')),
  'KB gz',
  40,
  'gzip -9 of the built file and its static imports',
);
const chartFiles = [...staticClosure(core, entryOutput(core, 'src/shared/chart/echarts-chunk.ts'))].filter((f) => !coreFiles.has(f));
const chartChunk = gzOf(chartFiles);
const fullEcharts = await bundle("import * as echarts from 'echarts'; globalThis.echarts = echarts;");
add('bytes', 'lazy chart chunk', chartChunk, 'KB gz', null, 'gzip -9 of the echarts chunk and what it imports beyond the core');
add('bytes', 'full echarts, bundled in this run', fullEcharts, 'KB gz', null, 'esbuild --minify of `import * as echarts`');
add('bytes', 'chart chunk / full echarts', (chartChunk / fullEcharts) * 100, '%', 45, 'ratio of the two above');
// The folders of the elements with data of their own (the element registry).
const FOLDERS = ELEMENTS.filter((e) => 'sample' in e).map((e) => folderOf(e.tag));
const beyondCore = (entryPoint) => [...staticClosure(core, entryOutput(core, entryPoint))].filter((f) => !coreFiles.has(f));
const validationFiles = beyondCore('src/api/validation.ts');
add(
  'bytes',
  'validation chunk (zod + the schemas), with the first request',
  gzOf(validationFiles),
  'KB gz',
  null,
  'gzip -9 of it and what it imports beyond the core',
);
for (const el of FOLDERS) {
  const files = beyondCore(`src/elements/${el}/define.ts`);
  add('bytes', `ops-${el} on demand, beyond the core`, gzOf(files), 'KB gz', 10, `gzip -9 of its chunk and the ${files.length - 1} it imports beyond the core`);
}
// Virtual scrolling: fetched by the endpoint table and the request log with their first list of more than 100 rows.
const withInput = (files, input) => Object.keys(files).find((path) => files[path].inputs[input]);
const virtualFiles = [...staticClosure(core, withInput(core, 'src/shared/virtual-rows.ts'))].filter((f) => !coreFiles.has(f));
add(
  'bytes',
  'virtual scrolling (@tanstack/lit-virtual), fetched by a table or log of more than 100 rows',
  gzOf(virtualFiles),
  'KB gz',
  null,
  'gzip -9 of the chunk holding it and what it imports beyond the core',
);
const tablePage = new Set([...coreFiles, ...beyondCore('src/elements/endpoint-table/define.ts'), ...validationFiles]);
add(
  'bytes',
  'script-tag page with only ops-endpoint-table downloads',
  gzOf(tablePage),
  'KB gz',
  null,
  `core + its chunks + validation: ${tablePage.size} files`,
);
// One file per element repeats the helpers elements share (the data task, the list states): a page with several pays for them once per element.
const overviewPage = new Set([
  ...coreFiles,
  ...validationFiles,
  ...['overview', 'endpoint-table', 'activity-feed'].flatMap((el) => beyondCore(`src/elements/${el}/define.ts`)),
  ...beyondCore('src/shared/chart/define.ts'),
]);
add(
  'bytes',
  'script-tag page with ops-overview downloads (it loads the table, the feed and ops-chart)',
  gzOf(overviewPage),
  'KB gz',
  null,
  `core + validation + four elements: ${overviewPage.size} files, the chart chunk not counted`,
);
for (const el of FOLDERS)
  add(
    'bytes',
    `entry ops-${el} alone (lit, zod, … included)`,
    await bundle(`import './src/elements/${el}/define.ts';`),
    'KB gz',
    null,
    'esbuild bundle of its define.ts; the lazy chart chunk not counted',
  );
add(
  'bytes',
  'bundled page with only ops-endpoint-table downloads',
  await bundle("import './src/elements/endpoint-table/define.ts';"),
  'KB gz',
  null,
  'same bundle; it has no chart import at all',
);

// What a React app pays: a Vite build of a small React 19 app from the packed tarball, with and
// without the elements; what the page loads before it renders (its entry and the chunks it
// preloads), gzipped each on its own. Lazily loaded chunks (validation, charts, locales) not counted.
progress('bytes: React app builds');
const reactApp = createHostApp('react-app', ['react', 'react-dom']);
const reactVariants = {
  'a React app without the elements': ['', '<h1>Host</h1>'],
  'with OpsEndpointTable': ["import { OpsEndpointTable } from '@ops-console/elements/react';", '<OpsEndpointTable apiBase="/api/v1" />'],
  'with OpsOverview': ["import { OpsOverview } from '@ops-console/elements/react';", '<OpsOverview apiBase="/api/v1" />'],
};
const initialJs = {};
let largestChunk = 0;
for (const [name, [imports, jsx]] of Object.entries(reactVariants)) {
  writeFileSync(
    `${reactApp}/client.tsx`,
    `import { createRoot } from 'react-dom/client';\n${imports}\ncreateRoot(document.getElementById('root')!).render(${jsx});\n`,
  );
  await viteBuild({ root: reactApp, logLevel: 'error', build: { outDir: 'www', emptyOutDir: true } });
  const html = readFileSync(`${reactApp}/www/index.html`, 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => `${reactApp}/www/${m[1]}`);
  initialJs[name] = gzOf(files);
  for (const file of readdirSync(`${reactApp}/www/assets`)) largestChunk = Math.max(largestChunk, statSync(`${reactApp}/www/assets/${file}`).size / 1000);
}
rmSync(reactApp, { recursive: true, force: true });
const reactBase = initialJs['a React app without the elements'];
add('bytes', 'React app (Vite): initial JS of the app itself', reactBase, 'KB gz', null, 'react-dom and a root render: what the rows below add to');
for (const name of ['with OpsEndpointTable', 'with OpsOverview'])
  add(
    'bytes',
    `React app (Vite): initial JS added ${name} (@ops-console/elements/react)`,
    initialJs[name] - reactBase,
    'KB gz',
    null,
    'entry + modulepreloads, minus the app alone',
  );
add(
  'bytes',
  "React app (Vite): largest chunk, the chart code's",
  largestChunk,
  'kB min',
  500,
  "minified, as Vite's chunk-size warning counts it (1 kB = 1000 bytes)",
);

// Browser --------------------------------------------------------------------------------------
const benchPage = '<!doctype html><link rel="icon" href="data:,"><script type="module" src="/ops-console.all.js"></script><main></main>';
// The contract's schemas, for timing the validation part of each panel on the very responses it fetched.
const validator = await build({
  stdin: {
    contents: `import { schemas } from './src/api/validation.ts';
const byPath = [[/\\/overview$/, 'overview'], [/\\/endpoints$/, 'endpointPage'], [/\\/endpoints\\/[^/]+$/, 'endpointDetail'], [/\\/requests\\/summary$/, 'requestSummary'], [/\\/requests$/, 'requestPage'], [/\\/requests\\/[^/]+$/, 'requestDetail'],
  [/\\/traffic$/, 'traffic'], [/\\/customers\\/[^/]+$/, 'customer'], [/\\/customers$/, 'customerPage'], [/\\/webhooks$/, 'webhookPage'], [/\\/webhooks\\/[^/]+$/, 'webhook'], [/\\/errors\\/options$/, 'errorOptions'],
  [/\\/errors\\/[^/]+$/, 'errorRecord'], [/\\/errors$/, 'errorPage'], [/\\/activity$/, 'activityPage']];
export async function validationMs(urls) {
  let total = 0;
  for (const url of urls) {
    const name = byPath.find(([re]) => re.test(new URL(url).pathname))?.[1];
    if (!name) continue;
    const json = await (await fetch(url)).json();
    const started = performance.now();
    schemas[name].safeParse(json, { reportInput: true });
    total += performance.now() - started;
  }
  return total;
}`,
    resolveDir: resolve('.'),
    loader: 'ts',
  },
  ...inMemory,
});
// The request log's rows under each virtualizer considered, for the comparison in the scale section.
const virtualizers = await build({ ...inMemory, entryPoints: ['scripts/bench-virtualizers.ts'] });
// The yardstick of the paint figures: a plain Lit list of the endpoints page.
const calibration = await build({ ...inMemory, entryPoints: ['scripts/bench-calibration.ts'] });
const site = await serve(
  resolve('dist'),
  { '/bench.html': benchPage },
  {},
  {
    '/bench-validate.js': validator.outputFiles[0].text,
    '/bench-virtualizers.js': virtualizers.outputFiles[0].text,
    '/bench-calibration.js': calibration.outputFiles[0].text,
  },
);
const browser = await launch(['--js-flags=--expose-gc', '--enable-precise-memory-info']);
const page = await browser.newPage();
await page.goto(`${site.origin}/bench.html`, { waitUntil: 'load' });
await page.waitForFunction(() => customElements.get('ops-overview'));
await page.evaluate(() => import('/bench-calibration.js'));
const cdp = await page.createCDPSession();
const heapMB = async () => {
  await page.evaluate(() => globalThis.gc?.());
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize / 1048576;
};

// Every element with data of its own, mounted as the tests mount it (the element registry).
const CASES = ELEMENTS.flatMap((e) =>
  'sample' in e ? [{ tag: e.tag, attrs: { ...e.sample.attrs, 'time-zone': 'UTC' }, ready: e.sample.loaded, chart: e.sample.chart ?? false }] : [],
);

/** In the page: mount, then time from the API response's arrival to the first frame with content. */
const mountAndTime = ({ tag, attrs, ready, chart }) =>
  new Promise((resolve) => {
    performance.clearResourceTimings();
    const el = document.createElement(tag);
    el.setAttribute('api-base', '/api/v1');
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    const done = (paintedAt) => {
      const api = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/'));
      const responseAt = Math.max(...api.filter((e) => e.name.includes(tag === 'ops-overview' ? '/overview' : '/')).map((e) => e.responseEnd));
      const result = { paint: paintedAt - responseAt, dom: domAt - responseAt, chart: null };
      if (!chart) return resolve({ el, ...result });
      const charts = () => [
        ...el.shadowRoot.querySelectorAll('ops-chart'),
        ...[...el.shadowRoot.querySelectorAll('*')].flatMap((n) => [...(n.shadowRoot?.querySelectorAll('ops-chart') ?? [])]),
      ];
      const waitChart = () => {
        const drawn = charts().find((c) => c.chart);
        if (!drawn) return requestAnimationFrame(waitChart);
        requestAnimationFrame(() => {
          const chunk = performance.getEntriesByType('resource').find((e) => e.name.includes('echarts-chunk'));
          const chunkAt = chunk ? chunk.responseEnd : globalThis.__chunkAt;
          globalThis.__chunkAt ??= chunkAt;
          resolve({ el, ...result, chart: performance.now() - Math.max(chunkAt ?? 0, responseAt) });
        });
      };
      waitChart();
    };
    let domAt = 0;
    const observer = new MutationObserver(() => {
      if (el.shadowRoot?.querySelector(ready)) {
        observer.disconnect();
        domAt = performance.now();
        requestAnimationFrame(() => done(performance.now()));
      }
    });
    document.querySelector('main').append(el);
    observer.observe(el.shadowRoot, { childList: true, subtree: true });
  });

/** The yardstick, mounted and timed as the elements are: a plain Lit list of the same endpoints page. */
const PLAIN_LIST = { tag: 'bench-plain-list', attrs: {}, ready: 'tr', chart: false };
/**
 * Each element's paint budget, as a multiple of the plain list's: one 60 Hz frame (16.7 ms, the
 * budget in milliseconds before) over the plain list's 5.4 ms in the run that set it (26 Nov 2026).
 */
const PAINT_RATIO_BUDGET = 3;
const plainPaints = [];

for (const c of CASES) {
  progress(`paint: ${c.tag}`);
  const paints = [];
  const doms = [];
  const charts = [];
  const yardsticks = [];
  let requests;
  for (let run = 0; run < RUNS; run++) {
    // The yardstick right before the element, so both see the machine as it is at that moment.
    const plain = await page.evaluate(
      async (c, fn) => {
        const r = await eval(fn)(c);
        r.el.remove();
        return r.paint;
      },
      PLAIN_LIST,
      `(${mountAndTime})`,
    );
    plainPaints.push(plain);
    yardsticks.push(plain);
    const result = await page.evaluate(
      async (c, fn) => {
        const r = await eval(fn)(c);
        r.el.remove();
        return { paint: r.paint, dom: r.dom, chart: r.chart };
      },
      c,
      `(${mountAndTime})`,
    );
    paints.push(result.paint);
    doms.push(result.dom);
    if (result.chart != null) charts.push(result.chart);
  }
  const settled = await page.evaluate(async ({ tag, attrs }) => {
    performance.clearResourceTimings();
    const el = document.createElement(tag);
    el.setAttribute('api-base', '/api/v1');
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    document.querySelector('main').append(el);
    await new Promise((r) => setTimeout(r, 1500));
    el.remove();
    const api = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/'));
    const starts = api.map((e) => e.startTime);
    return { count: api.length, spread: api.length ? Math.max(...starts) - Math.min(...starts) : 0, urls: api.map((e) => e.name) };
  }, c);
  const validations = [];
  for (let run = 0; run < RUNS; run++)
    validations.push(await page.evaluate(async (urls) => (await import('/bench-validate.js')).validationMs(urls), settled.urls));
  requests = settled.count;
  add('paint', `${c.tag}: response → content in the DOM`, doms, 'ms', null, 'response timing responseEnd → MutationObserver sees the content');
  add('paint', `${c.tag}: of which validation (zod)`, validations, 'ms', null, 'safeParse of the responses it fetched, timed alone in the page');
  add(
    'paint',
    `${c.tag}: content in the DOM → painted (style, layout, paint)`,
    paints.map((p, i) => p - doms[i]),
    'ms',
    null,
    'the two rows around it, run by run',
  );
  add('paint', `${c.tag}: response → content painted`, paints, 'ms', null, 'responseEnd → the first rAF after the content appears (the frame that paints it)');
  // Over the median of the yardstick's runs beside this element's: one slow run of a 5 ms list would otherwise double a ratio.
  add(
    'paint',
    `${c.tag}: response → content painted, against a plain Lit list`,
    paints.map((p) => p / Math.max(median(yardsticks), 0.1)),
    '×',
    PAINT_RATIO_BUDGET,
    'the row above over the median of a plain Lit list of the endpoints page (scripts/bench-calibration.ts), timed the same way right before each of its runs',
  );
  if (charts.length)
    add(
      'paint',
      `${c.tag}: chart chunk available → chart drawn`,
      charts,
      'ms',
      100,
      'later of chunk responseEnd and data → rAF after the ECharts instance drew',
    );
  // The pages made of panels ask once per panel: the overview (its figures, the table, the feed), the customer page (the customer, its traffic, its requests), the endpoint page (the endpoint, its error records, its requests).
  const parts = { 'ops-overview': 3, 'ops-customer': 3, 'ops-endpoint-detail': 3 }[c.tag] ?? 1;
  add(
    'requests',
    `${c.tag}: API requests to render${parts > 1 ? ` (started within ${Math.round(settled.spread)} ms of each other)` : ''}`,
    requests,
    'requests',
    parts,
    parts > 1 ? 'one per panel, in parallel, no waterfall' : 'one per data panel',
  );
}

add(
  'paint',
  'plain Lit list of the endpoints page (the yardstick): response → content painted',
  plainPaints,
  'ms',
  null,
  'scripts/bench-calibration.ts, timed as the elements are, once before each of their runs',
);

// Scale ----------------------------------------------------------------------------------------
progress('scale: scrolling the request log');
/** Runs `fn` in a page of its own: scrolling runs must not inherit the JIT state, heap or leftovers of earlier ones. */
async function inFreshPage(fn, arg) {
  const fresh = await browser.newPage();
  try {
    await fresh.goto(`${site.origin}/bench.html`, { waitUntil: 'load' });
    await fresh.waitForFunction(() => customElements.get('ops-request-log'));
    return await fresh.evaluate(fn, arg);
  } finally {
    await fresh.close();
  }
}
const scales = [];
for (let run = 0; run < RUNS; run++) {
  progress(`scale: scrolling the request log, run ${run + 1}`);
  scales.push(
    await inFreshPage(async () => {
      const longTasks = [];
      const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().filter((e) => e.duration > 50)));
      observer.observe({ type: 'longtask' });
      const log = document.createElement('ops-request-log');
      log.setAttribute('api-base', '/api/scenario/large/v1');
      log.setAttribute('limit', '500');
      document.querySelector('main').append(log);
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      while (!log.shadowRoot.querySelector('[part="row"]')) await frame();
      globalThis.gc?.();
      const heapBefore = performance.memory.usedJSHeapSize;
      // Only tasks that start once scrolling does: the first page's own render (a long task of its
      // own, 500 entries at once) is reported a moment after the first row shows.
      const scrollStart = performance.now();
      const timeline = log.shadowRoot.querySelector('.timeline');
      const rowHeight = log.shadowRoot.querySelector('[part="row"]').getBoundingClientRect().height;
      let maxRows = 0;
      const target = 10_000 * rowHeight;
      for (let guard = 0; timeline.scrollTop < target && guard < 4000; guard++) {
        timeline.scrollTop += 600;
        await frame();
        maxRows = Math.max(maxRows, log.shadowRoot.querySelectorAll('[part="row"]').length);
      }
      await new Promise((r) => setTimeout(r, 500));
      observer.disconnect();
      globalThis.gc?.();
      const heapAfter = performance.memory.usedJSHeapSize;
      const loaded = log.entries().length;
      const scrolledRows = Math.round(timeline.scrollTop / rowHeight);
      log.remove();
      return {
        maxRows,
        longTasks: longTasks.filter((e) => e.startTime >= scrollStart).length,
        heapGrowthMB: (heapAfter - heapBefore) / 1048576,
        loaded,
        scrolledRows,
      };
    }),
  );
}
const scale = scales[0];
add(
  'scale',
  `ops-request-log, 1,000,000 entries: most rows in the DOM while scrolling ${scale.scrolledRows.toLocaleString('en-US')} rows`,
  scales.map((s) => s.maxRows),
  'rows',
  199,
  'max querySelectorAll([part=row]) over every frame',
);
add(
  'scale',
  'ops-request-log: long tasks > 50 ms while scrolling',
  scales.map((s) => s.longTasks),
  'tasks',
  0,
  'PerformanceObserver longtask, pages of 500 arriving as it scrolls',
);
add(
  'scale',
  `ops-request-log: JS heap growth after scrolling (${scale.loaded.toLocaleString('en-US')} entries loaded)`,
  scales.map((s) => s.heapGrowthMB),
  'MB',
  5,
  'performance.memory after gc(), before vs after',
);
// The same rows under each virtualizer considered, taken in turn so drift hits them alike.
progress('scale: virtualizer comparison');
const MODES = ['lit-virtualizer', 'lit-virtualizer-patched', 'tanstack'];
const compared = Object.fromEntries(MODES.map((mode) => [mode, []]));
// One round by default: @lit-labs/virtualizer takes over a minute a run to scroll 10,000 rows here.
const COMPARE_RUNS = Number(process.env.BENCH_COMPARE_RUNS ?? 1);
for (let run = 0; run < COMPARE_RUNS; run++)
  for (const mode of MODES) compared[mode].push(await inFreshPage(async (m) => (await import('/bench-virtualizers.js')).scrollRun(m), mode));
for (const mode of MODES) {
  const label = {
    'lit-virtualizer': '@lit-labs/virtualizer 2.1.1, fixed-height rows',
    'lit-virtualizer-patched': '@lit-labs/virtualizer 2.1.1 patched (lit/lit#5249)',
    tanstack: '@tanstack/lit-virtual (shipped)',
  }[mode];
  add(
    'virtualizer',
    `${label}: long tasks > 50 ms scrolling 10,000 of 10,500 rows`,
    compared[mode].map((r) => r.longTasks),
    'tasks',
    null,
    'same rows and styles, 600 px a frame',
  );
  add(
    'virtualizer',
    `${label}: 95th percentile frame`,
    compared[mode].map((r) => r.p95FrameMs),
    'ms',
    null,
    'rAF to rAF while scrolling',
  );
  add(
    'virtualizer',
    `${label}: most rows in the DOM`,
    compared[mode].map((r) => r.maxRows),
    'rows',
    null,
    'max over every frame',
  );
}

/** Mounts a 10,000-endpoint table (`pages` pages of 500 loaded), clicks Requests and times it to the painted, sorted rows. */
const timeSort = (pages) =>
  page.evaluate(async (pages) => {
    const table = document.createElement('ops-endpoint-table');
    table.setAttribute('api-base', '/api/scenario/large/v1');
    table.setAttribute('limit', '500');
    document.querySelector('main').append(table);
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const root = table.shadowRoot;
    while (!root.querySelector('tbody tr[part="row"]')) await frame();
    for (let more = 1; more < pages; more++) {
      root.querySelector('[part="load-more"]').click();
      await frame();
      while (root.querySelector('[part="load-more"]')?.disabled) await frame();
    }
    const first = root.querySelector('tbody tr[part="row"]').dataset.id;
    const start = performance.now();
    root.querySelector('th[aria-sort] button').click();
    while (root.querySelector('tbody tr[part="row"]').dataset.id === first || root.querySelector('table[aria-busy="true"]')) await frame();
    await frame();
    const took = performance.now() - start;
    table.remove();
    return took;
  }, pages);
progress('scale: sorting endpoints');
const sorts = [];
const localSorts = [];
for (let run = 0; run < RUNS; run++) {
  sorts.push(await timeSort(1));
  localSorts.push(await timeSort(20));
}
add(
  'scale',
  'ops-endpoint-table, 500 of 10,000 endpoints loaded: sort click → sorted rows painted',
  sorts,
  'ms',
  50,
  'sorted by the API (the mock server over loopback, included), rows in view rendered; click → rAF after re-render',
);
add(
  'scale',
  'ops-endpoint-table, all 10,000 endpoints loaded: sort click → sorted rows painted',
  localSorts,
  'ms',
  50,
  'sorted in the page, no request; click → rAF after re-render',
);

// Lifecycle --------------------------------------------------------------------------------------
progress('lifecycle: 1,000 mounts per element');
for (const c of CASES) {
  const before = await heapMB();
  await page.evaluate(async ({ tag, attrs }) => {
    for (let i = 0; i < 1000; i++) {
      const el = document.createElement(tag);
      el.setAttribute('api-base', '/api/v1');
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      document.querySelector('main').append(el);
      await el.updateComplete;
      el.remove();
    }
    await new Promise((r) => setTimeout(r, 1000)); // let aborted requests settle
  }, c);
  add(
    'lifecycle',
    `${c.tag}: heap growth after 1,000 mounts and unmounts`,
    (await heapMB()) - before,
    'MB',
    1,
    'CDP Runtime.getHeapUsage after HeapProfiler.collectGarbage',
  );
}

await browser.close();
await site.close();

// Report -----------------------------------------------------------------------------------------
mkdirSync('.bench', { recursive: true });
writeFileSync('.bench/results.json', `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, rows }, null, 2)}\n`);
const figure = (r) => `${r.value} ${r.unit}${r.spread ? ` (${r.spread[0]}–${r.spread[1]})` : ''}`;
const change = (r) => {
  const before = previous.get(r.name);
  if (!before) return 'new';
  const delta = round(r.value - before.value);
  return `${before.value} ${before.unit}${delta ? ` (${delta > 0 ? '+' : ''}${delta})` : ' (=)'}`;
};
const table = [
  '| group | figure | value (range) | budget | result | previous run |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.group} | ${r.name} | ${figure(r)} | ${r.budget == null ? '—' : `≤ ${r.budget} ${r.unit}`} | ${r.pass == null ? '' : r.pass ? 'pass' : 'FAIL'} | ${previous.size ? change(r) : '—'} |`,
  ),
];
console.log(`\n${table.join('\n')}\n`);
console.log(
  `${rows.filter((r) => r.pass).length} within budget, ${rows.filter((r) => r.pass === false).length} over budget (medians of ${RUNS} runs, ${((performance.now() - started) / 60_000).toFixed(1)} min; .bench/results.json)`,
);
