import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** The tallest the top bar may be on a phone. */
export const TOP_BAR_MAX = 64;

/** What a phone check measures. */
export interface PhoneLayout {
  scrollWidth: number;
  innerWidth: number;
  topBar: number;
  /** Elements reaching past the right edge (tag.class), to name the culprit of an overflow. */
  wide: string[];
}

/**
 * Measures the document's width against the viewport and the height of the top bar.
 *
 * @example
 * const { scrollWidth, innerWidth } = await measure(page);
 */
export function measure(page: Page): Promise<PhoneLayout> {
  return page.evaluate(() => {
    const right = window.innerWidth;
    const wide = Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > right + 0.5)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${Array.from(e.classList).join('.')}`);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: right,
      topBar: document.querySelector('.sidebar')?.getBoundingClientRect().height ?? 0,
      wide,
    };
  });
}

/**
 * Asserts that nothing makes the page wider than the screen and that the top bar stays compact.
 *
 * @example
 * await expectFitsPhone(page, 'Settings → Tokens');
 */
export async function expectFitsPhone(page: Page, where: string): Promise<void> {
  const m = await measure(page);
  expect(
    m.scrollWidth,
    `${where}: wider than the screen (${m.wide.join(', ')})`,
  ).toBeLessThanOrEqual(m.innerWidth);
  expect(m.topBar, `${where}: top bar height`).toBeGreaterThan(0);
  expect(m.topBar, `${where}: top bar height`).toBeLessThanOrEqual(TOP_BAR_MAX);
}
