// run.mjs: end-to-end tests of kontor serve in a real browser (Debian's chromium, playwright-core).
//
// Starts `kontor serve --port 0` with a fresh database, then: a full game
// against the computer to its end (end screen, replay slider, record
// download), two browser profiles playing each other with a spectator
// watching, a reload mid-game that resumes, a game for four with one human
// seat and three computers, and Bakschisch with the export store (decisions
// offered as buttons); the reading aids of ui.mjs; the chat and Undo of
// chat.mjs. Screenshots go to
// build/e2e/ (kept as artefacts, not committed). Exits non-zero on failure.
// Usage: node tests/e2e/run.mjs   (from the repository root; KONTOR=path/to/kontor)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { launch } from './browser.mjs';
import { uiTests } from './ui.mjs';
import { chatTests } from './chat.mjs';

const KONTOR = process.env.KONTOR || 'build/kontor';
const SHOTS = process.env.SHOTS || 'build/e2e';
mkdirSync(SHOTS, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'kontor-e2e-'));

function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(KONTOR, ['serve', '--port', '0', '--db', join(dir, 'e2e.db'), '--web', 'web', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', d => { out += d; const m = out.match(/http:\/\/[\d.]+:(\d+)\//); if (m) resolve({ p, url: `http://127.0.0.1:${m[1]}/` }); });
    p.on('exit', c => reject(new Error(`server exited ${c}`)));
  });
}

// The random picks come from a seeded generator (mulberry32): E2E_SEED=N
// repeats a run's picks (the server still deals at random, and the timing of
// the computers' moves is the machine's, so a repeat is close, not exact).
const SEED = (process.env.E2E_SEED ? Number(process.env.E2E_SEED) : Date.now() ^ (process.pid << 12)) >>> 0;
console.log(`e2e seed ${SEED} (E2E_SEED=${SEED} repeats these picks)`);
let rngState = SEED;
function random() {
  rngState = (rngState + 0x6D2B79F5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// Make one decision if the page offers one: a hand card, a highlighted cell,
// or a decision button, picked at random so that every kind gets played.
async function act(page) {
  const all = await page.$$('.hand-card.playable, rect.legal, #actions button');
  if (!all.length) return false;
  const e = all[Math.floor(random() * all.length)];
  // the page re-renders on every message: a handle may go stale, then look again
  try { await e.click({ force: true, timeout: 2000 }); return true; } catch { return false; }
}

async function playToEnd(pages, limit = 4000) {
  for (let i = 0; i < limit; i++) {
    for (const p of pages) if (await p.$('#end:not(.hidden)')) return true;
    let moved = false;
    for (const p of pages) moved = (await act(p)) || moved;
    await pages[0].waitForTimeout(moved ? 60 : 150);
  }
  return false;
}

const results = [];
async function test(name, fn) {
  // E2E_ONLY=regex runs only the tests whose names match (while working on some)
  if (process.env.E2E_ONLY && !new RegExp(process.env.E2E_ONLY).test(name) && !name.startsWith('no script errors')) return;
  const t0 = Date.now();
  try { await fn(); results.push([name, 'ok']); console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`); }
  catch (e) { results.push([name, 'FAIL']); console.log(`FAIL ${name} (E2E_SEED=${SEED}): ${e.stack || e}`); }
}

const { p: server, url } = await startServer();
const A = await launch(), B = await launch();
const errors = [];
for (const ctx of [A, B]) ctx.on('page', pg => pg.on('pageerror', e => errors.push(e.message)));

await test('lobby: play against the computer is one click', async () => {
  const page = await A.newPage();
  await page.goto(url);
  await page.waitForSelector('#play-computer');
  await page.screenshot({ path: `${SHOTS}/lobby.png`, fullPage: true });
  await page.selectOption('#level', 'easy');
  await page.click('#play-computer');
  // a round opens with the declaration (R1): pass or play, two buttons
  await page.waitForSelector('#actions button.kind-declare', { timeout: 10000 });
  assert.match(page.url(), /#play\/[0-9a-z]+\/[0-9a-f]+$/);
  for (let i = 0; i < 10; i++) { await act(page); await page.waitForTimeout(150); }
  await page.screenshot({ path: `${SHOTS}/game-vs-computer.png` });
  // a reload mid-game resumes with the same round and hand: taken while the
  // game waits for us (nothing changes until we decide)
  const decision = '.hand-card.playable, rect.legal, #actions button';
  await page.waitForSelector(decision);
  const hand = p => p.$$eval('.hand-card', x => x.map(c => c.getAttribute('data-card')).sort().join(' '));
  const before = await page.$$eval('.log li', l => l.length);
  const round = await page.textContent('.pub');
  const cards = await hand(page);
  assert.ok(cards.length > 0, 'a hand before the reload');
  await page.reload();
  await page.waitForSelector('.seat');
  await page.waitForSelector(decision);
  assert.equal(await page.textContent('.pub'), round);
  assert.equal(await hand(page), cards, 'the same hand after the reload');
  assert.ok((await page.$$eval('.log li', l => l.length)) >= before, 'the log came back after the reload');
  await page.screenshot({ path: `${SHOTS}/after-reload.png` });
  assert.ok(await playToEnd([page]), 'the game against the computer ended');
  const result = await page.textContent('#result');
  assert.match(result, /(wins|draw).*\d+ – \d+/);
  await page.screenshot({ path: `${SHOTS}/end-screen.png` });
  // the record downloads, the replay slider moves through the game
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('text=Download the record')]);
  assert.match(dl.suggestedFilename(), /^kontor-[0-9a-z]+\.kgn$/);
  await page.click('#to-replay');
  await page.waitForSelector('#slider');
  await page.waitForFunction(() => Number(document.querySelector('#slider').max) > 10);
  await page.$eval('#slider', s => { s.value = 12; s.dispatchEvent(new Event('input')); });
  await page.waitForFunction(() => document.querySelector('#replay-info').textContent.startsWith('decision 12 '));
  await page.screenshot({ path: `${SHOTS}/replay.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await page.waitForSelector('#play-computer');
  await page.screenshot({ path: `${SHOTS}/phone-lobby.png`, fullPage: true });
  await page.close();
});

await test('a finished game\'s replay shows the computer\'s analysis beside the board', async () => {
  const page = await A.newPage();
  await page.goto(url);
  await page.waitForSelector('#play-computer');
  await page.selectOption('#level', 'easy');
  await page.click('#play-computer');
  await page.waitForSelector('.hand-card.playable, rect.legal, #actions button', { timeout: 10000 });
  assert.ok(await playToEnd([page]), 'the game against the computer ended');
  const id = page.url().match(/#play\/([0-9a-z]+)\//)[1];
  await page.click('#to-replay');
  await page.waitForSelector('#analysis');
  // pending, then ready: a summary for each player, with links to the biggest mistakes
  await page.waitForFunction(() => document.querySelectorAll('#analysis-summary .analysis-player').length === 2, null, { timeout: 120000 });
  const status = await page.textContent('#analysis-status');
  assert.match(status, /loss/);
  const jumps = await page.$$('.analysis-jump');
  assert.ok(jumps.length >= 1, 'a biggest mistake to jump to');
  const target = Number(await jumps[0].getAttribute('data-ply'));
  await jumps[0].click();
  await page.waitForFunction(n => Number(document.querySelector('#slider').value) === n, target);
  await page.waitForFunction(() => /loss \d/.test(document.querySelector('#analysis-ply').textContent));
  assert.match(await page.textContent('#analysis-ply'), /recommends/);
  // a reveal: the mixed strategy beside the card played
  const a = await page.evaluate(async gid => (await fetch(`/api/games/${gid}/analysis`)).json(), id);
  const reveal = a.decisions.find(d => d.simultaneous && d.played.kind === 'choose');
  assert.ok(reveal, 'a card choice among the decisions analysed');
  await page.$eval('#slider', (s, n) => { s.value = n; s.dispatchEvent(new Event('input')); }, reveal.ply + 1);
  await page.waitForSelector('#analysis-mixed li');
  assert.ok((await page.$$('#analysis-mixed li')).length >= 1);
  assert.equal((await page.$$('#analysis-mixed li.played')).length, reveal.choices.some(c => c.m === reveal.played.m) ? 1 : 0);
  await page.screenshot({ path: `${SHOTS}/replay-analysis.png`, fullPage: true });
  await page.close();
});

await test('two browsers play each other while a spectator watches', async () => {
  const pa = await A.newPage();
  await pa.goto(url);
  await pa.waitForSelector('#create');
  await pa.selectOption('#seat0', 'human');
  await pa.selectOption('#seat1', 'human');
  await pa.click('#create');
  await pa.waitForSelector('.join-link');
  const links = await pa.$$eval('.join-link', a => a.map(x => x.getAttribute('href')));
  const watch = await pa.$eval('#created a:not(.join-link)', a => a.getAttribute('href'));
  await pa.goto(url + links[0]);
  const pb = await B.newPage();
  await pb.goto(url + links[1]);
  const pw = await B.newPage();
  await pw.goto(url + watch);
  await pa.waitForSelector('.hand-card');
  await pb.waitForSelector('.hand-card');
  await pw.waitForSelector('.seat');
  // the spectator sees no hand and no decisions
  assert.equal(await pw.$$eval('.hand-card', x => x.length), 0);
  assert.equal(await pw.$$eval('rect.legal', x => x.length), 0);
  for (let i = 0; i < 16; i++) { await act(pa); await act(pb); await pa.waitForTimeout(120); }
  await pw.waitForTimeout(300);
  // a background tab does not paint: bring each to the front to photograph it
  await pw.bringToFront();
  await pw.screenshot({ path: `${SHOTS}/spectator.png` });
  await pb.bringToFront();
  await pb.screenshot({ path: `${SHOTS}/black-player.png` });
  // both see the same board as the spectator
  const cells = p => p.$$eval('#board g[data-cell]', g => g.map(x => x.getAttribute('data-cell')).sort().join(' '));
  assert.equal(await cells(pa), await cells(pw));
  assert.equal(await cells(pb), await cells(pw));
  assert.ok(await playToEnd([pa, pb]), 'the game between two browsers ended');
  await pw.waitForSelector('#end:not(.hidden)');
  assert.equal(await pa.textContent('#result'), await pw.textContent('#result'));
  await pw.bringToFront();
  await pw.screenshot({ path: `${SHOTS}/spectator-end.png` });
  await pa.close(); await pb.close(); await pw.close();
});

await test('a game for four: one human seat, three computers, to the end', async () => {
  const page = await A.newPage();
  await page.goto(url);
  await page.waitForSelector('#variant option[value="four"]', { state: 'attached' });
  await page.selectOption('#variant', 'four');
  // four seats, one select each; the lobby offers no expansions for four
  assert.equal(await page.$$eval('#seat-kinds select', s => s.length), 4);
  assert.equal(await page.$$eval('#expansions input', s => s.length), 0);
  await page.selectOption('#seat0', 'human');
  for (const i of [1, 2, 3]) await page.selectOption(`#seat${i}`, 'easy');
  await page.click('#create');
  await page.waitForSelector('.join-link');
  assert.equal(await page.$$eval('.join-link', a => a.length), 1, 'one join link: the one human seat');
  const link = await page.$eval('.join-link', a => a.getAttribute('href'));
  const watch = await page.$eval('#created a.watch-link', a => a.getAttribute('href'));
  await page.goto(url + link);
  await page.waitForSelector('.hand-card');
  // four seat panels in two teams; the 8x8 board; only our own hand
  assert.equal(await page.$$eval('.seat', x => x.length), 4);
  assert.equal(await page.$$eval('.seat-red', x => x.length), 2);
  assert.equal(await page.$$eval('.seat-black', x => x.length), 2);
  // a special card (flood, bridge or customs house) is in the hand from the deal
  const special = await page.$$eval('.hand-card .special', x => x.length);
  assert.ok(special >= 1, 'the special card dealt to the seat is drawn');
  const pw = await B.newPage();
  await pw.goto(url + watch);
  await pw.waitForSelector('.seat');
  assert.equal(await pw.$$eval('.hand-card', x => x.length), 0, 'the spectator sees no hand');
  for (let i = 0; i < 12; i++) { await act(page); await page.waitForTimeout(120); }
  await page.screenshot({ path: `${SHOTS}/four-mid-game.png` });
  assert.ok(!(await page.textContent('#seats')).includes('null'), 'the side panel shows no placeholder text');
  // the cards drawn span at most 8x8; the view adds at most a cell of margin each side
  const span = await page.$$eval('#board g[data-cell]', g => {
    const c = g.map(x => x.getAttribute('data-cell').split(',').map(Number));
    const w = Math.max(...c.map(p => p[0])) - Math.min(...c.map(p => p[0])) + 1, h = Math.max(...c.map(p => p[1])) - Math.min(...c.map(p => p[1])) + 1;
    return [w, h, ...document.querySelector('#board').dataset.extent.split('x').map(Number)];
  });
  assert.ok(span[0] <= 8 && span[1] <= 8 && span[2] <= 10 && span[3] <= 10, `the board fits 8x8 (${span})`);
  assert.ok(await playToEnd([page]), 'the game for four ended');
  assert.match(await page.textContent('#result'), /(wins|draw).*\d+ – \d+/);
  await page.screenshot({ path: `${SHOTS}/four-end.png` });
  await page.click('text=Look at the board');
  await page.screenshot({ path: `${SHOTS}/four-board.png` });
  await pw.bringToFront();
  await pw.waitForSelector('#end:not(.hidden)');
  assert.equal(await pw.textContent('#result'), await page.textContent('#result'));
  await pw.screenshot({ path: `${SHOTS}/four-spectator-end.png` });
  await page.close(); await pw.close();
});

await test('a scenario with its own decisions (Bakschisch with the export store) in the browser', async () => {
  const page = await A.newPage();
  await page.goto(url);
  await page.waitForSelector('#variant option[value="bakschisch"]', { state: 'attached' });
  await page.selectOption('#variant', 'bakschisch');
  await page.check('#expansions input[value="export=1"]');
  await page.selectOption('#level', 'random');
  await page.click('#play-computer');
  await page.waitForSelector('.seat');
  // every decision the client has no control for is a button with its words
  let seen = new Set();
  for (let i = 0; i < 4000 && !(await page.$('#end:not(.hidden)')); i++) {
    for (const k of await page.$$eval('#actions button.decision', b => b.map(x => [...x.classList].find(c => c.startsWith('kind-'))))) seen.add(k);
    if (await page.$('rect.legal-bribe')) seen.add('cell-bribe');
    if (!(await act(page))) await page.waitForTimeout(100);
    else await page.waitForTimeout(40);
  }
  assert.ok(await page.$('#end:not(.hidden)'), 'the Bakschisch game ended');
  assert.ok(seen.has('kind-bribe'), `the bribe decision was offered as a button (${[...seen]})`);
  assert.ok(seen.has('cell-bribe'), `the cards to buy out were offered as highlighted cells (${[...seen]})`);
  assert.ok(seen.has('kind-export'), `the export store's decision was offered as buttons (${[...seen]})`);
  await page.screenshot({ path: `${SHOTS}/bakschisch-end.png` });
  await page.close();
});

await uiTests({ test, A, B, url, act, playToEnd, SHOTS });
await chatTests({ test, A, B, url, act, SHOTS });

await test('no script errors in any page', async () => { assert.deepEqual(errors, []); });

await A.close(); await B.close();
server.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
const failed = results.filter(r => r[1] !== 'ok').length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
