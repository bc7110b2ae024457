import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import { goTo, NO_LIMIT, startWebModePage, type WebModePage } from './helpers/web-mode-page';

/**
 * Issue 32: the page never scrolls past the app frame, in a real browser (web mode, Debian's
 * chromium). The frame (top bar, sidebar, main) fills the window; only its main area scrolls. The
 * document itself is asked to scroll to its end on each screen, and must stay where it is.
 */

let world: WebModePage;
let core: Core;
let page: Page;

beforeAll(async () => {
  world = await startWebModePage({ name: 'app-frame', devices: { pollIntervalMs: 1000 } });
  ({ core, page } = world);
  await core.session.useLocalWorkspace();
  await page.reload();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor(NO_LIMIT);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

/** How far the document (not the app's main area) scrolls after being asked to go to its end; run in the page. */
const DOCUMENT_SCROLL = `(() => {
  const doc = document.scrollingElement || document.documentElement;
  window.scrollTo(100000, 100000);
  const at = { x: window.scrollX, y: window.scrollY, overflowY: doc.scrollHeight - window.innerHeight, overflowX: doc.scrollWidth - window.innerWidth };
  window.scrollTo(0, 0);
  return at;
})()`;

function documentScroll(p: Page): Promise<{ x: number; y: number; overflowY: number; overflowX: number }> {
  return p.evaluate<{ x: number; y: number; overflowY: number; overflowX: number }>(DOCUMENT_SCROLL);
}

describe('the app frame', () => {
  // A low window, so that every screen's list runs past the fold: what lies below it (hidden
  // labels and reasons among them) must scroll inside the frame, not lengthen the page.
  for (const screen of ['Workbench', 'Devices', 'Configurations', 'Firmware']) {
    it(`${screen}: the page does not scroll past the frame`, { timeout: 120_000 }, async () => {
      await page.setViewportSize({ width: 1280, height: 420 });
      await goTo(page, screen);
      await page.getByRole('heading', { level: 1 }).first().waitFor(NO_LIMIT);
      // Let lists load: the Devices screen grows once its rows arrive.
      await page.waitForLoadState('networkidle', NO_LIMIT);
      const scroll = await documentScroll(page);
      await world.shot(`app-frame-${screen.toLowerCase()}`);
      expect(scroll).toEqual({ x: 0, y: 0, overflowY: expect.any(Number), overflowX: expect.any(Number) });
      expect(scroll.overflowY, 'the document is taller than the window').toBeLessThanOrEqual(0);
      expect(scroll.overflowX, 'the document is wider than the window').toBeLessThanOrEqual(0);
      expect([...world.pageErrors]).toEqual([]);
    });
  }
});
