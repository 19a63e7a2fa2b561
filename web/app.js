// app.js: the browser client of kontor serve: lobby, game, spectator and replay screens.
//
// A hash router keeps every screen a link (#play/GAME/TOKEN, #watch/GAME,
// #replay/GAME), so a reload or a shared link lands in the same place and a
// reload mid-game simply joins again with the token. The server is the only
// judge: the client shows what the last "state" message says (board, hand,
// legal decisions) and sends a decision's number; it keeps no rules.

import { drawBoard, drawCard, describe, cardLabel, el, fmt, TEAM, CELL, END_BY_NAME } from './board.js';

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

// The seats' names by count (kontor_seat_name): two players, or two teams of two.
const SEAT_NAMES = { 2: ['red', 'black'], 4: ['red 1', 'red 2', 'black 1', 'black 2'] };
const LEVELS = ['easy', 'medium', 'hard', 'random'];

async function lobby() {
  document.title = 'Kontor';
  let variants = [{ name: 'basic', describe: 'the basic game for two', seats: 2, expansions: [] }], expNames = {};
  try { const d = await api('GET', '/api/variants'); variants = d.variants; expNames = d.expansions; } catch { /* the basic game still works */ }
  const byName = n => variants.find(v => v.name === n) || variants[0];
  const level = h('select', { id: 'level' }, ...LEVELS.map(l => h('option', { value: l }, l)));
  const variant = h('select', { id: 'variant' }, ...variants.map(v => h('option', { value: v.name, title: v.describe }, `${v.name}${v.seats === 4 ? ' (four players)' : ''}`)));
  const about = h('p', { class: 'muted', id: 'variant-about' });
  const exps = h('div', { class: 'row', id: 'expansions' });
  const seatsRow = h('div', { class: 'row', id: 'seat-kinds' });
  const msg = h('p', { class: 'error', id: 'lobby-error' });
  const kinds = ['human', ...LEVELS];
  let seatSel = [];
  // the options of the chosen variant: its expansions, its seats
  function variantChanged() {
    const v = byName(variant.value);
    about.textContent = v.describe;
    exps.replaceChildren(...(v.expansions.length ? v.expansions.map(o => h('label', { title: expNames[o] || o },
      h('input', { type: 'checkbox', class: 'expansion', value: o, 'data-option': o }), ' ', (expNames[o] || o).replace(/^expansion \d, /, ''))) : [h('span', { class: 'muted' }, 'no expansions for this variant')]));
    const names = SEAT_NAMES[v.seats] || SEAT_NAMES[2];
    const old = seatSel.map(s => s.value);
    seatSel = names.map((n, i) => h('select', { id: `seat${i}`, 'data-seat': i }, ...kinds.map(k => h('option', { value: k, selected: (old[i] || (i ? 'easy' : 'human')) === k }, k))));
    seatsRow.replaceChildren(...seatSel.map((s, i) => h('label', { class: `seat-kind team-${names[i].split(' ')[0]}` }, `${names[i]} `, s)));
  }
  variant.addEventListener('change', variantChanged);
  const options = () => [...exps.querySelectorAll('input.expansion:checked')].map(i => i.value).join(',');
  const quick = h('button', { id: 'play-computer', class: 'big', onclick: async () => {
    try {
      const v = byName(variant.value);
      const g = await api('POST', '/api/games', { variant: v.name, options: options(), seats: Array.from({ length: v.seats }, (_, i) => i ? level.value : 'human') });
      location.hash = g.seats[0].link.replace(/^\/#/, '');
    } catch (e) { msg.textContent = e.message; }
  } }, 'Play against the computer');

  const timeout = h('input', { id: 'timeout', type: 'number', min: 0, max: 86400, value: 0, size: 5 });
  const made = h('div', { id: 'created' });
  const create = h('button', { id: 'create', onclick: async () => {
    try {
      const g = await api('POST', '/api/games', { variant: variant.value, options: options(), seats: seatSel.map(s => s.value), timeout: Number(timeout.value) || 0 });
      made.replaceChildren(h('p', {}, `Game ${g.id} created. Each link opens one seat; send the others to the other players:`),
        ...g.seats.map(s => h('p', {}, `${s.name}: `, h('a', { href: s.link, class: 'join-link', 'data-seat': s.seat }, location.origin + s.link))),
        g.seats.length ? null : h('p', {}, 'Every seat is a computer: watch it below.'),
        h('p', {}, 'Spectators: ', h('a', { href: g.watch, class: 'watch-link' }, location.origin + g.watch)));
      refresh();
    } catch (e) { msg.textContent = e.message; }
  } }, 'Create game');
  variantChanged();

  const lists = h('div', { id: 'lists' });
  app().replaceChildren(h('main', { class: 'lobby' },
    h('h1', {}, 'Kontor'),
    h('p', { class: 'sub' }, 'Michael Schacht’s harbour game for two or four. Build the harbour, enclose your warehouses, win the areas.'),
    h('section', { class: 'panel' }, h('div', { class: 'row' }, h('label', {}, 'game ', variant), about), exps,
      h('div', { class: 'row' }, quick, h('label', {}, 'computer level ', level))),
    msg,
    h('section', { class: 'panel' }, h('h2', {}, 'New game with chosen seats'),
      seatsRow, h('div', { class: 'row' }, h('label', {}, 'seconds per decision (0: none) ', timeout)),
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
  const teamOf = i => (st.seats[i] && st.seats[i].team !== undefined ? st.seats[i].team : i);

  // A seat's secret decision as the others see it: chosen, bought, bribed.
  function decided(s) {
    const out = [];
    if (s.choice !== null && s.choice !== undefined) out.push(s.choice === 'hidden' ? (st.phase === 'declare' ? 'has declared' : 'has chosen') : s.choice === 'pass' ? 'passes' : s.choice === 'play' ? 'plays a card' : `chose ${cardLabel(cards[s.choice])}`);
    if (s.buy !== undefined && s.buy !== null) out.push(s.buy === 'hidden' ? 'has decided' : s.buy > 1 ? `buys ${s.buy} special cards` : s.buy ? 'buys a special card' : 'buys nothing');
    if (s.bribe !== undefined && s.bribe !== null) out.push(s.bribe === 'hidden' ? 'has decided' : s.bribe === 'none' ? 'buys out nothing' : `buys out the card at ${fmt(...s.bribe)}`);
    if (s.selected !== undefined) out.push(`${s.selected} card${s.selected === 1 ? '' : 's'} picked`);
    return out.join(' · ');
  }

  // Send one of the decisions of a cell; several (a customs house as a dock
  // card or as water): offer them as buttons.
  let pendingCell = null;
  function onCell(ls) {
    if (ls.length === 1) { pendingCell = null; move(ls[0].m); return; }
    pendingCell = ls;
    render();
  }

  function render() {
    const mine = seat !== null && st.actors.includes(seat);
    const legal = st.legal || [];
    // the log, and the cells that changed in the last events
    const fresh = st.events || [];
    if (fresh.length) {
      lastCells = fresh.filter(e => e.x !== undefined && ['place', 'ship', 'remove', 'overbuild', 'bribe'].includes(e.kind)).map(e => [e.x, e.y]);
      for (const ev of fresh) {
        log.push(ev);
        logbox.append(h('li', { class: `ev ev-${ev.kind}` }, describe(ev, cards, names())));
      }
      logbox.scrollTop = logbox.scrollHeight;
      st.events = [];
    }
    if (pendingCell && !pendingCell.every(p => legal.some(l => l.m === p.m))) pendingCell = null;
    // seats, team by team
    side.replaceChildren(...[...st.seats.map((s, i) => {
      const p = st.players && st.players[i];
      const t = teamOf(i), ch = decided(s);
      return h('div', { class: `seat seat-${TEAM[t]}${st.actors.includes(i) ? ' acting' : ''}`, 'data-seat': i },
        h('div', { class: 'name' }, s.name, i === seat ? ' (you)' : '', seat !== null && i !== seat && teamOf(seat) === t ? ' (partner)' : '',
          p ? ` · ${p.kind}` : '', p && p.kind === 'human' ? (p.connected ? ' ●' : ' ○') : ''),
        h('div', {}, `coins ${s.coins} · hand ${s.hand_n} · pile ${s.pile}`),
        ch ? h('div', { class: 'choice' }, ch) : null);
    }), h('div', { class: 'teams' }, ...[0, 1].map(t => h('div', { class: `team team-${TEAM[t]}` },
      `${TEAM[t]}: points ${st.points[t]}${st.bonus_points ? ` (+${st.bonus_points[t]} tile)` : ''} · keepers ${st.keepers[t]}` +
      (st.export ? ` · export ${st.export[t].join('/')}` : '') + (st.ship_owner === t ? ' · moves the ship' : '')))),
    h('div', { class: 'pub' }, `round ${st.round} · ${st.phase}${st.no_pass ? ' · no passing this round' : ''} · treasury ${st.treasury} · water pile ${st.water_pile}` +
      (st.special_pile !== undefined ? ` · special cards to buy ${st.special_pile}` : '') + (st.events_left !== undefined ? ` · event cards ${st.events_left}` : '')),
    st.event ? h('div', { class: 'event-card', id: 'event-card' }, h('b', {}, st.event.name || 'event'), ': ', st.event.text || '') : null,
    st.tile ? h('div', { class: 'event-card', id: 'tile-card' }, h('b', {}, 'action tile'), ': ', st.tile.name) : null].filter(Boolean));
    // status line
    if (st.over) status.textContent = 'game over';
    else if (seat === null) status.textContent = `${st.actors.map(a => st.seats[a].name).join(' and ')} to decide`;
    else status.textContent = mine ? phaseHint(st.phase) : `waiting for ${st.actors.map(a => st.seats[a].name).join(' and ') || 'the others'}…`;
    if (timer) clearInterval(timer);
    if (st.deadline_ms !== undefined && mine) {
      const until = Date.now() + st.deadline_ms;
      timer = setInterval(() => { const s = Math.max(0, Math.round((until - Date.now()) / 1000)); status.textContent = `${phaseHint(st.phase)} (${s} s)`; }, 500);
    }
    // the board: cell decisions are the highlighted cells
    const cellMoves = legal.filter(l => l.x !== undefined);
    const me = seat !== null ? st.seats[seat] : null;
    const ghost = st.phase === 'place' && me && typeof me.choice === 'number' ? cards[me.choice] : null;
    const marked = st.tavern_area !== undefined && st.areas[st.tavern_area] ? st.areas[st.tavern_area].cells : [];
    drawBoard(svg, st, cards, { legal: mine ? cellMoves : [], onCell, ghost, lastCells, marked });
    // the hand: a card to choose is clicked
    hand.replaceChildren();
    const inHand = new Set();
    if (me && me.hand) {
      for (const cid of me.hand) {
        const choose = legal.find(l => l.kind === 'choose' && l.card === cid);
        if (choose) inHand.add(choose.m);
        const s = el('svg', { viewBox: `0 0 ${CELL} ${CELL}`, class: `hand-card${choose && mine ? ' playable' : ''}`, 'data-card': cid });
        drawCard(s, cards[cid], 0, 0);
        el('title', {}, s).textContent = choose ? choose.text : cardLabel(cards[cid]);
        if (choose && mine) s.addEventListener('click', () => move(choose.m));
        hand.append(s);
      }
      if (!me.hand.length) hand.append(h('span', { class: 'muted' }, 'no cards in hand'));
    } else if (seat === null) hand.append(h('span', { class: 'muted' }, 'spectating: hands are hidden'));
    // every other decision is a button with its words (kontor_move_text)
    actions.replaceChildren();
    if (mine) {
      if (pendingCell) {
        actions.append(h('span', { class: 'muted' }, `at ${fmt(pendingCell[0].x, pendingCell[0].y)}: `));
        for (const l of pendingCell) actions.append(h('button', { class: `decision cell-choice kind-${l.kind}`, 'data-move': l.m, onclick: () => { pendingCell = null; move(l.m); } }, l.text));
      }
      for (const l of legal) {
        if (inHand.has(l.m) || l.x !== undefined) continue;
        const b = h('button', { class: `decision kind-${l.kind}${l.pass ? ' pass' : ''}${l.none ? ' none' : ''}`, 'data-move': l.m, onclick: () => move(l.m) }, l.text);
        if (l.card !== undefined && cards[l.card]) {
          // keep or discard (Justizia): the card itself on the button
          const c = el('svg', { viewBox: `0 0 ${CELL} ${CELL}`, class: 'button-card' });
          drawCard(c, cards[l.card], 0, 0);
          b.prepend(c);
        }
        actions.append(b);
      }
    }
    if (st.over) showEnd(); else end.classList.add('hidden');
  }

  function phaseHint(p) {
    return { declare: 'pass this round (a coin now), or play a card (secretly; the cards come next)',
      choose: 'choose a card from your hand (secretly)', ship: 'move the ship to a highlighted water card, or leave it',
      remove: 'remove a highlighted card next to the ship, or nothing', place: 'place your card on a highlighted cell',
      buy: 'buy special cards for 2 coins each, or none (secretly)', pile: 'say whose pile takes the removed card',
      bribe: 'buy out a highlighted opposing goods card, or nothing (secretly)', select: 'pick the cards of your hand and those that leave the game',
      tavern: 'say whether your tavern’s area (outlined) scores', export: 'send a warehouse of the card to your export store, or not',
      event: 'carry out the event card: a highlighted cell, or pass', tile: 'carry out your action tile: a highlighted cell, or forgo it' }[p] || p;
  }

  function showEnd() {
    const rows = st.areas.map((a, i) => h('tr', { class: a.counts ? '' : 'muted' }, h('td', {}, i + 1), h('td', {}, fmt(...a.at)), h('td', {}, a.size),
      h('td', {}, a.goods[0].join('/')), h('td', {}, a.goods[1].join('/')), h('td', {}, a.winner === null ? 'tie' : TEAM[a.winner]),
      h('td', {}, a.keeper ? 'yes' : 'no'), h('td', {}, a.value !== undefined ? a.value : 1), h('td', {}, a.out ? 'no (tavern)' : a.counts ? 'yes' : 'no')));
    const w = st.winner === null || st.winner === undefined ? 'A draw' : `${TEAM[st.winner]} wins`;
    end.replaceChildren(h('div', { class: 'end-box' },
      h('h2', { id: 'result' }, `${w}: ${st.score[0]} – ${st.score[1]}`),
      h('p', {}, `The game ended: ${END_BY_NAME[st.end] || st.end}.`),
      st.export ? h('p', {}, `Export stores (tea/wine/spice): red ${st.export[0].join('/')}, black ${st.export[1].join('/')}.`) : null,
      h('table', { class: 'scoring' }, h('thead', {}, h('tr', {}, ...['area', 'at', 'cards', 'red t/w/s', 'black t/w/s', 'winner', 'keeper', 'points', 'counts'].map(t => h('th', {}, t)))), h('tbody', {}, rows)),
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
