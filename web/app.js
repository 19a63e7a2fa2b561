// app.js: the browser client of kontor serve: lobby, game, spectator and replay screens.
//
// A hash router keeps every screen a link (#play/GAME/TOKEN, #watch/GAME,
// #replay/GAME), so a reload or a shared link lands in the same place and a
// reload mid-game simply joins again with the token. The server is the only
// judge: the client shows what the last "state" message says (board, hand,
// legal decisions) and sends a decision's number; it keeps no rules.

import { drawBoard, drawCard, describe, cardLabel, el, fmt, TEAM, CELL } from './board.js';

const $ = sel => document.querySelector(sel);
const app = () => $('#app');
let socket = null;

function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
  return e;
}

async function api(method, path, body) {
  const r = await fetch(path, { method, headers: { 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

function route() {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  const parts = location.hash.replace(/^#/, '').split('/');
  if (parts[0] === 'play' && parts[1] && parts[2]) return game(parts[1], parts[2]);
  if (parts[0] === 'watch' && parts[1]) return game(parts[1], null);
  if (parts[0] === 'replay' && parts[1]) return replay(parts[1]);
  return lobby();
}
window.addEventListener('hashchange', route);
window.addEventListener('DOMContentLoaded', route);

// ---- lobby ---------------------------------------------------------------------

async function lobby() {
  document.title = 'Kontor';
  const level = h('select', { id: 'level' }, ...['easy', 'medium', 'hard', 'random'].map(l => h('option', { value: l }, l)));
  const variant = h('select', { id: 'variant' }, h('option', { value: 'basic' }, 'basic game (6×6)'), h('option', { value: 'advanced' }, 'advanced game (7×7, ship)'));
  const msg = h('p', { class: 'error', id: 'lobby-error' });
  const quick = h('button', { id: 'play-computer', class: 'big', onclick: async () => {
    try {
      const g = await api('POST', '/api/games', { variant: variant.value, seats: ['human', level.value] });
      location.hash = g.seats[0].link.replace(/^\/#/, '');
    } catch (e) { msg.textContent = e.message; }
  } }, 'Play against the computer');

  const kinds = ['human', 'easy', 'medium', 'hard', 'random'];
  const s0 = h('select', { id: 'seat0' }, ...kinds.map(k => h('option', { value: k }, k)));
  const s1 = h('select', { id: 'seat1' }, ...kinds.map(k => h('option', { value: k }, k)));
  const timeout = h('input', { id: 'timeout', type: 'number', min: 0, max: 86400, value: 0, size: 5 });
  const made = h('div', { id: 'created' });
  const create = h('button', { id: 'create', onclick: async () => {
    try {
      const g = await api('POST', '/api/games', { variant: variant.value, seats: [s0.value, s1.value], timeout: Number(timeout.value) || 0 });
      made.replaceChildren(h('p', {}, `Game ${g.id} created. Each link opens one seat; send the other to your opponent:`),
        ...g.seats.map(s => h('p', {}, `${s.name}: `, h('a', { href: s.link, class: 'join-link', 'data-seat': s.seat }, location.origin + s.link))),
        h('p', {}, 'Spectators: ', h('a', { href: g.watch }, location.origin + g.watch)));
      refresh();
    } catch (e) { msg.textContent = e.message; }
  } }, 'Create game');

  const lists = h('div', { id: 'lists' });
  app().replaceChildren(h('main', { class: 'lobby' },
    h('h1', {}, 'Kontor'),
    h('p', { class: 'sub' }, 'Michael Schacht’s harbour game for two. Build the harbour, enclose your warehouses, win the areas.'),
    h('section', { class: 'panel' }, quick, h('div', { class: 'row' }, h('label', {}, 'level ', level), h('label', {}, 'game ', variant))),
    msg,
    h('section', { class: 'panel' }, h('h2', {}, 'New game'),
      h('div', { class: 'row' }, h('label', {}, 'red ', s0), h('label', {}, 'black ', s1), h('label', {}, 'seconds per decision (0: none) ', timeout)),
      create, made),
    lists));
  async function refresh() {
    try {
      const d = await api('GET', '/api/games');
      const row = (g, action) => h('li', {}, h('span', { class: 'gid' }, g.id), ' ', g.variant, ' · ',
        (g.seats || []).map(s => `${s.name}: ${s.kind}${s.kind === 'human' ? (s.connected ? ' (here)' : s.claimed ? '' : ' (free)') : ''}`).join(', ') || (g.players || []).join(' vs '),
        g.round ? ` · round ${g.round}` : '', g.result && g.result !== '*' ? ` · ${g.result}` : '', ' ', action);
      lists.replaceChildren(
        h('section', { class: 'panel' }, h('h2', {}, 'Open games'), h('ul', { id: 'open' }, d.open.map(g => row(g,
          h('span', {}, ...g.seats.map((s, i) => s.kind === 'human' && !s.claimed ? h('button', { class: 'claim', onclick: async () => {
            try { const c = await api('POST', `/api/games/${g.id}/seats/${i}`); location.hash = c.seats[0].link.replace(/^\/#/, ''); } catch (e) { msg.textContent = e.message; }
          } }, `join as ${s.name}`) : null), h('a', { href: `#watch/${g.id}` }, 'watch'))))),
          d.open.length ? null : h('p', { class: 'muted' }, 'none')),
        h('section', { class: 'panel' }, h('h2', {}, 'Running games'), h('ul', { id: 'running' }, d.running.map(g => row(g, h('a', { href: `#watch/${g.id}` }, 'watch')))),
          d.running.length ? null : h('p', { class: 'muted' }, 'none')),
        h('section', { class: 'panel' }, h('h2', {}, 'Finished games'), h('ul', { id: 'finished' }, d.finished.map(g => row(g, h('span', {},
          h('a', { href: `#replay/${g.id}` }, 'replay'), ' ', h('a', { href: `/api/games/${g.id}/record`, download: `kontor-${g.id}.kgn` }, 'record'))))),
          d.finished.length ? null : h('p', { class: 'muted' }, 'none')));
    } catch (e) { lists.textContent = e.message; }
  }
  refresh();
}

// ---- a game, as a player or a spectator ----------------------------------------------

function game(id, token) {
  document.title = `Kontor · ${id}`;
  let cards = [], st = null, seat = null, log = [], lastCells = [], moveId = 1, timer = null;
  const status = h('div', { id: 'status', class: 'status' });
  const err = h('div', { id: 'game-error', class: 'error' });
  const svg = el('svg', { id: 'board', role: 'img', 'aria-label': 'the harbour' });
  const hand = h('div', { id: 'hand', class: 'hand' });
  const actions = h('div', { id: 'actions', class: 'actions' });
  const side = h('div', { id: 'seats', class: 'seats' });
  const logbox = h('ol', { id: 'log', class: 'log' });
  const end = h('div', { id: 'end', class: 'end hidden' });
  app().replaceChildren(h('main', { class: 'game' },
    h('header', {}, h('a', { href: '#', class: 'back' }, '← lobby'), h('span', { class: 'title' }, token ? `game ${id}` : `watching ${id}`), status),
    err,
    h('div', { class: 'table' },
      h('div', { class: 'harbour' }, svg, actions, hand),
      h('aside', {}, side, h('h3', {}, 'Log'), logbox)),
    end));

  const send = o => { if (socket && socket.readyState === 1) socket.send(JSON.stringify(o)); };
  const move = m => { err.textContent = ''; send({ type: 'move', move: m, id: moveId++ }); };

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${proto}://${location.host}/ws`);
    socket.onopen = () => send(token ? { type: 'join', game: id, token } : { type: 'watch', game: id });
    socket.onmessage = e => {
      const m = JSON.parse(e.data);
      if (m.type === 'welcome') { cards = m.cards; seat = m.seat; log = []; logbox.replaceChildren(); }
      else if (m.type === 'state') { st = m; render(); }
      else if (m.type === 'error') { err.textContent = m.error; }
    };
    socket.onclose = () => { status.textContent = 'connection lost, reconnecting…'; setTimeout(() => { if (location.hash.includes(id)) connect(); }, 1000); };
  }
  connect();

  function names() { return st.seats.map(s => s.name); }

  function render() {
    const mine = seat !== null && st.actors.includes(seat);
    const legal = st.legal || [];
    // the log, and the cells that changed in the last events
    const fresh = st.events || [];
    if (fresh.length) {
      lastCells = fresh.filter(e => e.x !== undefined && (e.kind === 'place' || e.kind === 'ship' || e.kind === 'remove')).map(e => [e.x, e.y]);
      for (const ev of fresh) {
        log.push(ev);
        logbox.append(h('li', { class: `ev ev-${ev.kind}` }, describe(ev, cards, names())));
      }
      logbox.scrollTop = logbox.scrollHeight;
    }
    // seats
    side.replaceChildren(...st.seats.map((s, i) => {
      const p = st.players && st.players[i];
      const ch = s.choice === null ? '' : s.choice === 'hidden' ? 'has chosen' : s.choice === 'pass' ? 'passes' : `chose ${cardLabel(cards[s.choice])}`;
      return h('div', { class: `seat seat-${TEAM[i]}${st.actors.includes(i) ? ' acting' : ''}`, 'data-seat': i },
        h('div', { class: 'name' }, s.name, i === seat ? ' (you)' : '', p ? ` · ${p.kind}` : '', p && p.kind === 'human' ? (p.connected ? ' ●' : ' ○') : ''),
        h('div', {}, `coins ${s.coins} · hand ${s.hand_n} · pile ${s.pile} · keepers ${st.keepers[i]} · points ${st.points[i]}`),
        ch ? h('div', { class: 'choice' }, ch) : null);
    }), h('div', { class: 'pub' }, `round ${st.round} · ${st.phase}${st.no_pass ? ' · no passing this round' : ''} · treasury ${st.treasury} · water pile ${st.water_pile}`));
    // status line
    if (st.over) status.textContent = 'game over';
    else if (seat === null) status.textContent = `${st.actors.map(a => st.seats[a].name).join(' and ')} to decide`;
    else status.textContent = mine ? phaseHint(st.phase) : 'waiting for the opponent…';
    if (timer) clearInterval(timer);
    if (st.deadline_ms !== undefined && mine) {
      const until = Date.now() + st.deadline_ms;
      timer = setInterval(() => { const s = Math.max(0, Math.round((until - Date.now()) / 1000)); status.textContent = `${phaseHint(st.phase)} (${s} s)`; }, 500);
    }
    // the board: cell decisions are the highlighted cells
    const cellMoves = legal.filter(l => l.x !== undefined);
    const me = seat !== null ? st.seats[seat] : null;
    const ghost = st.phase === 'place' && me && typeof me.choice === 'number' ? cards[me.choice] : null;
    drawBoard(svg, st, cards, { legal: mine ? cellMoves : [], onCell: move, ghost, lastCells });
    // hand and buttons
    hand.replaceChildren();
    if (me && me.hand) {
      for (const id of me.hand) {
        const choose = legal.find(l => l.kind === 'choose' && l.card === id);
        const s = el('svg', { viewBox: `0 0 ${CELL} ${CELL}`, class: `hand-card${choose && mine ? ' playable' : ''}`, 'data-card': id });
        drawCard(s, cards[id], 0, 0);
        el('title', {}, s).textContent = cardLabel(cards[id]);
        if (choose && mine) s.addEventListener('click', () => move(choose.m));
        hand.append(s);
      }
      if (!me.hand.length) hand.append(h('span', { class: 'muted' }, 'no cards in hand'));
    } else if (seat === null) hand.append(h('span', { class: 'muted' }, 'spectating: hands are hidden'));
    actions.replaceChildren();
    if (mine) {
      for (const l of legal) {
        if (l.pass) actions.append(h('button', { class: 'pass', onclick: () => move(l.m) }, 'Pass (take a coin)'));
        if (l.none) actions.append(h('button', { class: 'none', onclick: () => move(l.m) },
          l.kind === 'ship' ? 'Leave the ship' : l.kind === 'remove' ? 'Remove nothing' : 'Take the card back'));
      }
    }
    if (st.over) showEnd(); else end.classList.add('hidden');
  }

  function phaseHint(p) {
    return { choose: 'choose a card from your hand (secretly), or pass', ship: 'move the ship to a highlighted water card, or leave it',
      remove: 'remove a highlighted card next to the ship, or nothing', place: 'place your card on a highlighted cell' }[p] || p;
  }

  function showEnd() {
    const rows = st.areas.map((a, i) => h('tr', { class: a.counts ? '' : 'muted' }, h('td', {}, i + 1), h('td', {}, fmt(...a.at)), h('td', {}, a.size),
      h('td', {}, a.goods[0].join('/')), h('td', {}, a.goods[1].join('/')), h('td', {}, a.winner === null ? 'tie' : TEAM[a.winner]),
      h('td', {}, a.keeper ? 'yes' : 'no'), h('td', {}, a.counts ? 'yes' : 'no')));
    const w = st.winner === null || st.winner === undefined ? 'A draw' : `${TEAM[st.winner]} wins`;
    end.replaceChildren(h('div', { class: 'end-box' },
      h('h2', { id: 'result' }, `${w}: ${st.score[0]} – ${st.score[1]}`),
      h('p', {}, `The game ended: ${{ full: 'the harbour is full', max_rounds: 'the round limit', stuck: 'no cards left' }[st.end] || st.end}.`),
      h('table', { class: 'scoring' }, h('thead', {}, h('tr', {}, ...['area', 'at', 'cards', 'red t/w/s', 'black t/w/s', 'winner', 'keeper', 'counts'].map(t => h('th', {}, t)))), h('tbody', {}, rows)),
      h('p', {}, h('a', { href: `#replay/${id}`, id: 'to-replay' }, 'Replay'), ' · ', h('a', { href: `/api/games/${id}/record`, download: `kontor-${id}.kgn` }, 'Download the record'), ' · ',
        h('a', { href: '#' }, 'Lobby'), ' · ', h('button', { onclick: () => end.classList.add('hidden') }, 'Look at the board'))));
    end.classList.remove('hidden');
  }
}

// ---- replay viewer -------------------------------------------------------------------

async function replay(id) {
  document.title = `Kontor · replay ${id}`;
  const svg = el('svg', { id: 'board' });
  const info = h('div', { class: 'status', id: 'replay-info' });
  const evs = h('ol', { class: 'log', id: 'replay-log' });
  const slider = h('input', { type: 'range', id: 'slider', min: 0, max: 0, value: 0 });
  const err = h('div', { class: 'error' });
  app().replaceChildren(h('main', { class: 'game' },
    h('header', {}, h('a', { href: '#', class: 'back' }, '← lobby'), h('span', { class: 'title' }, `replay ${id}`),
      h('a', { href: `/api/games/${id}/record`, download: `kontor-${id}.kgn` }, 'download record')),
    err, h('div', { class: 'replay-bar' }, h('button', { onclick: () => step(-1) }, '◀'), slider, h('button', { onclick: () => step(1) }, '▶')), info,
    h('div', { class: 'table' }, h('div', { class: 'harbour' }, svg), h('aside', {}, h('h3', {}, 'This decision'), evs))));
  let busy = false, want = null;
  async function show(ply) {
    if (busy) { want = ply; return; }
    busy = true;
    try {
      const v = await api('GET', `/api/games/${id}/view?ply=${ply}`);
      slider.max = v.plies;
      slider.value = v.ply;
      drawBoard(svg, v, v.cards, { lastCells: v.events.filter(e => e.x !== undefined).map(e => [e.x, e.y]) });
      const names = v.seats.map(s => s.name);
      info.textContent = `decision ${v.ply} of ${v.plies} · round ${v.round} · ${v.phase} · points ${v.points[0]}–${v.points[1]}` +
        (v.over ? ` · final ${v.score[0]}–${v.score[1]}` : '') + ` · ${v.players.join(' vs ')}`;
      evs.replaceChildren(...v.events.map(e => h('li', {}, describe(e, v.cards, names))));
    } catch (e) { err.textContent = e.message; }
    busy = false;
    if (want !== null) { const w = want; want = null; show(w); }
  }
  function step(d) { show(Math.max(0, Math.min(Number(slider.max), Number(slider.value) + d))); }
  slider.addEventListener('input', () => show(Number(slider.value)));
  show(100000);
}
