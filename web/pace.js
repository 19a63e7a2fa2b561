// pace.js: the game's news at a pace a person can follow.
//
// State messages that bring the reveal, another player's placement or a
// ship's move are shown one at a time, each held for a moment before the
// next is drawn (stepped), and the board animates them: a card laid by
// someone else fades in with a ring, the ship sails from where it stood.
// The cards revealed this round stay in a strip above the board until the
// next reveal. The pace is the player's choice (kept in localStorage):
// normal, slow, or off (instant; the end-to-end tests run so).
import { t } from './i18n.js';
import { el, drawCard, cardLabel, CELL, TEAM, MARK_GLYPH } from './board.js';

const KEY = 'kontor-pace';
export const PACES = { off: 0, normal: 900, slow: 1800 };

export function getPace() {
  try { const p = localStorage.getItem(KEY); return PACES[p] !== undefined ? p : 'normal'; } catch { return 'normal'; }
}

// The select that sets the pace.
export function paceSwitch() {
  const s = document.createElement('select');
  s.id = 'pace';
  s.setAttribute('aria-label', t('pace.label'));
  for (const p of Object.keys(PACES)) {
    const o = document.createElement('option');
    o.value = p;
    o.textContent = t(`pace.${p}`);
    o.selected = p === getPace();
    s.append(o);
  }
  s.addEventListener('change', () => { try { localStorage.setItem(KEY, s.value); } catch { /* this page only */ } });
  const l = document.createElement('label');
  l.className = 'pace-switch';
  l.append(t('pace.label'), ' ', s);
  return l;
}

// Does a state message bring news worth a pause for seat (null: spectator)?
function worthAPause(m, seat) {
  return (m.events || []).some(e => e.kind === 'reveal' || ((e.kind === 'place' || e.kind === 'ship' || e.kind === 'remove') && e.seat !== seat));
}

// A queue of state messages: show(m) draws one; a message with news holds
// the next ones back for the pace's delay. Other messages pass at once
// when nothing is held.
export function pacer(show, seatOf) {
  const queue = [];
  let busy = false;
  function next() {
    if (!queue.length) { busy = false; return; }
    const m = queue.shift();
    const news = worthAPause(m, seatOf()); // (before show: drawing empties m.events)
    show(m);
    const delay = PACES[getPace()];
    if (delay && news) {
      busy = true;
      setTimeout(next, delay);
    } else next();
  }
  return {
    push(m) { queue.push(m); if (!busy) next(); },
    clear() { queue.length = 0; },
  };
}

// After drawBoard: animate what the fresh events did (other seats' cards
// fade in with a ring; the ship sails from its last cell).
export function animate(svg, fresh, seat, shipFrom, shipTo) {
  if (!PACES[getPace()]) return;
  for (const e of fresh) {
    if (e.kind !== 'place' || e.seat === seat || e.x === undefined) continue;
    const g = svg.querySelector(`g[data-cell="${e.x},${e.y}"]`);
    if (!g) continue;
    g.classList.add('arrive');
    const m = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(g.getAttribute('transform') || '');
    if (m) el('rect', { x: m[1], y: m[2], width: CELL, height: CELL, rx: 8, class: 'arrive-ring', fill: 'none', 'pointer-events': 'none' }, svg);
  }
  const ship = svg.querySelector('g.ship');
  if (ship && shipFrom && shipTo && (shipFrom[0] !== shipTo[0] || shipFrom[1] !== shipTo[1])) {
    const dx = (shipFrom[0] - shipTo[0]) * CELL, dy = (shipFrom[1] - shipTo[1]) * CELL;
    const a = el('animateTransform', { attributeName: 'transform', type: 'translate', from: `${dx} ${dy}`, to: '0 0',
      dur: `${PACES[getPace()] / 1000}s`, fill: 'freeze', class: 'ship-sail' }, ship);
    if (a.beginElement) a.beginElement();
  }
}

// The cards revealed this round, with who laid them (kept until the next reveal).
export function revealStrip(reveals, cards, nameOf) {
  const box = document.createElement('div');
  box.id = 'reveal';
  box.className = 'reveal-strip';
  if (!reveals.length) return box;
  box.append(t('pace.revealed'), ' ');
  for (const e of reveals) {
    const span = document.createElement('span');
    span.className = `revealed revealed-${TEAM[e.team] || 'red'}`;
    const s = el('svg', { viewBox: `0 0 ${CELL} ${CELL}`, class: 'reveal-card', role: 'img', 'aria-label': cardLabel(cards[e.card]) });
    drawCard(s, cards[e.card], 0, 0);
    span.append(`${MARK_GLYPH[TEAM[e.team]] || ''} ${nameOf(e.seat)} `, s);
    box.append(span);
  }
  return box;
}
