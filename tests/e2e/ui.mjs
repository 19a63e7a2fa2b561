// ui.mjs: end-to-end tests of the browser client's reading aids and fixes
// (issue 16): pile tops, the last moves outlined after a reload, the timer's
// decisions in the log, the end table, the phone layout, German and English,
// the rules, turn notification, keyboard play, areas, pacing, accessibility.
// Called from run.mjs with its helpers, so that both share one server.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { launch } from './browser.mjs';

async function api(url, method, path, body) {
  const r = await fetch(new URL(path, url), { method, headers: { 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const d = await r.json();
  if (!r.ok) throw new Error(d.error || `HTTP ${r.status}`);
  return d;
}

// A round opens with the declaration (R1): say "play a card" (the button,
// or Enter on it from the keyboard), then the hand is playable.
async function handReady(page, { keyboard = false, timeout = 15000 } = {}) {
  const t0 = Date.now();
  while (Date.now() - t0 < timeout) {
    if (await page.$('.hand-card.playable')) return;
    const play = await page.$('#actions button.kind-declare:not(.pass)');
    if (play && keyboard) {
      for (let i = 0; i < 60 && !(await page.evaluate(() => !!document.activeElement && document.activeElement.matches('button.kind-declare:not(.pass)'))); i++)
        await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
    } else if (play) {
      try { await play.click({ timeout: 1000 }); } catch { /* redrawn: look again */ }
    }
    await page.waitForTimeout(80);
  }
  throw new Error('no playable hand card');
}

const roundOf = async page => Number(((await page.textContent('.pub')) || '').match(/(\d+)/)[1]);
const outlined = page => page.$$eval('#board rect.last', r => r.map(x => x.getAttribute('data-cell')).sort().join(' '));
const tops = page => page.$$eval('.pile-top', s => s.map(x => `${[...x.classList].join('.')}=${x.dataset.card}`).join(' '));

export async function uiTests({ test, A, B, url, act, playToEnd, SHOTS }) {
  await test('ui: creating a game: its links without stray text; private unless listed, a listed one offered and claimed', async () => {
    const page = await A.newPage();
    await page.goto(url);
    await page.waitForSelector('#create');
    await page.selectOption('#seat0', 'human');
    await page.selectOption('#seat1', 'human');
    await page.click('#create');
    await page.waitForSelector('.join-link');
    const text = await page.textContent('#created');
    assert.ok(!/null|undefined/.test(text), `no placeholder in the created game's links: ${text}`);
    // private unless listed: a stranger's lobby does not offer it; a listed one it does
    assert.match(await page.textContent('#privacy'), /private/);
    const id = text.match(/Game ([0-9a-z]+) created/)[1];
    const stranger = await B.newPage();
    await stranger.goto(url);
    await stranger.waitForSelector('#open', { state: 'attached' });
    assert.ok(!(await stranger.textContent('#open')).includes(id), 'a private game is not offered to strangers');
    await page.check('#listed');
    await page.click('#create');
    await page.waitForSelector('#privacy:has-text("Listed")');
    const id2 = (await page.textContent('#created')).match(/Game ([0-9a-z]+) created/)[1];
    await stranger.reload();
    await stranger.waitForSelector('#open', { state: 'attached' });
    assert.ok((await stranger.textContent('#open')).includes(id2), 'a listed game is offered');
    await stranger.click(`#open li:has-text("${id2}") button.claim >> nth=0`);
    await stranger.waitForSelector('.hand-card');
    await stranger.close();
    await page.close();
  });

  await test('ui: each player names himself in the lobby; everyone sees the names, as text', async () => {
    const pa = await A.newPage(), pb = await B.newPage();
    for (const [p, n] of [[pa, 'Anna'], [pb, 'Bert <i>x</i>']]) {
      await p.goto(url);
      await p.fill('#player-name', n);
    }
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'human'] });
    await pa.goto(url + g.seats[0].link);
    await pb.goto(url + g.seats[1].link);
    await pb.waitForSelector('.hand-card');
    await pa.waitForFunction(() => /black \(Bert <i>x<\/i>\)/.test(document.querySelector('#seats').textContent));
    const pw = await A.newPage();
    await pw.goto(url + g.watch);
    await pw.waitForSelector('.seat');
    const seats = await pw.textContent('#seats');
    assert.ok(seats.includes('red (Anna)') && seats.includes('black (Bert <i>x</i>)'), seats);
    assert.equal(await pw.$$eval('#seats i', x => x.length), 0, 'a name is shown as text, never as markup');
    // the other tests play nameless
    for (const p of [pa, pb]) await p.evaluate(() => localStorage.removeItem('kontor-name'));
    await pa.close(); await pb.close(); await pw.close();
  });

  await test('ui: a rematch at the end: same players, colours swapped; the other player and the spectator are offered it', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'human'] });
    const pa = await A.newPage(), pb = await B.newPage(), pw = await B.newPage();
    await pa.goto(url + g.seats[0].link);
    await pb.goto(url + g.seats[1].link);
    await pw.goto(url + g.watch);
    await pa.waitForSelector('.hand-card'); await pb.waitForSelector('.hand-card');
    assert.ok(await playToEnd([pa, pb]), 'the game ended');
    await pb.waitForSelector('#end:not(.hidden)');
    await pw.waitForSelector('#end:not(.hidden)');
    assert.equal(await pw.$('#rematch'), null, 'a spectator has no rematch button');
    await pa.click('#rematch');
    // the old game's page has .seat too: wait for the hash to name the new game
    await pa.waitForFunction(old => {
      const m = location.hash.match(/^#play\/([0-9a-z]+)\//);
      return m && m[1] !== old;
    }, g.id);
    await pa.waitForSelector('.seat');
    const nid = pa.url().match(/#play\/([0-9a-z]+)\//)[1];
    assert.notEqual(nid, g.id);
    // red's player plays black now
    await pa.waitForFunction(() => /black \(you\)/.test(document.querySelector('#seats').textContent));
    // the other player's button says a rematch is ready, and takes him to red
    await pb.waitForSelector('#rematch.big');
    await pb.click('#rematch');
    await pb.waitForFunction(() => /red \(you\)/.test((document.querySelector('#seats') || {}).textContent || ''));
    assert.ok(pb.url().includes(`#play/${nid}/`));
    await pw.waitForSelector('#rematch-watch');
    assert.equal(await pw.getAttribute('#rematch-watch', 'href'), `#watch/${nid}`);
    await pa.close(); await pb.close(); await pw.close();
  });

  await test('ui: pile tops are shown to players and spectators; reload keeps the outlines; the end table and log read right', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'easy'] });
    const page = await A.newPage();
    await page.goto(url + g.seats[0].link);
    await handReady(page);
    const pw = await B.newPage();
    await pw.goto(url + g.watch);
    await pw.waitForSelector('.seat');
    // every face-up pile shows its top: two dock piles and the water pile
    assert.equal(await page.$$eval('.seat .dock-top', x => x.length), 2);
    assert.equal(await page.$$eval('.water-top', x => x.length), 1);
    for (let i = 0; i < 400 && (await roundOf(page)) < 4; i++) { if (!(await act(page))) await page.waitForTimeout(60); else await page.waitForTimeout(40); }
    await page.waitForTimeout(400);
    await pw.waitForTimeout(400);
    assert.equal(await tops(pw), await tops(page), 'the spectator sees the same pile tops');
    // the top shown is a card of the set, drawn with its words
    assert.match(await page.$eval('.water-top', s => s.getAttribute('aria-label')), /water pile: water \d/);
    // a reload outlines the same cells as before it, not every card placed
    await handReady(page);
    const before = await outlined(page);
    const placed = await page.$$eval('#board g[data-cell]', x => x.length);
    assert.ok(before.length > 0, 'the last moves are outlined');
    await page.reload();
    await handReady(page);
    await page.waitForTimeout(200);
    const after = await outlined(page);
    assert.equal(after, before, 'a reload outlines the same cells');
    assert.ok(after.split(' ').length < placed - 9, `not every card is outlined (${after.split(' ').length} of ${placed})`);
    assert.ok(await playToEnd([page]), 'the game ended');
    // the log says where the ship goes to
    const shipLines = await page.$$eval('#log li', l => l.map(x => x.textContent).filter(t => t.includes('moves the ship')));
    assert.equal(await page.evaluate(async () => (await import('/board.js')).describe({ kind: 'ship', seat: 0, x: 1, y: -2 }, [], ['red'])),
      'red moves the ship to +1,-2');
    for (const t of shipLines) assert.match(t, /moves the ship to [+-]?\d+,[+-]?\d+$/);
    // areas that do not count show no points
    const rows = await page.$$eval('.scoring tbody tr', r => r.map(x => [...x.children].map(c => c.textContent)));
    assert.ok(rows.length > 0);
    for (const r of rows) if (r[8] !== 'yes') assert.equal(r[7], '–', `an area that does not count shows no points: ${r}`);
    // no keeper covers a ship symbol
    await page.click('text=Look at the board');
    const overlaps = await page.$$eval('#board .keeper', ks => {
      const ships = [...document.querySelectorAll('#board .ship-mark')].map(s => s.getBoundingClientRect());
      return ks.map(k => k.getBoundingClientRect()).filter(k => ships.some(s => k.left < s.right && s.left < k.right && k.top < s.bottom && s.top < k.bottom)).length;
    });
    assert.equal(overlaps, 0, 'a keeper covers a ship symbol');
    await page.close(); await pw.close();
  });

  await test('ui: the end table gives areas that do not count no points (four computers, watched)', async () => {
    const page = await B.newPage();
    let rows = [];
    // areas of one dock card never count with four (R27): a game or two has some
    for (let k = 0; k < 3 && !rows.some(r => r[8] !== 'yes'); k++) {
      const g = await api(url, 'POST', '/api/games', { variant: 'four', seats: ['random', 'random', 'random', 'random'] });
      await page.goto(url + g.watch);
      await page.waitForSelector('#end:not(.hidden)', { timeout: 60000 });
      rows = await page.$$eval('.scoring tbody tr', r => r.map(x => [...x.children].map(c => c.textContent)));
    }
    assert.ok(rows.some(r => r[8] !== 'yes'), 'an area that does not count');
    for (const r of rows) if (r[8] !== 'yes') assert.equal(r[7], '–', `an area that does not count shows no points: ${r}`);
    // the areas beside the board give the final reading, the table's, not the words of a running game ("now")
    const listed = await page.$$eval('#areas li.area-closed', l => l.map(x => x.textContent));
    assert.equal(listed.length, rows.length, 'one area listed per row of the end table');
    listed.forEach((w, i) => {
      assert.doesNotMatch(w, /\bnow\b/, `an area after the end: ${w}`);
      if (!/a tie|struck/.test(w)) assert.match(w, rows[i][8] === 'yes' ? / · counted$/ : / · did not count \(not among the areas that scored\)$/, `area ${i + 1} as in the end table (${rows[i][8]}): ${w}`);
    });
    await page.close();
  });

  await test('ui: at 390 px the phone layout keeps score, board and hand readable', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'easy'] });
    const page = await A.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url + g.seats[0].link);
    await handReady(page);
    for (let i = 0; i < 400 && (await roundOf(page)) < 6; i++) { if (!(await act(page))) await page.waitForTimeout(60); else await page.waitForTimeout(40); }
    await handReady(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    const m = await page.evaluate(() => {
      const r = s => document.querySelector(s).getBoundingClientRect();
      const nums = [...document.querySelectorAll('#board .num')].map(n => n.getBoundingClientRect().height);
      return { page: document.documentElement.scrollWidth, summary: r('#summary'), board: r('#board'), hand: r('.hand-card'),
        bar: r('.hand-bar'), num: Math.min(...nums), vh: innerHeight };
    });
    assert.ok(m.page <= 390, `the page does not scroll sideways (${m.page} px)`);
    assert.ok(m.summary.height > 0 && m.summary.bottom <= m.board.top + 1, 'the score sits above the board');
    assert.ok(m.num >= 12, `card numbers are at least 12 px (${m.num.toFixed(1)})`);
    assert.ok(m.hand.width >= 56, `hand cards are at least 56 px (${m.hand.width})`);
    assert.ok(m.bar.bottom <= m.vh + 1 && m.bar.top < m.vh, 'the hand is on the screen without scrolling');
    await page.screenshot({ path: `${SHOTS}/phone-game.png` });
    await page.close();
  });

  await test('ui: both catalogues have every key, and every key the client uses', async () => {
    const page = await A.newPage();
    await page.goto(url);
    const cat = await page.evaluate(async () => {
      const en = (await import('/lang/en.js')).default, de = (await import('/lang/de.js')).default;
      const show = v => (typeof v === 'function' ? v({ n: 2, coins: 2, a: 2, name: 'x', who: 'x', card: 'x', at: '0,0' }) : v);
      return { en: Object.fromEntries(Object.entries(en).map(([k, v]) => [k, show(v)])), de: Object.fromEntries(Object.entries(de).map(([k, v]) => [k, show(v)])) };
    });
    const en = Object.keys(cat.en).sort(), de = Object.keys(cat.de).sort();
    assert.deepEqual(en.filter(k => !cat.de[k] && cat.de[k] !== ''), [], 'keys missing in de.js');
    assert.deepEqual(de.filter(k => !cat.en[k] && cat.en[k] !== ''), [], 'keys missing in en.js');
    // no value left empty, but the ones that say nothing on purpose
    const empty = ['colour.neutral', 'end.'];
    for (const l of ['en', 'de']) for (const [k, v] of Object.entries(cat[l])) if (!empty.includes(k)) assert.ok(String(v).trim(), `${l}: '${k}' is empty`);
    // every literal key in the client's source is in the catalogue
    const src = readdirSync('web').filter(f => f.endsWith('.js')).map(f => readFileSync(`web/${f}`, 'utf8')).join('\n');
    const used = [...new Set([...src.matchAll(/\bt\('([^']+)'/g)].map(m => m[1]))];
    assert.ok(used.length > 100, `keys found in the source (${used.length})`);
    assert.deepEqual(used.filter(k => cat.en[k] === undefined), [], 'keys used but not in the catalogue');
    // German is German: most entries differ from the English ones
    const same = en.filter(k => cat.en[k] === cat.de[k] && !/^(app\.|title\.game|variant\.\w+\.name|sum\.team|seat\.four|card\.(dock|goods)|game\.countdown|end\.$|colour\.neutral)/.test(k));
    assert.ok(same.length <= 6, `entries identical in both: ${same}`);
    await page.close();
  });

  await test('ui: a German browser gets the German client, and the switch turns it English', async () => {
    const D = await launch({ locale: 'de-DE' });
    const errs = [];
    const page = await D.newPage();
    page.on('pageerror', e => errs.push(e.message));
    await page.goto(url);
    await page.waitForSelector('#play-computer');
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    assert.equal(await page.textContent('#play-computer'), 'Gegen den Computer spielen');
    await page.waitForSelector('#open, #lists .panel h2');
    assert.match(await page.textContent('main'), /Offene Spiele/);
    await page.click('#play-computer');
    await handReady(page);
    const text = await page.textContent('main');
    assert.match(text, /Münzen \d+ · Hand \d+ · Stapel \d+/);
    assert.match(await page.textContent('#status'), /Handkarte verdeckt ausspielen/);
    assert.match(await page.textContent('.pub'), /^Runde \d+ · ausspielen · Stadtkasse/);
    assert.match(await page.textContent('#reference'), /Kurzübersicht.*Wein › Gewürze › Tee › Wein/);
    // no English word of the client is left on the game screen
    assert.ok(!/\b(coins|round|pile|waiting|choose|treasury|lobby|Log|you)\b/.test(text), `English on the German screen: ${text}`);
    const titles = await page.$$eval('.hand-card title', x => x.map(e => e.textContent).join(' | '));
    assert.ok(/ausspielen|passen/.test(titles) && !/\bplay\b/.test(titles), titles);
    await page.screenshot({ path: `${SHOTS}/de-game.png` });
    // the switch: English, and it stays English after a reload
    await page.selectOption('#lang', 'en');
    await page.waitForFunction(() => document.querySelector('#status') && /choose a card/.test(document.querySelector('#status').textContent));
    await page.reload();
    await page.waitForSelector('.seat');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.match(await page.textContent('main'), /coins \d+ · hand \d+ · pile \d+/);
    await page.selectOption('#lang', 'de');
    await page.waitForSelector('text=Verlauf');
    assert.deepEqual(errs, []);
    await D.close();
  });

  await test('ui: server errors in the user\'s language by their code; an unknown code shows the server\'s text', async () => {
    const D = await launch({ locale: 'de-DE' });
    const errs = [];
    const page = await D.newPage();
    page.on('pageerror', e => errs.push(e.message));
    // a game that does not exist (code no_game), a link that opens no seat (bad_token)
    await page.goto(`${url}#watch/nosuchgame`);
    await page.waitForFunction(() => /\S/.test(document.querySelector('#game-error')?.textContent || ''));
    assert.equal(await page.textContent('#game-error'), 'Dieses Spiel gibt es nicht (mehr).');
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'human'] });
    await page.goto(`${url}#play/${g.id}/notatoken`);
    await page.waitForFunction(() => /Link/.test(document.querySelector('#game-error')?.textContent || ''));
    assert.equal(await page.textContent('#game-error'), 'Dieser Link öffnet keinen Platz des Spiels: bitte um einen neuen Link.');
    // an HTTP error (a private game's seat claimed without its link: code private)
    const claimed = await page.evaluate(async id => {
      const { errorText } = await import('/i18n.js');
      const r = await fetch(`/api/games/${id}/seats/1`, { method: 'POST' });
      return errorText(await r.json(), r.status);
    }, g.id);
    assert.equal(claimed, 'Dieses Spiel ist privat: seine Plätze öffnen nur ihre Links.');
    // a code the catalogue does not know: the server's own words
    assert.equal(await page.evaluate(async () => (await import('/i18n.js')).errorText({ code: 'brand_new_code', error: 'the server says why' })),
      'the server says why');
    // and the same errors in English
    await page.selectOption('#lang', 'en');
    await page.goto(`${url}#watch/nosuchgame`);
    await page.waitForFunction(() => /exist/.test(document.querySelector('#game-error')?.textContent || ''));
    assert.equal(await page.textContent('#game-error'), 'This game does not exist (any more).');
    assert.deepEqual(errs, []);
    await D.close();
  });

  await test('ui: the rules page in both languages, the reference beside the board', async () => {
    const page = await A.newPage();
    await page.goto(url);
    const href = await page.getAttribute('#rules-link', 'href');
    assert.match(href, /^rules\.html#(en|de)$/);
    for (const [l, cycle, note] of [['en', 'wine beats spice, spice beats tea, tea beats wine', 'What is reconstructed'],
      ['de', 'Wein schlägt Gewürze, Gewürze schlagen Tee, Tee schlägt Wein', 'Was rekonstruiert ist']]) {
      await page.goto(`${url}rules.html#${l}`);
      const shown = await page.$$eval('section[lang]', s => s.filter(x => !x.hidden).map(x => x.lang));
      assert.deepEqual(shown, [l], `only the ${l} rules are shown`);
      const text = await page.textContent(`#rules-${l}`);
      assert.ok(text.includes(cycle) && text.includes(note), `the ${l} rules state the cycle and what is reconstructed`);
      assert.equal(await page.getAttribute('html', 'lang'), l);
    }
    // the advanced game: the reference names the cycle, taxes, cranes, the ship and the variant
    const g = await api(url, 'POST', '/api/games', { variant: 'advanced', seats: ['human', 'easy'] });
    await page.goto(url + g.seats[0].link);
    await page.waitForSelector('#reference[open]');
    const ref = await page.textContent('#reference');
    for (const w of ['wine › spice › tea › wine', 'coin', 'crane', 'ship symbol', 'advanced', 'five largest']) assert.ok(ref.includes(w), `reference: ${w} (${ref})`);
    assert.ok(await page.isVisible('#reference li.ref-cycle'));
    const b = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'easy'] });
    await page.goto(url + b.seats[0].link);
    await page.waitForSelector('#reference');
    assert.ok(!(await page.textContent('#reference')).includes('ship symbol'), 'no ship in the basic game’s reference');
    await page.close();
  });

  await test('ui: your turn: the tab title, an optional sound, a notification when the tab is hidden', async () => {
    const page = await A.newPage();
    // stand-ins for the browser's notification, sound and visibility, recording what the client does
    await page.addInitScript(() => {
      window.__notes = []; window.__beeps = 0; window.__hidden = false;
      window.Notification = class { constructor(title, o) { window.__notes.push([title, o && o.body]); } static requestPermission() { return Promise.resolve('granted'); } };
      window.Notification.permission = 'granted';
      const AC = window.AudioContext;
      window.AudioContext = class extends AC { createOscillator() { window.__beeps++; return super.createOscillator(); } };
      Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
    });
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'easy'] });
    await page.goto(url + g.seats[0].link);
    await handReady(page);
    assert.match(await page.title(), /^▶ Your turn/);
    await page.check('#opt-sound');
    await page.check('#opt-notify');
    const beeps0 = await page.evaluate(() => window.__beeps);
    // hide the tab, play on: each time the turn comes back there is a note and a beep
    await page.evaluate(() => { window.__hidden = true; });
    await page.click('.hand-card.playable');
    for (let i = 0; i < 100 && (await page.evaluate(() => window.__notes.length)) === 0; i++) { await act(page); await page.waitForTimeout(80); }
    const notes = await page.evaluate(() => window.__notes);
    assert.ok(notes.length >= 1, 'a notification while the tab is hidden');
    assert.equal(notes[0][0], 'Kontor: your turn');
    assert.ok((await page.evaluate(() => window.__beeps)) > beeps0, 'a sound on the turn');
    // visible again: no more notifications, and the choice survives a reload
    await page.evaluate(() => { window.__hidden = false; window.__notes = []; });
    for (let i = 0; i < 20; i++) { await act(page); await page.waitForTimeout(60); }
    assert.equal((await page.evaluate(() => window.__notes)).length, 0, 'no notification while the tab is seen');
    await page.reload();
    await page.waitForSelector('#opt-sound');
    assert.ok(await page.isChecked('#opt-sound') && await page.isChecked('#opt-notify'));
    // a spectator is never told it is his turn
    const pw = await B.newPage();
    await pw.goto(url + g.watch);
    await pw.waitForSelector('.seat');
    assert.ok(!(await pw.title()).startsWith('▶') && !(await pw.$('#opt-notify')));
    await page.close(); await pw.close();
  });

  await test('ui: keyboard play: Tab, arrows and Enter play whole rounds; aria-live says what happened; colours have shapes', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'easy'] });
    const page = await A.newPage();
    await page.goto(url + g.seats[0].link);
    await handReady(page, { keyboard: true });
    const focused = () => page.evaluate(() => { const a = document.activeElement; return a ? `${a.tagName}.${a.getAttribute('class') || ''}|${a.getAttribute('data-card') || a.getAttribute('data-cell') || a.getAttribute('data-move') || ''}` : ''; });
    // Tab reaches a hand card
    let f = '';
    for (let i = 0; i < 60 && !/hand-card playable/.test(f); i++) { await page.keyboard.press('Tab'); f = await focused(); }
    assert.match(f, /hand-card playable/, 'Tab reaches the hand');
    await page.keyboard.press('ArrowRight');
    const g2 = await focused();
    assert.match(g2, /hand-card playable/);
    assert.notEqual(g2, f, 'the right arrow moves to the next card');
    const logBefore = await page.$$eval('#log li', l => l.length);
    // red and black dock cards on the board or in the hand, each by its colour and shape
    const cardMarks = () => page.$$eval('#board g.card, .hand-card', gs => gs.map(g => {
      const n = g.querySelector('.num'), fill = n && n.getAttribute('fill');
      return fill === '#b3261e' ? (g.querySelector('.mark-red') ? 'red ok' : 'red bare') : fill === '#1d1d1f' ? (g.querySelector('.mark-black') ? 'black ok' : 'black bare') : 'water';
    }));
    // play three rounds with the keyboard alone, and on (at most eight in all)
    // until the computer has laid a dock card of its own: it may pass or lay
    // water cards for several rounds, whatever the seed
    for (let round = 0; round < 3 || (round < 8 && !(await cardMarks()).some(m => m.startsWith('black'))); round++) {
      // choose: the card in focus
      await handReady(page, { keyboard: true });
      await page.waitForFunction(() => document.activeElement && document.activeElement.matches('.hand-card.playable'), null, { timeout: 5000 }).catch(() => {});
      if (!(await focused()).includes('hand-card playable')) {
        for (let i = 0; i < 60 && !/hand-card playable/.test(await focused()); i++) await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      // place: the focus goes to the first highlighted cell when the turn comes; an arrow moves it
      await page.waitForSelector('rect.legal-place', { timeout: 8000 });
      await page.waitForFunction(() => document.activeElement && document.activeElement.matches('rect.legal'), null, { timeout: 3000 });
      if (round === 1) {
        // Tab alone reaches the cells too
        await page.evaluate(() => document.activeElement.blur());
        for (let i = 0; i < 80 && !/legal/.test(await focused()); i++) await page.keyboard.press('Tab');
        assert.match(await focused(), /legal/, 'Tab reaches a cell');
      }
      const cell0 = await focused();
      for (const k of ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowLeft']) { await page.keyboard.press(k); if ((await focused()) !== cell0) break; }
      assert.match(await focused(), /legal/);
      assert.notEqual(await focused(), cell0, 'an arrow moves to another cell');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      // any decision still owed this round (a cell of several kinds, say): the keyboard answers it too
      for (let i = 0; i < 5 && (await page.$$('rect.legal, #actions button.cell-choice')).length && !(await page.$('.hand-card.playable, #actions button.kind-declare')); i++) {
        await page.waitForFunction(() => document.activeElement && document.activeElement.matches('rect.legal, #actions button'), null, { timeout: 3000 }).catch(() => {});
        await page.keyboard.press('Enter');
        await page.waitForTimeout(300);
      }
      await page.waitForSelector('.hand-card.playable, #actions button.kind-declare', { timeout: 8000 });
    }
    const log = await page.$$eval('#log li', l => l.map(x => x.textContent));
    assert.ok(log.length > logBefore + 6, 'the keyboard played');
    assert.ok(log.filter(x => /^red places/.test(x)).length >= 3, `red placed three cards by keyboard: ${log.join(' | ')}`);
    // the live region says the news
    assert.equal(await page.getAttribute('#announce', 'aria-live'), 'polite');
    assert.match(await page.textContent('#announce'), /Your turn|places|reveals/);
    // red and black cards carry different shapes, not only colours
    const marks = await cardMarks();
    assert.ok(marks.includes('red ok') && marks.includes('black ok'), `dock cards of both colours seen (${marks})`);
    assert.ok(!marks.includes('red bare') && !marks.includes('black bare'), `every dock card carries its colour's shape (${marks})`);
    await page.close();
  });

  await test('ui: areas are outlined and say who leads by what, their free cells, and whether they count', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'advanced', seats: ['human', 'easy'] });
    const page = await A.newPage();
    await page.goto(url + g.seats[0].link);
    await handReady(page);
    let open = [], closed = [];
    for (let i = 0; i < 1500 && !(await page.$('#end:not(.hidden)')); i++) {
      if (!(await act(page))) await page.waitForTimeout(60); else await page.waitForTimeout(30);
      if (i % 15 === 0 && (await page.$('#areas'))) {
        // read list and board at one moment (a state message redraws both)
        const r = await page.evaluate(() => {
          const texts = s => [...document.querySelectorAll(s)].map(x => x.textContent), n = s => document.querySelectorAll(s).length;
          return { open: texts('#areas li.area-open'), closed: texts('#areas li.area-closed'), lines: n('#board .area-outline.open'),
            badges: n('#board .area-badge.open'), solid: n('#board .area-outline.closed') };
        });
        ({ open, closed } = r);
        // one dashed outline and one badge per open area, one solid outline per enclosed one
        assert.equal(r.lines, open.length);
        assert.equal(r.badges, open.length);
        assert.equal(r.solid, closed.length);
        for (const w of open) assert.match(w, /^[A-Z]\d* \([+-]?\d+,[+-]?\d+\) ((red|black) leads( by \d+ (tea|wine|spice)|, ahead in \d goods|: (tea|wine|spice) beats (tea|wine|spice))|tied: nobody leads|no warehouses) · /);
        for (const w of open) assert.match(w, /\d+ free cells? borders?/);
        // (the last move may have ended the game: then the final reading, counted or not)
        for (const w of closed) assert.match(w, /enclosed: (a tie|(red|black) won it · (counts|does not count now|struck|counted|did not count))/);
        if (open.some(w => /leads/.test(w)) && closed.length >= 2) break;
      }
    }
    assert.ok(open.some(w => /leads/.test(w)), `an open area with a leader (${open})`);
    assert.ok(closed.length >= 1, 'an enclosed area');
    await page.screenshot({ path: `${SHOTS}/areas.png` });
    await page.close();
  });

  await test('ui: pacing: the reveal stays in a strip, another player’s card fades in, news is held a moment, the ship sails', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'easy'] });
    const page = await A.newPage();
    await page.goto(url + g.seats[0].link);
    await page.waitForSelector('#pace');
    await page.selectOption('#pace', 'normal');
    // when each log line appeared, and each card fading in
    await page.evaluate(() => {
      window.__lines = []; window.__arrived = [];
      new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes) if (n.tagName === 'LI') window.__lines.push([performance.now(), n.textContent]); })
        .observe(document.querySelector('#log'), { childList: true });
      new MutationObserver(() => { for (const x of document.querySelectorAll('#board g.arrive')) window.__arrived.push(x.getAttribute('data-cell')); })
        .observe(document.querySelector('#board'), { childList: true, subtree: true });
    });
    for (let i = 0; i < 300 && (await page.evaluate(() => window.__lines.filter(l => /^black places/.test(l[1])).length)) < 3; i++) {
      if (!(await act(page))) await page.waitForTimeout(80); else await page.waitForTimeout(40);
    }
    const lines = await page.evaluate(() => window.__lines);
    const placed = lines.filter(l => /^black places/.test(l[1]));
    assert.ok(placed.length >= 3, 'black placed cards');
    // the message after black's placement came at least the pause later
    for (const [t0] of placed) {
      const after = lines.find(l => l[0] > t0 + 20);
      if (after) assert.ok(after[0] - t0 >= 800, `the news was held (${Math.round(after[0] - t0)} ms): ${lines.map(l => `${Math.round(l[0])} ${l[1]}`).join('\n')}`);
    }
    assert.ok((await page.evaluate(() => window.__arrived.length)) >= 1, 'a card laid by black faded in');
    // the strip shows the cards of the last round with a reveal (a seat that passed reveals none), with the seats' names
    const { log, strip, n } = await page.evaluate(() => ({ log: [...document.querySelectorAll('#log li')].map(x => x.textContent),
      strip: document.querySelector('#reveal').textContent, n: document.querySelectorAll('#reveal svg.reveal-card').length }));
    const rounds = [];
    for (const l of log) { if (/^— round/.test(l)) rounds.push([]); else if (/ reveals /.test(l) && rounds.length) rounds[rounds.length - 1].push(l); }
    const last = rounds.filter(r => r.length).pop();
    assert.ok(last && last.length >= 1, 'a round with a reveal');
    assert.equal(n, last.length, `the strip shows that round's cards (${strip} / ${last})`);
    for (const l of last) assert.ok(strip.includes(l.split(' reveals ')[0]), `${l} in ${strip}`);
    assert.match(strip, /^Revealed this round: /);
    // the ship sails from its old cell: the animation starts one cell's width away
    const from = await page.evaluate(async () => {
      const { animate } = await import('/pace.js');
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'g')).setAttribute('class', 'ship');
      animate(svg, [], 0, [2, 0], [1, 0]);
      const a = svg.querySelector('g.ship animateTransform');
      return a && a.getAttribute('from');
    });
    assert.equal(from, '64 0');
    await page.selectOption('#pace', 'off');
    await page.close();
  });

  await test('ui: axe-core finds no serious accessibility violation in the lobby, a game, its end and the rules', async () => {
    const axe = readFileSync('tests/e2e/node_modules/axe-core/axe.min.js', 'utf8');
    const check = async (page, where) => {
      await page.addScriptTag({ content: axe });
      const v = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .filter(x => x.impact === 'serious' || x.impact === 'critical').map(x => `${x.id} (${x.impact}): ${x.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(v, [], `${where}: ${v.join('; ')}`);
    };
    const page = await A.newPage();
    for (const w of [1280, 390]) {
      await page.setViewportSize({ width: w, height: 900 });
      await page.goto(url);
      await page.waitForSelector('#open, #lists h2');
      await check(page, `lobby at ${w} px`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const g = await api(url, 'POST', '/api/games', { variant: 'advanced', seats: ['human', 'easy'] });
    await page.goto(url + g.seats[0].link);
    await handReady(page);
    for (let i = 0; i < 30; i++) { await act(page); await page.waitForTimeout(40); }
    await page.waitForSelector('.seat');
    await check(page, 'a game');
    assert.ok(await playToEnd([page]), 'the game ended');
    await check(page, 'the end');
    await page.goto(`${url}rules.html#de`);
    await check(page, 'the rules');
    await page.close();
  });

  await test('ui: a decision the timer plays is logged as "time ran out"', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'easy'], timeout: 1 });
    const page = await A.newPage();
    await page.goto(url + g.seats[0].link);
    await page.waitForSelector('.ev-timeout', { timeout: 6000 });
    assert.match(await page.textContent('.ev-timeout'), /^time ran out: red: /);
    await page.close();
  });
}
