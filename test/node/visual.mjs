// Visual regression: every story, light and dark, in a 360 px and a 1280 px window, against the
// PNG baselines in test/visual/. A story that pins its theme (`globals: { theme }`) is taken in
// that theme only, and one that sets a frame of 360 px or less (`args.width`) at 360 px only.
//
// Pictures are compared with pixelmatch: a pixel counts as changed when its colour moved past
// `threshold`, and anti-aliased edge pixels are left out (includeAA: false), so glyph smoothing
// does not fail a run while a moved border, a clipped column or a changed colour does.
// `UPDATE_BASELINES=1` writes the pictures as the new baselines instead of comparing.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export const BASELINES = resolve('test/visual');
/** Pictures of a failed comparison (the new one and the difference), for a person to look at. */
export const FAILURES = resolve('test-results/visual');

const WIDTHS = [360, 1280];
const THEMES = ['light', 'dark'];
/** A pixel is "changed" past this YIQ colour distance (0–1): above anti-aliasing noise, below any real colour change. */
const THRESHOLD = 0.1;
/** Changed pixels allowed before a picture fails, unless a story sets `parameters.visual.maxDiffPixels`. */
const MAX_DIFF_PIXELS = 20;
/**
 * The whole page, taken by growing the window to the page's height: Chromium's capture beyond the
 * window instead made a virtual list move its rows by half a row on every picture.
 */
const SHOT = { fullPage: true, captureBeyondViewport: false };

/** What the story asks of its pictures: `{ forcedColors?, maxDiffPixels?, answersPending?, skip? }`, plus its pinned theme and frame width. */
async function storyFacts(page) {
  return page.evaluate(() => {
    const story = window.__STORYBOOK_PREVIEW__?.currentRender?.story;
    return {
      visual: story?.parameters?.visual ?? {},
      pinnedTheme: story?.globals?.theme ?? null,
      // A frame as narrow as the small window (`width: '320px'`) looks the same in the wide one.
      ownWidth: /^\d+px$/.test(story?.initialArgs?.width ?? '') && parseInt(story.initialArgs.width, 10) <= 360,
    };
  });
}

/**
 * Waits until the story's answers have arrived (unless it leaves one unanswered on purpose:
 * `parameters.visual.answersPending`, or the `hang` and `slow` scenarios), then takes pictures until `accept` takes one or two in a row are the
 * same; returns the last. Throws when the story never stops changing.
 */
async function settledPicture(page, inFlight, { answersPending = false } = {}, accept = () => false) {
  await page.evaluate(() => document.fonts.ready);
  for (let quiet = 0, i = 0; quiet < 3 && i < 200 && !answersPending; i++) {
    quiet = [...inFlight].some((url) => !/\/scenario\/(hang|slow)\//.test(url)) ? 0 : quiet + 1;
    await new Promise((r) => setTimeout(r, 50));
  }
  let previous = await page.screenshot(SHOT);
  if (accept(previous)) return previous;
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 150));
    const next = await page.screenshot(SHOT);
    if (next.equals(previous)) return next;
    previous = next;
  }
  throw new Error('the story keeps changing: no two pictures in a row were the same');
}

/** Changed pixels between two PNGs, and the difference as a PNG; a size change fails outright. */
export function compare(actualPng, baselinePng, { maxDiffPixels = MAX_DIFF_PIXELS } = {}) {
  const actual = PNG.sync.read(actualPng);
  const baseline = PNG.sync.read(baselinePng);
  if (actual.width !== baseline.width || actual.height !== baseline.height)
    return { ok: false, why: `size ${actual.width}×${actual.height}, baseline ${baseline.width}×${baseline.height}` };
  const diff = new PNG({ width: actual.width, height: actual.height });
  const changed = pixelmatch(actual.data, baseline.data, diff.data, actual.width, actual.height, { threshold: THRESHOLD, includeAA: false });
  return changed <= maxDiffPixels
    ? { ok: true, changed }
    : { ok: false, changed, why: `${changed} pixels changed (${maxDiffPixels} allowed)`, diff: PNG.sync.write(diff) };
}

/** The picture names of one story, `<story id>--<theme>-<width>.png`, for the variants it is taken in. */
const variants = (id, { pinnedTheme, ownWidth }) =>
  (pinnedTheme ? [pinnedTheme] : THEMES).flatMap((theme) =>
    (ownWidth ? [360] : WIDTHS).map((width) => ({ theme, width, name: `${id}--${theme}-${width}.png` })),
  );

/**
 * Takes every story's pictures from the Storybook at `origin`, in `workers` browsers side by side
 * (each page in a browser of its own, so none is a background tab without animation frames),
 * and compares each with its baseline. Returns the problems found (none when every picture
 * matches) and how many pictures were taken.
 */
export async function checkLooks(launch, origin, stories, { workers = 3, update = process.env.UPDATE_BASELINES === '1', partial = false } = {}) {
  mkdirSync(BASELINES, { recursive: true });
  rmSync(FAILURES, { recursive: true, force: true });
  const problems = [];
  const taken = new Set();
  const queue = [...stories];
  const work = async () => {
    const browser = await launch();
    if (update) writeFileSync(join(BASELINES, 'CHROMIUM.txt'), `${await browser.version()}\n`);
    try {
      const camera = await cameraFor(browser, origin);
      for (let story = queue.shift(); story; story = queue.shift()) {
        try {
          problems.push(...(await pictureStory(camera, story.id, taken, update)));
        } catch (error) {
          problems.push(`${story.id}: ${error.message}`);
        }
      }
    } finally {
      await browser.close();
    }
  };
  await Promise.all(Array.from({ length: workers }, work));
  // A baseline whose story is gone would pass silently forever: name it (and in an update that
  // went through, remove it).
  // Only when every story was taken: a partial run (STORIES=…) leaves the others' baselines alone.
  for (const file of partial ? [] : readdirSync(BASELINES).filter((f) => f.endsWith('.png'))) {
    if (taken.has(file)) continue;
    if (update && !problems.length) rmSync(join(BASELINES, file));
    else problems.push(`${file}: baseline of a story or variant that no longer exists`);
  }
  return { problems: problems.sort(), taken: taken.size };
}

/**
 * A page that shows a story in a theme, window width and colour mode. Storybook is loaded once;
 * each picture after that is a fresh render of the story (Storybook's own remount), which is
 * what a reload gives for a fraction of its time.
 */
async function cameraFor(browser, origin) {
  const page = await browser.newPage();
  const inFlight = new Set();
  page.on('request', (r) => inFlight.add(r.url()));
  page.on('requestfinished', (r) => inFlight.delete(r.url()));
  page.on('requestfailed', (r) => inFlight.delete(r.url()));
  let first = true;
  const open = async (id, { theme, width, forcedColors }) => {
    await page.setViewport({ width, height: 800 });
    await page.emulateMediaFeatures([
      { name: 'prefers-reduced-motion', value: 'reduce' },
      { name: 'forced-colors', value: forcedColors ? 'active' : 'none' },
    ]);
    inFlight.clear();
    if (first) {
      first = false;
      // axe is left to the a11y tests: it would run on every render here.
      await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story&globals=theme:${theme};a11y.manual:!true`, { waitUntil: 'load' });
      // A text field's caret blinks: a picture would show it or not by chance. It is inherited into the panels' shadow roots.
      await page.addStyleTag({ content: '* { caret-color: transparent !important; }' });
      await waitForRender(page);
      return;
    }
    await page.evaluate(
      (storyId, theme) => {
        const channel = window.__STORYBOOK_ADDONS_CHANNEL__;
        const preview = window.__STORYBOOK_PREVIEW__;
        window.__visualRendered = false;
        const done = () => {
          window.__visualRendered = true;
          for (const event of DONE) channel.off(event, done);
        };
        const DONE = ['storyRendered', 'storyErrored', 'storyThrewException', 'playFunctionThrewException'];
        for (const event of DONE) channel.on(event, done);
        if (preview.storyStoreValue.userGlobals.get().theme !== theme) channel.emit('updateGlobals', { globals: { theme } });
        if (preview.currentSelection?.storyId === storyId) channel.emit('forceRemount', { storyId });
        else channel.emit('setCurrentStory', { storyId, viewMode: 'story' });
      },
      id,
      theme,
    );
    await waitForRender(page);
  };
  return { page, inFlight, open };
}

/** Waits until the render `open` asked for is done: drawn, and its play function played. Throws when it failed. */
async function waitForRender(page) {
  const done = await page.waitForFunction(
    () =>
      window.__visualRendered !== false &&
      ['completed', 'afterEach', 'finished', 'errored', 'aborted'].includes(window.__STORYBOOK_PREVIEW__?.currentRender?.phase),
    {
      timeout: 30_000,
      polling: 50,
    },
  );
  const phase = await done.evaluate(() => window.__STORYBOOK_PREVIEW__.currentRender.phase);
  if (phase === 'errored' || phase === 'aborted') throw new Error(`the story ${phase}: Storybook shows its error instead`);
}

/** Takes one story's pictures and compares them; returns its problems. */
async function pictureStory({ page, inFlight, open }, id, taken, update) {
  const problems = [];
  // The first load tells what the story asks for, and is its first picture when it can be.
  let loaded = { theme: 'light', width: 360, forcedColors: false };
  await open(id, loaded);
  const facts = await storyFacts(page);
  // A story whose end state depends on timing (how far a scroll got) says why it has no picture.
  if (facts.visual.skip) return problems;
  const forcedColors = Boolean(facts.visual.forcedColors);
  const wanted = variants(id, facts);
  // Named before any is taken: a story that fails half-way keeps its other baselines.
  for (const { name } of wanted) taken.add(name);
  for (const { theme, width, name } of wanted) {
    // A story that pins its theme ignores the one in the address.
    const view = { theme: facts.pinnedTheme ? 'light' : theme, width, forcedColors };
    if (JSON.stringify(view) !== JSON.stringify(loaded)) await open(id, view);
    loaded = null; // the next picture loads afresh
    const file = join(BASELINES, name);
    const baseline = !update && existsSync(file) ? readFileSync(file) : null;
    // A first picture that matches its baseline is taken as it is; any other waits to be steady.
    const picture = await settledPicture(page, inFlight, facts.visual, (png) => baseline !== null && compare(png, baseline, facts.visual).ok);
    if (update) {
      writeFileSync(file, picture);
      continue;
    }
    if (!baseline) {
      problems.push(`${name}: no baseline (run npm run test:visual:update and look at the new picture)`);
      continue;
    }
    const result = compare(picture, baseline, facts.visual);
    if (result.ok) continue;
    problems.push(`${name}: ${result.why}`);
    mkdirSync(FAILURES, { recursive: true });
    writeFileSync(join(FAILURES, name), picture);
    if (result.diff) writeFileSync(join(FAILURES, name.replace(/\.png$/, '.diff.png')), result.diff);
  }
  return problems;
}
