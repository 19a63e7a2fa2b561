// browser.mjs: launch Debian's chromium through playwright-core with the flags this machine needs.
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// opts: more context options (locale: the browser's language, e.g. 'de-DE').
export async function launch(opts = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kontor-chromium-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    ...opts,
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 900 },
  });
  // the tests play at once: no pause after the news unless a test sets a pace (web/pace.js)
  await ctx.addInitScript(() => { try { if (!localStorage.getItem('kontor-pace')) localStorage.setItem('kontor-pace', 'off'); } catch { /* no storage */ } });
  return ctx;
}

// A second, independent browser (its own profile): a second player.
export const launchOther = launch;
