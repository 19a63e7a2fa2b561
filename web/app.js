// app.js: the browser client of kontor serve: lobby, game, spectator and replay screens.
//
// A hash router keeps every screen a link (#play/GAME/TOKEN, #watch/GAME,
// #replay/GAME), so a reload or a shared link lands in the same place and a
// reload mid-game simply joins again with the token. The server is the only
// judge: the client shows what the last "state" message says (board, hand,
// legal decisions) and sends a decision's number; it keeps no rules.

import { drawBoard, drawCard, describe, cardLabel, moveText, seatName, eventName, eventText, tileName, endWords, el, fmt, TEAM, CELL, MARK_GLYPH } from './board.js';
import { t, tOr, getLang, setLang, LANGS, errorText } from './i18n.js';
import { reference } from './reference.js';
import { notifier } from './notify.js';
import { activatable, arrows, focusKey, restoreFocus, liveRegion } from './keys.js';
import { areaOverlay, areaList } from './areas.js';
import { pacer, animate, revealStrip, paceSwitch } from './pace.js';
import { chatPanel } from './chat.js';

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
  if (!r.ok) {
    const e = new Error(errorText(data, r.status));
    e.code = data.code;
    throw e;
  }
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

// The language switch: every screen draws itself again in the other language.
function langSwitch() {
  const sel = h('select', { id: 'lang', 'aria-label': t('lang.label'), onchange: () => { setLang(sel.value); route(); } },
    ...LANGS.map(([code, name]) => h('option', { value: code, selected: code === getLang(), lang: code }, name)));
  return h('span', { class: 'lang-switch' }, sel);
}
window.addEventListener('DOMContentLoaded', route);

// ---- lobby ---------------------------------------------------------------------

// The seats' names by count (kontor_seat_name): two players, or two teams of two.
// The player's own name, sent when joining a seat (at most 24 bytes of UTF-8, as the server takes).
function myName() {
  let n = '';
  try { n = (localStorage.getItem('kontor-name') || '').replace(/[\u0000-\u001f\u007f]/g, '').trim(); } catch { /* none */ }
  while (new TextEncoder().encode(n).length > 24) n = n.slice(0, -1);
  return n;
}

const seatNames = n => Array.from({ length: n === 4 ? 4 : 2 }, (_, i) => seatName(i, n === 4 ? 4 : 2));
const LEVELS = ['easy', 'medium', 'hard', 'random'];

async function lobby() {
  document.title = t('app.name');
  let variants = [{ name: 'basic', describe: 'the basic game for two', seats: 2, expansions: [] }], expNames = {};
  try { const d = await api('GET', '/api/variants'); variants = d.variants; expNames = d.expansions; } catch { /* the basic game still works */ }
  const byName = n => variants.find(v => v.name === n) || variants[0];
  const level = h('select', { id: 'level' }, ...LEVELS.map(l => h('option', { value: l }, t(`level.${l}`))));
  const vName = v => tOr(`variant.${v.name}.name`, v.name), vAbout = v => tOr(`variant.${v.name}.about`, v.describe);
  const expName = o => tOr(`exp.${o}`, (expNames[o] || o).replace(/^expansion \d, /, ''));
  const variant = h('select', { id: 'variant' }, ...variants.map(v => h('option', { value: v.name, title: vAbout(v) }, `${vName(v)}${v.seats === 4 ? t('lobby.four_players') : ''}`)));
  const about = h('p', { class: 'muted', id: 'variant-about' });
  const exps = h('div', { class: 'row', id: 'expansions' });
  const seatsRow = h('div', { class: 'row', id: 'seat-kinds' });
  const msg = h('p', { class: 'error', id: 'lobby-error' });
  const nameIn = h('input', { id: 'player-name', type: 'text', maxlength: 24, autocomplete: 'nickname', value: myName(),
    oninput: () => { try { localStorage.setItem('kontor-name', nameIn.value); } catch { /* this page only */ } } });
  const kinds = ['human', ...LEVELS];
  let seatSel = [];
  // the options of the chosen variant: its expansions, its seats
  function variantChanged() {
    const v = byName(variant.value);
    about.textContent = vAbout(v);
    exps.replaceChildren(...(v.expansions.length ? v.expansions.map(o => h('label', { title: expName(o) },
      h('input', { type: 'checkbox', class: 'expansion', value: o, 'data-option': o }), ' ', expName(o))) : [h('span', { class: 'muted' }, t('lobby.no_expansions'))]));
    const names = seatNames(v.seats);
    const old = seatSel.map(s => s.value);
    seatSel = names.map((n, i) => h('select', { id: `seat${i}`, 'data-seat': i }, ...kinds.map(k => h('option', { value: k, selected: (old[i] || (i ? 'easy' : 'human')) === k }, t(`level.${k}`)))));
    seatsRow.replaceChildren(...seatSel.map((s, i) => h('label', { class: `seat-kind team-${TEAM[v.seats === 4 ? i >> 1 : i]}` }, `${names[i]} `, s)));
  }
  variant.addEventListener('change', variantChanged);
  const options = () => [...exps.querySelectorAll('input.expansion:checked')].map(i => i.value).join(',');
  const quick = h('button', { id: 'play-computer', class: 'big', onclick: async () => {
    try {
      const v = byName(variant.value);
      const g = await api('POST', '/api/games', { variant: v.name, options: options(), seats: Array.from({ length: v.seats }, (_, i) => i ? level.value : 'human') });
      location.hash = g.seats[0].link.replace(/^\/#/, '');
    } catch (e) { msg.textContent = e.message; }
  } }, t('lobby.play_computer'));

  const timeout = h('input', { id: 'timeout', type: 'number', min: 0, max: 86400, value: 0, size: 5 });
  const listed = h('input', { id: 'listed', type: 'checkbox' });
  const takeback = h('input', { id: 'takeback', type: 'checkbox', checked: true });
  const made = h('div', { id: 'created' });
  const create = h('button', { id: 'create', onclick: async () => {
    try {
      const g = await api('POST', '/api/games', { variant: variant.value, options: options(), seats: seatSel.map(s => s.value), timeout: Number(timeout.value) || 0, listed: listed.checked, takeback: takeback.checked });
      const n = seatSel.length;
      made.replaceChildren(...[h('p', {}, t('lobby.created', { id: g.id })), g.seats.length ? h('p', { class: 'muted', id: 'privacy' }, t(listed.checked ? 'lobby.is_listed' : 'lobby.is_private')) : null,
        ...g.seats.map(s => h('p', {}, `${seatName(s.seat, n)}: `, h('a', { href: s.link, class: 'join-link', 'data-seat': s.seat }, location.origin + s.link))),
        g.seats.length ? null : h('p', {}, t('lobby.all_computers')),
        h('p', {}, t('lobby.spectators'), ' ', h('a', { href: g.watch, class: 'watch-link' }, location.origin + g.watch))].filter(Boolean));
      refresh();
    } catch (e) { msg.textContent = e.message; }
  } }, t('lobby.create'));
  variantChanged();

  const lists = h('div', { id: 'lists' });
  app().replaceChildren(h('main', { class: 'lobby' },
    h('div', { class: 'lobby-top' }, h('h1', {}, t('app.name')), h('nav', { class: 'top-links' }, h('a', { href: `rules.html#${getLang()}`, id: 'rules-link', target: '_blank' }, t('rules.link')), langSwitch())),
    h('p', { class: 'sub' }, t('lobby.sub')),
    h('div', { class: 'row' }, h('label', {}, t('lobby.your_name'), ' ', nameIn)),
    h('section', { class: 'panel' }, h('div', { class: 'row' }, h('label', {}, t('lobby.game'), ' ', variant), about), exps,
      h('div', { class: 'row' }, quick, h('label', {}, t('lobby.level'), ' ', level))),
    msg,
    h('section', { class: 'panel' }, h('h2', {}, t('lobby.new_game')),
      seatsRow, h('div', { class: 'row' }, h('label', {}, t('lobby.timeout'), ' ', timeout)),
      h('div', { class: 'row' }, h('label', {}, listed, ' ', t('lobby.listed'))),
      h('div', { class: 'row' }, h('label', {}, takeback, ' ', t('lobby.takeback'))),
      create, made),
    lists));
  async function refresh() {
    try {
      const d = await api('GET', '/api/games');
      const kind = k => tOr(`level.${k}`, k);
      const row = (g, action) => h('li', {}, h('span', { class: 'gid' }, g.id), ' ', tOr(`variant.${g.variant}.name`, g.variant), ' · ',
        (g.seats || []).map((s, i) => `${seatName(i, g.seats.length)}: ${kind(s.kind)}${s.kind === 'human' ? (s.connected ? t('lobby.here') : s.claimed ? '' : t('lobby.free')) : ''}`).join(', ') || (g.players || []).join(t('lobby.vs')),
        g.round ? ` · ${t('lobby.round', { n: g.round })}` : '', g.result && g.result !== '*' ? ` · ${g.result}` : '', ' ', action);
      const none = () => h('p', { class: 'muted' }, t('lobby.none'));
      lists.replaceChildren(
        h('section', { class: 'panel' }, h('h2', {}, t('lobby.open')), h('ul', { id: 'open' }, d.open.map(g => row(g,
          h('span', {}, ...g.seats.map((s, i) => s.kind === 'human' && !s.claimed ? h('button', { class: 'claim', onclick: async () => {
            try { const c = await api('POST', `/api/games/${g.id}/seats/${i}`); location.hash = c.seats[0].link.replace(/^\/#/, ''); } catch (e) { msg.textContent = e.message; }
          } }, t('lobby.join_as', { name: seatName(i, g.seats.length) })) : null), h('a', { href: `#watch/${g.id}` }, t('lobby.watch')))))),
          d.open.length ? null : none()),
        h('section', { class: 'panel' }, h('h2', {}, t('lobby.running')), h('ul', { id: 'running' }, d.running.map(g => row(g, h('a', { href: `#watch/${g.id}` }, t('lobby.watch'))))),
          d.running.length ? null : none()),
        h('section', { class: 'panel' }, h('h2', {}, t('lobby.finished')), h('ul', { id: 'finished' }, d.finished.map(g => row(g, h('span', {},
          h('a', { href: `#replay/${g.id}` }, t('lobby.replay')), ' ', h('a', { href: `/api/games/${g.id}/record`, download: `kontor-${g.id}.kgn` }, t('lobby.record')))))),
          d.finished.length ? null : none()));
    } catch (e) { lists.textContent = e.message; }
  }
  refresh();
}

// ---- a game, as a player or a spectator ----------------------------------------------

function game(id, token) {
  document.title = t('title.game', { id });
  let cards = [], st = null, seat = null, log = [], lastCells = [], newRound = false, moveId = 1, timer = null;
  const status = h('div', { id: 'status', class: 'status' });
  const err = h('div', { id: 'game-error', class: 'error' });
  const svg = el('svg', { id: 'board', role: 'group', 'aria-label': t('board.label') });
  const live = liveRegion();
  const hand = h('div', { id: 'hand', class: 'hand' });
  const actions = h('div', { id: 'actions', class: 'actions' });
  const side = h('div', { id: 'seats', class: 'seats' });
  const summary = h('div', { id: 'summary', class: 'summary' });
  const refbox = h('div', { id: 'refbox' });
  const areabox = h('div', { id: 'areabox' });
  const revealbox = h('div', { id: 'revealbox' });
  let reveals = [], revealRound = 0, shipAt = null;
  const pace = pacer(m => { st = m; if (!refbox.firstChild) refbox.append(reference(st)); render(); }, () => seat);
  const note = token ? notifier(t('title.game', { id })) : null;
  const logbox = h('ol', { id: 'log', class: 'log', tabindex: 0, 'aria-label': t('game.log') });
  const end = h('div', { id: 'end', class: 'end hidden' });
  let wasMine = false, lastPly = -1, rematchId = null;
  // the chat (chat.js), made at the welcome; Undo against the computer when the server offers it
  let chat = null;
  const chatbox = h('div', { id: 'chatbox' });
  const undoBox = h('div', { id: 'undo-box', class: 'undo-box' });
  app().replaceChildren(h('main', { class: 'game' },
    h('header', {}, h('a', { href: '#', class: 'back' }, t('game.back')), h('span', { class: 'title' }, token ? t('game.title', { id }) : t('game.watching', { id })), status,
      h('nav', { class: 'top-links' }, h('a', { href: `rules.html#${getLang()}`, target: '_blank' }, t('rules.link')), langSwitch())),
    err,
    h('div', { class: 'table' },
      h('div', { class: 'harbour' }, summary, revealbox, h('div', { class: 'board-wrap' }, svg), h('div', { class: 'hand-bar' }, undoBox, actions, hand)),
      h('aside', {}, side, chatbox, areabox, note ? note.controls : null, paceSwitch(), refbox, h('h3', {}, t('game.log')), logbox)),
    end, live.el));
  arrows(svg, 'rect.legal');
  arrows(hand, '.hand-card.playable');

  const send = o => { if (socket && socket.readyState === 1) socket.send(JSON.stringify(o)); };
  // take back our last decision (a game against the computer): the server rebuilds the game and sends it again
  async function undo() {
    err.textContent = '';
    try { await api('POST', `/api/games/${id}/takeback`, { token }); } catch (e) { err.textContent = e.message; }
  }
  const move = m => { err.textContent = ''; send({ type: 'move', move: m, id: moveId++ }); };

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${proto}://${location.host}/ws`);
    socket.onopen = () => send(token ? { type: 'join', game: id, token, ...(myName() ? { name: myName() } : {}) } : { type: 'watch', game: id });
    socket.onmessage = e => {
      const m = JSON.parse(e.data);
      if (m.type === 'welcome') {
        pace.clear(); cards = m.cards; seat = m.seat; log = []; lastCells = []; newRound = false; reveals = []; shipAt = null; logbox.replaceChildren();
        const nseats = m.nseats || 2;
        chat = chatPanel({ send, seat, four: nseats === 4, nameOf: i => (st ? nameOf(i) : seatName(i, nseats)) });
        chatbox.replaceChildren(chat.el);
        undoBox.replaceChildren(...(m.takeback && token ? [h('button', { id: 'undo', class: 'undo', title: t('undo.title'), onclick: undo }, t('undo.label'))] : []));
      }
      else if (m.type === 'state') { if (chat) chat.state(m); pace.push(m); }
      else if (m.type === 'chat') { if (chat) chat.add(m); }
      else if (m.type === 'chat_history') { if (chat) chat.history(m.messages); }
      else if (m.type === 'takeback') {
        // the game rebuilt without the decisions taken back: its events come again from the start
        pace.clear(); log = []; lastCells = []; newRound = false; reveals = []; shipAt = null; pendingCell = null;
        logbox.replaceChildren(); revealbox.replaceChildren();
        live.say(t('undo.done'));
      }
      else if (m.type === 'error') { if (!chat || !chat.error(m)) err.textContent = errorText(m); }
      else if (m.type === 'rematch') { rematchId = m.rematch; if (st && st.over) showEnd(); }
    };
    socket.onclose = () => { status.textContent = t('game.reconnecting'); setTimeout(() => { if (location.hash.includes(id)) connect(); }, 1000); };
  }
  connect();

  // a seat's name, with its player's own when he gave one
  const nameOf = i => { const p = st.players && st.players[i]; return seatName(i, st.nseats) + (p && p.player ? ` (${p.player})` : ''); };
  function names() { return st.seats.map((s, i) => nameOf(i)); }

  // The top card of a face-up pile (public), small, with its words.
  function pileTop(id, what, cls = 'dock-top') {
    if (id === null || id === undefined) return null;
    const s = el('svg', { viewBox: `0 0 ${CELL} ${CELL}`, class: `pile-top ${cls}`, 'data-card': id, role: 'img', 'aria-label': `${what}: ${cardLabel(cards[id])}` });
    drawCard(s, cards[id], 0, 0);
    el('title', {}, s).textContent = `${what}: ${cardLabel(cards[id])}`;
    return s;
  }
  const teamOf = i => (st.seats[i] && st.seats[i].team !== undefined ? st.seats[i].team : i);

  // A seat's secret decision as the others see it: chosen, bought, bribed.
  function decided(s) {
    const out = [];
    if (s.choice !== null && s.choice !== undefined) out.push(s.choice === 'hidden' ? t(st.phase === 'declare' ? 'seat.has_declared' : 'seat.has_chosen') : s.choice === 'pass' ? t('seat.passes') : s.choice === 'play' ? t('seat.plays') : t('seat.chose', { card: cardLabel(cards[s.choice]) }));
    if (s.buy !== undefined && s.buy !== null) out.push(s.buy === 'hidden' ? t('seat.has_decided') : s.buy > 1 ? t('seat.buys_n', { n: s.buy }) : s.buy ? t('seat.buys') : t('seat.buys_nothing'));
    if (s.bribe !== undefined && s.bribe !== null) out.push(s.bribe === 'hidden' ? t('seat.has_decided') : s.bribe === 'none' ? t('seat.bribes_nothing') : t('seat.bribes', { at: fmt(...s.bribe) }));
    if (s.selected !== undefined) out.push(t('seat.selected', { n: s.selected }));
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

  let prevLegal = [], prevSt = null;
  function render() {
    const mine = seat !== null && st.actors.includes(seat);
    const gameEl = app().querySelector('main.game'), focused = focusKey(gameEl), said = [];
    const legal = st.legal || [];
    // the log, and the cells that changed in the last events
    const fresh = st.events || [];
    // this round's revealed cards (kept until the next round's reveal)
    let revealed = false;
    for (const e of fresh) {
      if (e.kind === 'round') revealRound = e.a;
      else if (e.kind === 'reveal') {
        if (reveals.length && reveals[0].round !== revealRound) reveals = [];
        reveals = reveals.filter(r => r.seat !== e.seat).concat([{ seat: e.seat, card: e.card, team: teamOf(e.seat), round: revealRound }]);
        revealed = true;
      }
    }
    if (revealed) revealbox.replaceChildren(revealStrip(reveals, cards, nameOf));
    const freshNow = fresh.slice(), shipFrom = shipAt;
    if (st.timeout) {
      // the decision of this message was played by the server's timer
      const who = nameOf(st.timeout.seat), was = prevLegal.find(l => l.m === st.timeout.move);
      logbox.append(h('li', { class: 'ev ev-timeout' }, st.timeout.move !== undefined ? t('ev.timeout_own', { who, what: was ? moveText(was, prevSt || st, cards) : st.timeout.text }) : t('ev.timeout', { who })));
      st.timeout = null;
    }
    if (fresh.length) {
      // the cells of this round's moves stay outlined until the first move of
      // the next (also after a reload, when every event of the game comes at once)
      for (const e of fresh) {
        if (e.kind === 'round') newRound = true;
        else if (e.x !== undefined && ['place', 'ship', 'remove', 'overbuild', 'bribe'].includes(e.kind)) {
          if (newRound) { lastCells = []; newRound = false; }
          lastCells.push([e.x, e.y]);
        }
      }
      for (const ev of fresh) {
        log.push(ev);
        const words = describe(ev, cards, names());
        logbox.append(h('li', { class: `ev ev-${ev.kind}` }, words));
        said.push(words);
      }
      logbox.scrollTop = logbox.scrollHeight;
      st.events = [];
    }
    if (pendingCell && !pendingCell.every(p => legal.some(l => l.m === p.m))) pendingCell = null;
    // seats, team by team
    side.replaceChildren(...[...st.seats.map((s, i) => {
      const p = st.players && st.players[i];
      const tm = teamOf(i), ch = decided(s);
      return h('div', { class: `seat seat-${TEAM[tm]}${st.actors.includes(i) ? ' acting' : ''}`, 'data-seat': i },
        h('div', { class: 'name' }, h('span', { class: `glyph glyph-${TEAM[tm]}`, 'aria-hidden': 'true' }, MARK_GLYPH[TEAM[tm]]), ' ', nameOf(i), i === seat ? t('seat.you') : '', seat !== null && i !== seat && teamOf(seat) === tm ? t('seat.partner') : '',
          p ? ` · ${tOr(`level.${p.kind}`, p.kind)}` : '', p && p.kind === 'human' ? (p.connected ? ' ●' : ' ○') : ''),
        h('div', { class: 'seat-line' }, t('seat.line', { coins: s.coins, hand: s.hand_n, pile: s.pile }), pileTop(s.top, t('pile.top_of', { name: nameOf(i) }))),
        ch ? h('div', { class: 'choice' }, ch) : null);
    }), h('div', { class: 'teams' }, ...[0, 1].map(tm => h('div', { class: `team team-${TEAM[tm]}` }, `${MARK_GLYPH[TEAM[tm]]} ` +
      t('team.line', { team: t(`team.${TEAM[tm]}`), points: st.points[tm], keepers: st.keepers[tm] }) + (st.bonus_points ? t('team.bonus', { n: st.bonus_points[tm] }) : '') +
      (st.export ? t('team.export', { n: st.export[tm].join('/') }) : '') + (st.ship_owner === tm ? t('team.ship_owner') : '')))),
    h('div', { class: 'pub' }, t('pub.line', { round: st.round, phase: t(`phase.${st.phase}`), treasury: st.treasury, water: st.water_pile }) + (st.no_pass ? t('pub.no_pass') : '') +
      (st.special_pile !== undefined ? t('pub.specials', { n: st.special_pile }) : '') + (st.events_left !== undefined ? t('pub.events', { n: st.events_left }) : ''),
      pileTop(st.water_top, t('pile.water_top'), 'water-top')),
    st.event ? h('div', { class: 'event-card', id: 'event-card' }, h('b', {}, st.event.name ? eventName(st.event) : t('game.event')), ': ', st.event.name ? eventText(st.event) : '') : null,
    st.tile ? h('div', { class: 'event-card', id: 'tile-card' }, h('b', {}, t('game.tile')), ': ', tileName(st.tile)) : null].filter(Boolean));
    // the phone's summary above the board: points, coins, the pile tops
    summary.replaceChildren(...[0, 1].map(tm => h('span', { class: `sum-team team-${TEAM[tm]}` }, `${MARK_GLYPH[TEAM[tm]]} `, t('sum.team', { team: t(`team.${TEAM[tm]}`), n: st.points[tm] }))),
      ...st.seats.map((s, i) => h('span', { class: `sum-seat sum-${TEAM[teamOf(i)]}` }, t('sum.seat', { name: nameOf(i) + (i === seat ? t('seat.you') : ''), coins: s.coins }),
        pileTop(s.top, t('pile.top_of', { name: nameOf(i) }), 'sum-top'))),
      h('span', { class: 'sum-round' }, t('sum.round', { n: st.round })));
    // status line
    const actorNames = st.actors.map(nameOf).join(t('game.and'));
    if (st.over) status.textContent = t('game.over');
    else if (seat === null) status.textContent = t('game.to_decide', { names: actorNames });
    else status.textContent = mine ? phaseHint(st.phase) : actorNames ? t('game.waiting', { names: actorNames }) : t('game.waiting_others');
    if (note) note.update(mine && !st.over, phaseHint(st.phase));
    if (timer) clearInterval(timer);
    if (st.deadline_ms !== undefined && mine) {
      const until = Date.now() + st.deadline_ms;
      timer = setInterval(() => { const s = Math.max(0, Math.round((until - Date.now()) / 1000)); status.textContent = t('game.countdown', { hint: phaseHint(st.phase), s }); }, 500);
    }
    // the board: cell decisions are the highlighted cells
    const cellMoves = legal.filter(l => l.x !== undefined);
    const me = seat !== null ? st.seats[seat] : null;
    const ghost = st.phase === 'place' && me && typeof me.choice === 'number' ? cards[me.choice] : null;
    const marked = st.tavern_area !== undefined && st.areas[st.tavern_area] ? st.areas[st.tavern_area].cells : [];
    drawBoard(svg, st, cards, { legal: mine ? cellMoves : [], onCell, ghost, lastCells, marked, overlay: areaOverlay(st) });
    animate(svg, freshNow, seat, shipFrom, st.board.ship);
    shipAt = st.board.ship;
    const areasOpen = areabox.firstChild ? areabox.firstChild.open : !matchMedia('(max-width: 760px)').matches;
    areabox.replaceChildren(areaList(st, areasOpen));
    // the hand: a card to choose is clicked
    hand.replaceChildren();
    const inHand = new Set();
    if (me && me.hand) {
      for (const cid of me.hand) {
        const choose = legal.find(l => l.kind === 'choose' && l.card === cid);
        if (choose) inHand.add(choose.m);
        const s = el('svg', { viewBox: `0 0 ${CELL} ${CELL}`, class: `hand-card${choose && mine ? ' playable' : ''}`, 'data-card': cid });
        drawCard(s, cards[cid], 0, 0);
        el('title', {}, s).textContent = choose ? moveText(choose, st, cards) : cardLabel(cards[cid]);
        if (choose && mine) { s.addEventListener('click', () => move(choose.m)); activatable(s, moveText(choose, st, cards), () => move(choose.m)); }
        else s.setAttribute('aria-label', cardLabel(cards[cid]));
        hand.append(s);
      }
      if (!me.hand.length) hand.append(h('span', { class: 'muted' }, t('game.no_cards')));
    } else if (seat === null) hand.append(h('span', { class: 'muted' }, t('game.spectating')));
    // every other decision is a button with its words (kontor_move_text)
    actions.replaceChildren();
    if (mine) {
      if (pendingCell) {
        actions.append(h('span', { class: 'muted' }, t('game.at', { at: fmt(pendingCell[0].x, pendingCell[0].y) })));
        for (const l of pendingCell) actions.append(h('button', { class: `decision cell-choice kind-${l.kind}`, 'data-move': l.m, onclick: () => { pendingCell = null; move(l.m); } }, moveText(l, st, cards)));
      }
      for (const l of legal) {
        if (inHand.has(l.m) || l.x !== undefined) continue;
        const b = h('button', { class: `decision kind-${l.kind}${l.pass ? ' pass' : ''}${l.none ? ' none' : ''}`, 'data-move': l.m, onclick: () => move(l.m) }, moveText(l, st, cards));
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
    const undoButton = undoBox.querySelector('#undo');
    if (undoButton) undoButton.disabled = !!st.over;
    prevLegal = legal; prevSt = st;
    // the keyboard's focus back where it was; the news read out
    // (a new decision of ours: the turn began, or our last decision led to the next)
    restoreFocus(gameEl, focused, mine && (!wasMine || st.ply !== lastPly));
    lastPly = st.ply;
    if (mine && !wasMine && !st.over) said.push(t('game.your_turn', { hint: phaseHint(st.phase) }));
    live.say(said.slice(-4).join('. '));
    wasMine = mine;
  }

  const phaseHint = p => tOr(`hint.${p}`, p);

  function showEnd() {
    const yes = t('end.yes'), no = t('end.no');
    const rows = st.areas.map((a, i) => h('tr', { class: a.counts ? '' : 'muted' }, h('td', {}, i + 1), h('td', {}, fmt(...a.at)), h('td', {}, a.size),
      h('td', {}, a.goods[0].join('/')), h('td', {}, a.goods[1].join('/')), h('td', {}, a.winner === null ? t('end.tie') : t(`team.${TEAM[a.winner]}`)),
      h('td', {}, a.keeper ? yes : no), h('td', {}, a.counts && !a.out ? (a.value !== undefined ? a.value : 1) : '–'), h('td', {}, a.out ? t('end.no_tavern') : a.counts ? yes : no)));
    const w = st.winner === null || st.winner === undefined ? t('end.draw') : t('end.wins', { team: t(`team.${TEAM[st.winner]}`) });
    end.replaceChildren(h('div', { class: 'end-box', role: 'dialog', 'aria-labelledby': 'result' },
      h('h2', { id: 'result' }, `${w}: ${st.score[0]} – ${st.score[1]}`),
      h('p', {}, t('end.why', { why: endWords(st.end) })),
      st.export ? h('p', {}, t('end.export', { red: st.export[0].join('/'), black: st.export[1].join('/') })) : null,
      h('div', { class: 'scoring-wrap' }, h('table', { class: 'scoring' }, h('thead', {}, h('tr', {}, ...['area', 'at', 'cards', 'red', 'black', 'winner', 'keeper', 'points', 'counts'].map(k => h('th', {}, t(`end.col.${k}`))))), h('tbody', {}, rows))),
      h('p', {}, h('a', { href: `#replay/${id}`, id: 'to-replay' }, t('end.replay')), ' · ', h('a', { href: `/api/games/${id}/record`, download: `kontor-${id}.kgn`, id: 'download' }, t('end.download')), ' · ',
        h('a', { href: '#' }, t('end.lobby')), ' · ', h('button', { id: 'look', onclick: () => end.classList.add('hidden') }, t('end.look'))),
      // play again with the colours swapped: a player asks (or joins the one asked), a spectator may watch it
      token ? h('p', {}, h('button', { id: 'rematch', class: rematchId ? 'big' : '', onclick: async () => {
        try { const r = await api('POST', `/api/games/${id}/rematch`, { token }); location.hash = r.seats[0].link.replace(/^\/#/, ''); } catch (e) { err.textContent = e.message; }
      } }, t(rematchId ? 'end.rematch_join' : 'end.rematch'))) : rematchId ? h('p', {}, h('a', { href: `#watch/${rematchId}`, id: 'rematch-watch' }, t('end.rematch_watch'))) : null));
    end.classList.remove('hidden');
  }
}

// ---- replay viewer -------------------------------------------------------------------

async function replay(id) {
  document.title = t('title.replay', { id });
  const svg = el('svg', { id: 'board', role: 'img', 'aria-label': t('board.label') });
  const info = h('div', { class: 'status', id: 'replay-info' });
  const evs = h('ol', { class: 'log', id: 'replay-log', tabindex: 0, 'aria-label': t('replay.this') });
  const slider = h('input', { type: 'range', id: 'slider', min: 0, max: 0, value: 0, 'aria-label': t('replay.slider') });
  const err = h('div', { class: 'error' });
  const an = analysisPanel(id, ply => show(ply));
  app().replaceChildren(h('main', { class: 'game' },
    h('header', {}, h('a', { href: '#', class: 'back' }, t('game.back')), h('span', { class: 'title' }, t('replay.title', { id })),
      h('a', { href: `/api/games/${id}/record`, download: `kontor-${id}.kgn` }, t('replay.download')), h('nav', { class: 'top-links' }, langSwitch())),
    err, h('div', { class: 'replay-bar' }, h('button', { onclick: () => step(-1), 'aria-label': t('replay.back') }, '◀'), slider, h('button', { onclick: () => step(1), 'aria-label': t('replay.forward') }, '▶')), info,
    h('div', { class: 'table' }, h('div', { class: 'harbour' }, h('div', { class: 'board-wrap' }, svg)), h('aside', {}, h('h3', {}, t('replay.this')), evs, an.el))));
  let busy = false, want = null;
  async function show(ply) {
    if (busy) { want = ply; return; }
    busy = true;
    try {
      const v = await api('GET', `/api/games/${id}/view?ply=${ply}`);
      slider.max = v.plies;
      slider.value = v.ply;
      drawBoard(svg, v, v.cards, { lastCells: v.events.filter(e => e.x !== undefined).map(e => [e.x, e.y]), overlay: areaOverlay(v) });
      const names = v.seats.map((s, i) => seatName(i, v.nseats));
      info.textContent = t('replay.info', { ply: v.ply, plies: v.plies, round: v.round, phase: t(`phase.${v.phase}`), a: v.points[0], b: v.points[1] }) +
        (v.over ? t('replay.final', { a: v.score[0], b: v.score[1] }) : '') + ` · ${v.players.join(t('lobby.vs'))}`;
      evs.replaceChildren(...v.events.map(e => h('li', {}, describe(e, v.cards, names))));
      an.show(v);
    } catch (e) { err.textContent = e.message; }
    busy = false;
    if (want !== null) { const w = want; want = null; show(w); }
  }
  function step(d) { show(Math.max(0, Math.min(Number(slider.max), Number(slider.value) + d))); }
  slider.addEventListener('input', () => show(Number(slider.value)));
  show(100000);
}

// The post-game analysis beside the replay (GET /api/games/ID/analysis,
// docs/server.md "Analysis"): asked for until it is ready (202 pending,
// 503 busy and 429 say when to ask again), then, for the decision that led
// to the position shown (the one "This decision" lists), what the search
// recommends, the loss of the decision played and at a reveal the mixed
// strategy beside the card played; and a summary per player whose biggest
// mistakes jump to their decision.
function analysisPanel(id, jump) {
  const status = h('p', { class: 'analysis-status', id: 'analysis-status' }, t('analysis.asking'));
  const here = h('div', { id: 'analysis-ply' });
  const summary = h('div', { id: 'analysis-summary' });
  const el_ = h('section', { class: 'analysis', id: 'analysis', 'aria-live': 'polite' }, h('h3', {}, t('analysis.title')), status, here, summary);
  let data = null, view = null;
  const pct = x => (100 * x).toFixed(1);
  const still = () => location.hash === `#replay/${id}`;
  async function ask() {
    if (!still()) return;
    let r, d;
    try { r = await fetch(`/api/games/${id}/analysis`); d = await r.json(); } catch (e) { status.textContent = t('analysis.failed', { error: e.message }); return; }
    if (r.status === 200) { data = d; status.textContent = t('analysis.note', { agent: d.agent }); render(); return; }
    if (r.status === 202 || r.status === 429 || r.status === 503) {
      status.textContent = r.status === 202 ? t('analysis.pending', { done: d.done, total: d.total }) : t('analysis.wait', { error: d.error });
      setTimeout(ask, Math.min(30, Math.max(1, Number(d.retry_after) || 2)) * 1000);
      return;
    }
    status.textContent = t('analysis.failed', { error: d.error || `HTTP ${r.status}` });
  }
  function render() {
    if (!data || !view) return;
    const names = view.seats.map((s, i) => seatName(i, view.nseats));
    const d = data.decisions.find(x => x.ply === view.ply - 1);
    if (!d) here.replaceChildren(h('p', {}, t('analysis.none')));
    else {
      const mv = m => moveText(m, view, view.cards);
      const kids = [h('p', { class: 'analysis-played' }, t('analysis.played', { name: names[d.seat], move: mv(d.played) }), ' · ',
        h('strong', { class: d.loss >= 0.1 ? 'analysis-loss big' : 'analysis-loss' }, d.loss > 0 ? t('analysis.loss', { loss: pct(d.loss) }) : t('analysis.best_played')))];
      if (d.loss > 0) kids.push(h('p', { class: 'analysis-best' }, t('analysis.recommends', { move: mv(d.best), value: pct(d.best_value), played: pct(d.played_value) }) + (d.researched ? t('analysis.researched') : '')));
      if (d.simultaneous) kids.push(h('p', {}, t('analysis.mixed')), h('ul', { class: 'analysis-mixed', id: 'analysis-mixed' },
        ...d.choices.map(c => h('li', { class: c.m === d.played.m ? 'played' : '' }, c.card !== undefined ? drawMini(c, view) : '', `${mv(c)} ${pct(c.share)}%`, c.m === d.played.m ? t('analysis.this_played') : ''))));
      here.replaceChildren(...kids);
    }
    summary.replaceChildren(h('h4', {}, t('analysis.summary')), ...data.players.map(p => h('div', { class: 'analysis-player' },
      h('p', {}, t('analysis.player', { name: names[p.seat], avg: pct(p.average_loss), n: p.decisions })),
      p.worst.length ? h('p', {}, t('analysis.mistakes'), ' ', ...p.worst.map((w, k) => [k ? ', ' : '',
        h('a', { href: `#replay/${id}`, class: 'analysis-jump', 'data-ply': w.ply + 1, onclick: e => { e.preventDefault(); jump(w.ply + 1); } }, t('analysis.mistake', { ply: w.ply + 1, loss: pct(w.loss) }))]))
        : h('p', {}, t('analysis.no_mistakes')))));
  }
  ask();
  return { el: el_, show(v) { view = v; render(); } };
}

// A card's small picture beside its share in the mixed strategy.
function drawMini(c, v) {
  const s = el('svg', { class: 'mini-card', viewBox: `0 0 ${CELL} ${CELL}`, width: 24, height: 24, 'aria-hidden': 'true' });
  if (v.cards && v.cards[c.card]) drawCard(s, v.cards[c.card], 0, 0);
  return s;
}
