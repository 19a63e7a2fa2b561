// chat.mjs: end-to-end tests of the chat and of Undo against the computer
// (issue 16, items 7 and 8): two people talk and a spectator reads, as text;
// in the game for four the team channel is refused before the reveal, open
// after it, and never reaches the other team or a spectator; a takeback
// restores the hand and the board. Called from run.mjs with its helpers.
import assert from 'node:assert/strict';

async function api(url, method, path, body) {
  const r = await fetch(new URL(path, url), { method, headers: { 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const d = await r.json();
  if (!r.ok) throw new Error(d.error || `HTTP ${r.status}`);
  return d;
}

async function say(page, text, channel = 'table') {
  await page.click(`#chat-tab-${channel}`);
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

const chatText = (page, ch = 'table') => page.$$eval(`#chat-${ch} li`, l => l.map(x => x.textContent));

// What the server answers a raw WebSocket of this page: join seat with
// token, send one message, return the first answer of type want.
function rawSocket(page, id, token, msg, want) {
  return page.evaluate(([id, token, msg, want]) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'join', game: id, token }));
    ws.onmessage = e => {
      const m = JSON.parse(e.data);
      if (m.type === 'welcome') ws.send(JSON.stringify(msg));
      if (m.type === want) { ws.close(); resolve(m); }
    };
    setTimeout(() => reject(new Error(`no ${want}`)), 5000);
  }), [id, token, msg, want]);
}

export async function chatTests({ test, A, B, url, act, SHOTS }) {
  await test('chat: two people talk at the table, a spectator reads, as text only; a reload shows the history', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'human'] });
    const pa = await A.newPage(), pb = await B.newPage(), pw = await B.newPage();
    await pa.goto(url + g.seats[0].link);
    await pb.goto(url + g.seats[1].link);
    await pw.goto(url + g.watch);
    await pa.waitForSelector('#chat-input');
    await pb.waitForSelector('#chat-input');
    await pw.waitForSelector('#chat');
    assert.equal(await pw.$('#chat-input'), null, 'a spectator has no input');
    assert.equal(await pa.$('#chat-tab-team'), null, 'a game for two has no team channel');
    const evil = '<img src=x onerror="window.pwned=1"> Hallo, gut gespielt!';
    await say(pa, evil);
    for (const p of [pa, pb, pw]) await p.waitForFunction(t => [...document.querySelectorAll('#chat-table li')].some(l => l.textContent.includes(t)), evil);
    for (const p of [pb, pw]) {
      assert.equal(await p.$$eval('#chat img', x => x.length), 0, 'a message is shown as text, never as markup');
      assert.equal(await p.evaluate(() => window.pwned), undefined);
    }
    await say(pb, 'Danke, du auch.');
    await pa.waitForFunction(() => /Danke, du auch\./.test(document.querySelector('#chat-table').textContent));
    await pw.waitForFunction(() => /Danke, du auch\./.test(document.querySelector('#chat-table').textContent));
    assert.match((await chatText(pw))[1], /^black: Danke, du auch\.$/);
    await pw.bringToFront();
    await pw.screenshot({ path: `${SHOTS}/chat-spectator.png` });
    await pb.reload();
    await pb.waitForFunction(() => document.querySelectorAll('#chat-table li').length === 2);
    assert.deepEqual(await chatText(pb), await chatText(pw));
    // a text over 200 characters cannot be typed; the rate limit says when to try again
    assert.equal(await pa.getAttribute('#chat-input', 'maxlength'), '200');
    for (let i = 0; i < 5; i++) await say(pa, `eins ${i}`);
    await pa.waitForSelector('#chat-error:has-text("try again")');
    await pa.close(); await pb.close(); await pw.close();
  });

  await test('chat: four players: the team channel is refused before the reveal, open after it, never heard by the other team or a spectator', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'four', seats: ['human', 'human', 'human', 'human'] });
    const pages = [await A.newPage(), await A.newPage(), await B.newPage(), await B.newPage()];
    for (let i = 0; i < 4; i++) await pages[i].goto(url + g.seats[i].link);
    const pw = await B.newPage();
    await pw.goto(url + g.watch);
    for (const p of pages) await p.waitForSelector('#chat-tab-team');
    await pw.waitForSelector('#chat');
    assert.equal(await pw.$('#chat-tab-team'), null, 'a spectator has no team tab');
    // before the reveal: shown closed, and the server refuses it
    const red = pages[0];
    await red.click('#chat-tab-team');
    assert.equal(await red.getAttribute('#team-chat-state', 'data-open'), 'false');
    assert.ok(await red.$('#chat-input[disabled]'), 'the input is closed with the channel');
    const refused = await rawSocket(red, g.id, g.seats[0].token, { type: 'chat', channel: 'team', text: 'too early' }, 'error');
    assert.equal(refused.code, 'team_chat_closed');
    // play until red's channel opens (nothing moves unless a page decides)
    let open = false;
    for (let i = 0; i < 400 && !open; i++) {
      for (const p of pages) {
        if (await red.getAttribute('#team-chat-state', 'data-open') === 'true') { open = true; break; }
        if (await act(p)) await p.waitForTimeout(60);
      }
      if (!open) await red.waitForTimeout(60);
    }
    assert.ok(open, 'the team channel opened after the reveal');
    const secret = 'Ich lege die 17 an das Teegebiet, du die 5 daneben.';
    await say(red, secret, 'team');
    await pages[1].waitForFunction(t => document.querySelector('#chat-team').textContent.includes(t), secret);
    await red.waitForFunction(t => document.querySelector('#chat-team').textContent.includes(t), secret);
    await red.bringToFront();
    await red.screenshot({ path: `${SHOTS}/four-team-chat.png` });
    await say(red, 'Viel Glück allen!', 'table');
    for (const p of [pages[2], pages[3], pw]) await p.waitForFunction(() => document.querySelector('#chat-table').textContent.includes('Viel Glück allen!'));
    for (const p of [pages[2], pages[3], pw]) assert.ok(!(await p.evaluate(() => document.body.textContent)).includes('Teegebiet'), 'the other team and the spectator never see a team message');
    // nor after a reload (the history)
    await pages[2].reload();
    await pages[2].waitForFunction(() => document.querySelectorAll('#chat-table li').length >= 1);
    assert.ok(!(await pages[2].evaluate(() => document.body.textContent)).includes('Teegebiet'));
    for (const p of [...pages, pw]) await p.close();
  });

  await test('undo: against the computer a takeback restores the hand and the board', async () => {
    const g = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'random'] });
    const page = await A.newPage();
    await page.goto(url + g.seats[0].link);
    await page.waitForSelector('#undo');
    const decision = '.hand-card.playable, rect.legal, #actions button';
    const hand = () => page.$$eval('.hand-card', x => x.map(c => c.getAttribute('data-card')).sort().join(' '));
    const cells = () => page.$$eval('#board g[data-cell]', g => g.map(x => `${x.getAttribute('data-cell')}=${x.dataset.card || ''}`).sort().join(' '));
    let before = null;
    for (let i = 0; i < 60; i++) {
      await page.waitForSelector(decision);
      await page.waitForTimeout(150);
      before = [await hand(), await cells()];
      await act(page);
      await page.waitForSelector(decision);
      await page.waitForTimeout(200);
      const after = [await hand(), await cells()];
      if (after[1] !== before[1] && after[0] !== before[0]) break; // our card went from the hand to the board
    }
    assert.notDeepEqual([await hand(), await cells()], before, 'a decision changed the hand and the board');
    await page.click('#undo');
    await page.waitForFunction(([h, c]) => {
      const hd = [...document.querySelectorAll('.hand-card')].map(x => x.getAttribute('data-card')).sort().join(' ');
      const cl = [...document.querySelectorAll('#board g[data-cell]')].map(x => `${x.getAttribute('data-cell')}=${x.dataset.card || ''}`).sort().join(' ');
      return hd === h && cl === c;
    }, before, { timeout: 5000 });
    await page.waitForSelector(decision);
    await page.screenshot({ path: `${SHOTS}/after-undo.png` });
    // two people: no Undo
    const g2 = await api(url, 'POST', '/api/games', { variant: 'basic', seats: ['human', 'human'] });
    await page.goto(url + g2.seats[0].link);
    await page.waitForSelector('.hand-card');
    assert.equal(await page.$('#undo'), null);
    await page.close();
  });
}
