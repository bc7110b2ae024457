import type { Page } from 'playwright-core';

/** Tab presses a walk to one control may take: the sidebar, the top bar and a form hold fewer. */
const MAX_TABS = 80;

/** The focused element's accessible text (its label's, for a form control); run in the page. */
const FOCUSED_TEXT = `(() => {
  const el = document.activeElement;
  if (!el) return '';
  const label = el.id ? document.querySelector('label[for="' + CSS.escape(el.id) + '"]') : null;
  return ((label && label.textContent) || el.getAttribute('aria-label') || el.textContent || '').trim();
})()`;

export async function focusedText(page: Page): Promise<string> {
  return page.evaluate<string>(FOCUSED_TEXT);
}

/** Presses Tab until the focus is on a control whose text matches: how a keyboard user gets there. */
export async function tabTo(page: Page, text: RegExp): Promise<void> {
  for (let i = 0; i < MAX_TABS; i += 1) {
    await page.keyboard.press('Tab');
    if (text.test(await focusedText(page))) return;
  }
  throw new Error(`Tab never reached a control matching ${text}`);
}
