// screenshots.mjs: the README's pictures of the browser client: the lobby, a
// game with a word in its chat (on a phone also the side panel below the
// board: chat, areas) and its end, in English and German, at 1280 and 390 px
// wide, written to docs/screenshots/ (then squeezed with pngquant when it is installed).
// Not a test: run it by hand after a visible change to the client.
// Usage: node tests/e2e/screenshots.mjs   (from the repository root; KONTOR=path/to/kontor)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.mjs';

const KONTOR = process.env.KONTOR || 'build/kontor';
const OUT = process.env.OUT || 'docs/screenshots';
mkdirSync(OUT, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'kontor-shots-'));

const server = await new Promise((resolve, reject) => {
  const p = spawn(KONTOR, ['serve', '--port', '0', '--db', join(dir, 'shots.db'), '--web', 'web', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  p.stdout.on('data', d => { out += d; const m = out.match(/http:\/\/[\d.]+:(\d+)\//); if (m) resolve({ p, url: `http://127.0.0.1:${m[1]}/` }); });
  p.on('exit', c => reject(new Error(`server exited ${c}`)));
});
const { url } = server;

// One decision: a hand card, a cell or a button, the middle one offered (a
// plain, repeatable game rather than a random one).
async function act(page) {
  // at the declaration play rather than pass, so both sides build the harbour
  const play = await page.$('#actions button.kind-declare:not(.pass)');
  if (play) { try { await play.click({ force: true, timeout: 2000 }); return true; } catch { return false; } }
  const all = await page.$$('.hand-card.playable, rect.legal, #actions button.decision');
  if (!all.length) return false;
  try { await all[Math.floor(all.length / 2)].click({ force: true, timeout: 2000 }); return true; } catch { return false; }
}

for (const [lang, locale] of [['en', 'en-GB'], ['de', 'de-DE']]) {
  const ctx = await launch({ locale });
  for (const w of [1280, 390]) {
    const page = await ctx.newPage();
    await page.setViewportSize({ width: w, height: w > 500 ? 860 : 844 });
    await page.goto(url);
    await page.waitForSelector('#lists h2');
    await page.screenshot({ path: `${OUT}/${lang}-${w}-lobby.png` });
    const r = await fetch(new URL('/api/games', url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'advanced', seats: ['human', 'easy'] }) });
    const g = await r.json();
    await page.goto(url + g.seats[0].link);
    await page.waitForSelector('.hand-card.playable, #actions button.kind-declare');
    // well into the game (some areas enclosed, some open), at the declaration:
    // the pass / play buttons over the hand
    for (let i = 0; i < 400; i++) {
      const round = Number(((await page.textContent('.pub')) || '').match(/(\d+)/)[1]);
      if (round >= 14 && (await page.$('#actions button.kind-declare'))) break;
      if (!(await act(page))) await page.waitForTimeout(80); else await page.waitForTimeout(40);
    }
    // a word in the chat, so the panel shows a message
    await page.fill('.chat-form input', lang === 'de' ? 'Viel Glück!' : 'Good luck!');
    await page.press('.chat-form input', 'Enter');
    await page.waitForSelector('.chat-msg');
    await page.evaluate(() => document.activeElement.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${OUT}/${lang}-${w}-game.png` });
    // on a phone the side panel (chat, areas) lies below the board
    if (w < 500) {
      await page.evaluate(() => document.querySelector('#chatbox').scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${OUT}/${lang}-${w}-chat.png` });
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    for (let i = 0; i < 3000 && !(await page.$('#end:not(.hidden)')); i++) if (!(await act(page))) await page.waitForTimeout(80);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/${lang}-${w}-end.png` });
    await page.close();
  }
  await ctx.close();
}
server.p.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
const files = readdirSync(OUT).filter(f => f.endsWith('.png')).map(f => join(OUT, f));
if (spawnSync('pngquant', ['--version']).status === 0)
  for (const f of files) spawnSync('pngquant', ['--force', '--skip-if-larger', '--quality=40-80', '--speed', '1', '--output', f, f]);
let total = 0;
for (const f of files) total += statSync(f).size;
console.log(`${files.length} screenshots in ${OUT}, ${Math.round(total / 1024)} KB`);
