import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The e2e's browser (which Chromium, how launched) and its screenshots; support.ts re-exports them. */

/**
 * Debian's Chromium in its headless shell (package chromium-headless-shell, the same Blink and V8
 * without the desktop browser around them: what Playwright itself runs headless). It ran two spec
 * files in 15% less CPU than the full /usr/bin/chromium on 2026-11-29 (47.6 s user against 56.1 s).
 * CHROMIUM_PATH chooses another build, /usr/bin/chromium where the shell is not installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const chromiumPath = (): string =>
  process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export interface LaunchOptions {
  fakeMedia?: boolean;
  /**
   * The full browser, whose PDF viewer shows a PDF opened in a tab (the shell has none: it downloads
   * the file and the tab stays blank), for the specs that check such a tab.
   */
  pdfViewer?: boolean;
}

export function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: options.pdfViewer ? process.env.CHROMIUM_PATH || '/usr/bin/chromium' : chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // a camera and a microphone that exist without hardware, allowed without asking (video calls)
      ...(options.fakeMedia ? ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] : []),
    ],
  });
}

/**
 * Wait until no overlay motion (dialogs, menus, toasts: rc-motion appear/enter/leave classes) is
 * running. Button wave and loading-icon motions are ignored: they do not hide anything.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const moving = /(^|\s)ant-(zoom|fade|slide-up|slide-down|move-up|message-fade)(-big)?-(appear|enter|leave)(\s|$)/;
      return ![...document.querySelectorAll('[class]')].some((el) => moving.test(el.getAttribute('class') ?? ''));
    },
    undefined,
    { timeout: 5_000 },
  );
}

/** Dialogs, menus and toasts are caught at rest, not mid-fade. `fullPage` for long settings pages. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await settle(page);
  await page.screenshot({
    path: path.join(import.meta.dirname, 'screenshots', `${name}.png`),
    animations: 'disabled',
    fullPage: options.fullPage ?? false,
  });
}

export function failedShotPath(testName: string): string {
  return path.join(import.meta.dirname, 'screenshots', `failed-${testName.replace(/\W+/g, '-')}.png`);
}
