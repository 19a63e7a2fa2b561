// board.js: the harbour and the cards drawn in SVG, shared by the game screen and the replay viewer.
//
// Everything is built from plain SVG elements (no images), so the client
// needs no build step and scales from a phone to a desk. A cell is one card,
// CELL units wide; coordinates are the people's x, y around the harbour
// centre, the same the server and the records use.

import { t } from './i18n.js';

export const CELL = 64;
const NS = 'http://www.w3.org/2000/svg';
const INK = { red: '#b3261e', black: '#1d1d1f', neutral: '#24527a' };
export const TEAM = ['red', 'black'];

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function text(parent, x, y, s, attrs = {}) {
  const t = el('text', { x, y, ...attrs }, parent);
  t.textContent = s;
  return t;
}

// Goods icons: tea a green leaf, wine a purple bottle, spice an orange sack.
function tea(g, x, y) {
  el('path', { d: `M${x - 7} ${y + 5} Q${x - 8} ${y - 8} ${x + 7} ${y - 7} Q${x + 8} ${y + 6} ${x - 7} ${y + 5} Z`,
    fill: '#3f8f3a', stroke: '#245c22', 'stroke-width': 1 }, g);
  el('path', { d: `M${x - 6} ${y + 4} L${x + 5} ${y - 5}`, stroke: '#cfe8c9', 'stroke-width': 1 }, g);
}
function wine(g, x, y) {
  el('rect', { x: x - 2, y: y - 9, width: 4, height: 5, fill: '#5b1f4f' }, g);
  el('path', { d: `M${x - 5} ${y - 3} Q${x - 6} ${y - 5} ${x - 2} ${y - 5} L${x + 2} ${y - 5} Q${x + 6} ${y - 5} ${x + 5} ${y - 3} L${x + 5} ${y + 8} L${x - 5} ${y + 8} Z`,
    fill: '#7a2a6b', stroke: '#3e0f36', 'stroke-width': 1 }, g);
  el('rect', { x: x - 4, y: y, width: 8, height: 4, fill: '#e9d9b0' }, g);
}
function spice(g, x, y) {
  el('path', { d: `M${x - 7} ${y + 8} Q${x - 9} ${y - 2} ${x - 3} ${y - 5} L${x - 4} ${y - 8} L${x + 4} ${y - 8} L${x + 3} ${y - 5} Q${x + 9} ${y - 2} ${x + 7} ${y + 8} Z`,
    fill: '#d9822b', stroke: '#8a4b0f', 'stroke-width': 1 }, g);
  el('path', { d: `M${x - 4} ${y - 5} L${x + 4} ${y - 5}`, stroke: '#8a4b0f', 'stroke-width': 1.5 }, g);
}
const GOODS = [tea, wine, spice];

function coin(g, x, y) {
  el('circle', { cx: x, cy: y, r: 7, fill: '#e8b923', stroke: '#8c6d0b', 'stroke-width': 1.2 }, g);
  el('circle', { cx: x, cy: y, r: 4, fill: 'none', stroke: '#8c6d0b', 'stroke-width': 0.8 }, g);
}
export function shipIcon(g, x, y, scale = 1, fill = '#6b4423') {
  const s = scale;
  el('path', { d: `M${x - 10 * s} ${y + 2 * s} L${x + 10 * s} ${y + 2 * s} L${x + 6 * s} ${y + 7 * s} L${x - 6 * s} ${y + 7 * s} Z`, fill }, g);
  el('path', { d: `M${x} ${y + 2 * s} L${x} ${y - 10 * s} L${x + 8 * s} ${y} Z`, fill: '#f4efe2', stroke: fill, 'stroke-width': 0.8 }, g);
}
function crane(g, x, y, ink) {
  el('path', { d: `M${x - 10} ${y + 12} L${x - 4} ${y + 12} M${x - 7} ${y + 12} L${x - 7} ${y - 10} L${x + 12} ${y - 10} M${x - 7} ${y - 4} L${x - 1} ${y - 10} M${x + 10} ${y - 10} L${x + 10} ${y}`,
    stroke: ink, 'stroke-width': 2.2, fill: 'none', 'stroke-linecap': 'round' }, g);
  el('rect', { x: x + 7, y: y, width: 6, height: 5, fill: ink }, g);
}
function tavern(g, x, y, ink) {
  el('rect', { x: x - 8, y: y - 6, width: 12, height: 16, rx: 2, fill: '#f3d36b', stroke: ink, 'stroke-width': 1.5 }, g);
  el('path', { d: `M${x + 4} ${y - 2} Q${x + 11} ${y - 1} ${x + 4} ${y + 7}`, stroke: ink, 'stroke-width': 1.5, fill: 'none' }, g);
  el('path', { d: `M${x - 9} ${y - 6} Q${x - 4} ${y - 12} ${x + 5} ${y - 6}`, fill: '#fffaf0', stroke: ink, 'stroke-width': 1 }, g);
}
function waves(g, w, h) {
  for (let i = 0; i < 3; i++) {
    const y = h * (0.55 + i * 0.14);
    el('path', { d: `M4 ${y} q${w / 8} -5 ${w / 4} 0 t${w / 4} 0 t${w / 4} 0 t${w / 4 - 8} 0`, stroke: 'rgba(255,255,255,.45)', 'stroke-width': 1.4, fill: 'none' }, g);
  }
}

// The special cards of the game for four: a flood (water over a card), a
// bridge (a dock card over water), a customs house (a dock card, or water
// when asWater). A gold frame marks them apart from the ordinary cards.
function special(g, card, w, h, pad, asWater) {
  const water = card.kind === 'flood' || asWater;
  el('rect', { x: pad, y: pad, width: w - 2 * pad, height: h - 2 * pad, rx: 6, fill: water ? '#3d7fb0' : '#e9dcc0',
    stroke: '#b8860b', 'stroke-width': 3, class: `special special-${card.kind}` }, g);
  if (water) waves(g, w, h);
  const cx = w / 2, cy = h / 2 + 4;
  if (card.kind === 'flood') {
    for (let i = 0; i < 3; i++)
      el('path', { d: `M${cx - 16} ${cy - 10 + i * 9} q8 -7 16 0 t16 0`, stroke: '#e6f2fb', 'stroke-width': 2.4, fill: 'none', 'stroke-linecap': 'round' }, g);
  } else if (card.kind === 'bridge') {
    el('rect', { x: pad + 2, y: cy + 4, width: w - 2 * pad - 4, height: 10, fill: '#4f8fbf' }, g);
    el('path', { d: `M${cx - 22} ${cy + 4} Q${cx} ${cy - 16} ${cx + 22} ${cy + 4}`, stroke: '#6b4423', 'stroke-width': 4, fill: 'none' }, g);
    el('path', { d: `M${cx - 22} ${cy - 4} Q${cx} ${cy - 24} ${cx + 22} ${cy - 4}`, stroke: '#6b4423', 'stroke-width': 1.5, fill: 'none' }, g);
    for (const dx of [-12, 0, 12]) el('path', { d: `M${cx + dx} ${cy - 9 - (dx ? 0 : 4)} L${cx + dx} ${cy - 2 - (dx ? 0 : 6)}`, stroke: '#6b4423', 'stroke-width': 1.2 }, g);
  } else {
    // customs house: a gabled building with a coin over the door
    el('path', { d: `M${cx - 14} ${cy + 12} L${cx - 14} ${cy - 4} L${cx} ${cy - 16} L${cx + 14} ${cy - 4} L${cx + 14} ${cy + 12} Z`,
      fill: '#c9a66b', stroke: '#5a3e1b', 'stroke-width': 1.5 }, g);
    el('rect', { x: cx - 4, y: cy + 2, width: 8, height: 10, fill: '#5a3e1b' }, g);
    coin(g, cx, cy - 5);
  }
  text(g, 7, 15, t(`special.${card.kind}`), { 'font-size': 10, 'font-weight': 700, fill: water ? '#fff' : '#5a3e1b' });
}

// One card as a <g> at (x, y) of size w x h. card: the card set entry, or
// null for a card face down (an unknown id from the server).
export function drawCard(parent, card, x, y, w = CELL, h = CELL, opts = {}) {
  const g = el('g', { transform: `translate(${x} ${y})`, class: 'card' }, parent);
  const pad = 2;
  if (!card) {
    el('rect', { x: pad, y: pad, width: w - 2 * pad, height: h - 2 * pad, rx: 6, fill: '#3b5b7a', stroke: '#1e3347' }, g);
    el('rect', { x: pad + 5, y: pad + 5, width: w - 2 * pad - 10, height: h - 2 * pad - 10, rx: 4, fill: 'none', stroke: '#9db7cf', 'stroke-dasharray': '3 3' }, g);
    text(g, w / 2, h / 2 + 5, 'K', { 'text-anchor': 'middle', 'font-size': 16, fill: '#9db7cf', 'font-weight': 700 });
    return g;
  }
  if (card.kind === 'flood' || card.kind === 'bridge' || card.kind === 'customs') {
    special(g, card, w, h, pad, opts.asWater);
    if (opts.title) el('title', {}, g).textContent = opts.title;
    return g;
  }
  const water = card.kind === 'water' || card.kind === 'centre';
  const ink = INK[card.colour] || INK.neutral;
  const fill = water ? '#4f8fbf' : card.kind === 'crane' ? '#d9cdb0' : card.kind === 'tavern' ? '#e8d2a6' : '#efe4c8';
  el('rect', { x: pad, y: pad, width: w - 2 * pad, height: h - 2 * pad, rx: 6, fill, stroke: water ? '#2c5f86' : '#8a7a55', 'stroke-width': 1.5 }, g);
  if (water) waves(g, w, h);
  if (card.kind === 'centre') {
    // the harbour centre: an anchor
    el('circle', { cx: w / 2, cy: h / 2 - 12, r: 4, fill: 'none', stroke: '#fff', 'stroke-width': 2 }, g);
    el('path', { d: `M${w / 2} ${h / 2 - 8} L${w / 2} ${h / 2 + 14} M${w / 2 - 12} ${h / 2 + 4} Q${w / 2} ${h / 2 + 22} ${w / 2 + 12} ${h / 2 + 4} M${w / 2 - 7} ${h / 2 - 3} L${w / 2 + 7} ${h / 2 - 3}`,
      stroke: '#fff', 'stroke-width': 2.2, fill: 'none', 'stroke-linecap': 'round' }, g);
    return g;
  }
  if (card.n) text(g, 7, 17, String(card.n), { 'font-size': 15, 'font-weight': 700, fill: water ? '#fff' : ink, class: 'num' });
  // red and black told apart by a shape as well: a diamond for red, a disc for black
  if (card.colour === 'red' || card.colour === 'black') mark(g, 12 + String(card.n).length * 9, 11, card.colour);
  if (card.kind === 'crane') crane(g, w / 2 + 2, h / 2 + 4, ink);
  if (card.kind === 'tavern') tavern(g, w / 2 + 2, h / 2 + 6, ink);
  if (card.kind === 'goods') {
    const icons = [];
    card.goods.forEach((k, i) => { for (let j = 0; j < k; j++) icons.push(i); });
    const n = icons.length, cx = w / 2 + 4, cy = h / 2 + 6;
    icons.forEach((i, j) => {
      const dx = n === 1 ? 0 : (j - (n - 1) / 2) * 16;
      GOODS[i](g, cx + dx, cy);
    });
  }
  if (card.coin) coin(g, w - 12, 13);
  if (card.ship) shipIcon(el('g', { class: 'ship-mark' }, g), w - 14, h - 16, 0.8);
  if (opts.title) el('title', {}, g).textContent = opts.title;
  return g;
}

// The shape of a colour (MARK_GLYPH in text): red a diamond, black a disc.
export const MARK_GLYPH = { red: '◆', black: '●' };
export function mark(g, x, y, colour) {
  if (colour === 'red') el('path', { d: `M${x} ${y - 5} L${x + 4} ${y} L${x} ${y + 5} L${x - 4} ${y} Z`, fill: INK.red, class: 'mark mark-red' }, g);
  else el('circle', { cx: x, cy: y, r: 3.6, fill: INK.black, class: 'mark mark-black' }, g);
}

export function cardLabel(card) {
  if (!card) return t('card.hidden');
  if (card.kind === 'centre') return t('card.centre');
  if (card.kind === 'flood' || card.kind === 'bridge' || card.kind === 'customs') return t(`card.${card.kind}`);
  if (card.kind === 'water') return t('card.water', { n: card.n });
  const colour = t(`colour.${card.colour}`);
  if (card.kind === 'goods') {
    const goods = card.goods.map((k, i) => (k ? t('card.goods', { k, good: t(`good.${i}`) }) : '')).filter(Boolean).join(', ');
    return t('card.dock', { colour, n: card.n, what: goods });
  }
  return t('card.dock', { colour, n: card.n, what: t(`kind.${card.kind}`) });
}

// The rectangle [x0, x1, y0, y1] in which cards may still lie: a fixed
// board's own rectangle, or what the extent reached so far leaves of W x H.
function window_(st) {
  if (st.board.fixed) return st.board.fixed;
  const [ex0, ex1, ey0, ey1] = st.board.extent, W = st.board.w, H = st.board.h;
  return [ex1 - W + 1, ex0 + W - 1, ey1 - H + 1, ey0 + H - 1];
}

// Draw the harbour of state st into svg. cards: the card set. legal: the
// cell decisions to highlight ({x, y, m, kind, text}); onCell(moves) on a
// click, with every decision of that cell (a customs house may go there as
// a dock card or as water); ghost: the card to preview on hover.
export function drawBoard(svg, st, cards, { legal = [], onCell = null, ghost = null, lastCells = [], marked = [], overlay = null } = {}) {
  svg.replaceChildren();
  const b = st.board, cells = b.cells;
  const [wx0, wx1, wy0, wy1] = window_(st);
  let x0, x1, y0, y1;
  if (b.fixed) [x0, x1, y0, y1] = b.fixed;
  else {
    const xs = cells.map(c => c[0]).concat(legal.map(l => l.x));
    const ys = cells.map(c => c[1]).concat(legal.map(l => l.y));
    // a margin of one cell where the board may still grow
    x0 = Math.max(Math.min(...xs) - 1, wx0); x1 = Math.min(Math.max(...xs) + 1, wx1);
    y0 = Math.max(Math.min(...ys) - 1, wy0); y1 = Math.min(Math.max(...ys) + 1, wy1);
  }
  const M = 8;
  const vw = (x1 - x0 + 1) * CELL + 2 * M, vh = (y1 - y0 + 1) * CELL + 2 * M;
  svg.setAttribute('viewBox', `0 0 ${vw} ${vh}`);
  svg.dataset.extent = `${x1 - x0 + 1}x${y1 - y0 + 1}`;
  // a phone scrolls a wide board rather than shrink its cards below reading size (style.css)
  svg.style.setProperty('--cols', String(x1 - x0 + 1));
  const px = x => M + (x - x0) * CELL, py = y => M + (y - y0) * CELL;
  el('rect', { x: 0, y: 0, width: vw, height: vh, fill: '#a9c7dc', rx: 10 }, svg);
  const ax0 = Math.max(x0, wx0), ax1 = Math.min(x1, wx1), ay0 = Math.max(y0, wy0), ay1 = Math.min(y1, wy1);
  el('rect', { x: px(ax0), y: py(ay0), width: (ax1 - ax0 + 1) * CELL, height: (ay1 - ay0 + 1) * CELL, fill: '#bcd5e6',
    stroke: b.fixed ? '#24527a' : '#7fa6c2', 'stroke-width': b.fixed ? 3 : 1, 'stroke-dasharray': b.fixed ? 'none' : '6 4', rx: 6, class: 'window' }, svg);
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++)
    el('rect', { x: px(x) + 1, y: py(y) + 1, width: CELL - 2, height: CELL - 2, fill: 'none', stroke: 'rgba(255,255,255,.25)', rx: 5 }, svg);
  // Die grosse Insel: the inner cells, where no water may go
  for (const [x, y] of b.inner || [])
    el('rect', { x: px(x) + 1, y: py(y) + 1, width: CELL - 2, height: CELL - 2, fill: 'rgba(120,170,90,.35)', rx: 5, class: 'inner' }, svg);
  const asWater = new Set((b.customs || []).filter(c => c[2]).map(c => `${c[0]},${c[1]}`));
  const under = new Map((b.under || []).map(([x, y, id]) => [`${x},${y}`, id]));
  for (const [x, y, id] of cells) {
    const k = `${x},${y}`;
    const below = under.has(k) ? t('board.over', { card: cardLabel(cards[under.get(k)]) }) : '';
    const g = drawCard(svg, cards[id] || null, px(x), py(y), CELL, CELL,
      { title: t('board.cell', { card: cardLabel(cards[id]), water: asWater.has(k) ? t('board.as_water') : '', at: fmt(x, y), below }), asWater: asWater.has(k) });
    g.setAttribute('data-cell', k);
    if (under.has(k)) {
      // the overbuilt card peeks out at the lower left corner
      const u = cards[under.get(k)];
      el('rect', { x: px(x) + 3, y: py(y) + CELL - 17, width: 22, height: 14, rx: 3, fill: '#fffaf0', stroke: '#8a7a55', 'pointer-events': 'none' }, svg);
      text(svg, px(x) + 14, py(y) + CELL - 6, u && u.n ? String(u.n) : '·', { 'text-anchor': 'middle', 'font-size': 10, fill: u ? (INK[u.colour] || INK.neutral) : '#333', 'pointer-events': 'none' });
    }
  }
  // Aktionstafeln: the tiles still on the ends of the water cross
  for (const tl of b.tiles || []) {
    const [x, y] = tl.at;
    const g = el('g', { class: 'tile', 'pointer-events': 'none' }, svg);
    el('rect', { x: px(x) + 8, y: py(y) + CELL - 22, width: CELL - 16, height: 16, rx: 3, fill: '#fff3c4', stroke: '#b8860b' }, g);
    const nm = tileName(tl);
    text(g, px(x) + CELL / 2, py(y) + CELL - 10, nm.length > 11 ? nm.slice(0, 10) + '…' : nm, { 'text-anchor': 'middle', 'font-size': 8, fill: '#5a3e1b' });
    el('title', {}, g).textContent = t('board.tile', { name: tileName(tl) });
  }
  for (const [x, y] of lastCells)
    el('rect', { x: px(x) + 2, y: py(y) + 2, width: CELL - 4, height: CELL - 4, rx: 6, fill: 'none', stroke: '#ffd43b', 'stroke-width': 3, class: 'last', 'data-cell': `${x},${y}`, 'pointer-events': 'none' }, svg);
  // scored areas: a tint in the winner's colour and a keeper on the first cell
  for (const a of st.areas) {
    const col = a.winner === null ? 'rgba(120,120,120,.28)' : a.winner === 0 ? 'rgba(179,38,30,.28)' : 'rgba(20,20,20,.28)';
    for (const [x, y] of a.cells) el('rect', { x: px(x) + 2, y: py(y) + 2, width: CELL - 4, height: CELL - 4, rx: 6, fill: col, class: 'area', 'pointer-events': 'none' }, svg);
    if (a.keeper) {
      const [x, y] = a.at;
      // lower right, unless the card there shows the ship symbol: then lower left
      const at = cells.find(c => c[0] === x && c[1] === y), c = at && cards[at[2]];
      const kx = c && c.ship ? px(x) + 12 : px(x) + CELL - 14;
      const k = el('g', { transform: `translate(${kx} ${py(y) + CELL - 12})`, 'pointer-events': 'none', class: 'keeper' }, svg);
      el('circle', { cx: 0, cy: -6, r: 4, fill: INK[TEAM[a.winner]], stroke: '#fff' }, k);
      el('path', { d: 'M-6 6 L-3 -3 L3 -3 L6 6 Z', fill: INK[TEAM[a.winner]], stroke: '#fff' }, k);
    }
  }
  // cells a decision is about without being its choice (the tavern's area)
  for (const [x, y] of marked)
    el('rect', { x: px(x) + 1, y: py(y) + 1, width: CELL - 2, height: CELL - 2, rx: 6, fill: 'none', stroke: '#e0a800', 'stroke-width': 4, class: 'marked', 'pointer-events': 'none' }, svg);
  // more drawn over the cards, under the ship and the decisions (areas.js)
  if (overlay) overlay(svg, px, py);
  if (b.ship) {
    const [x, y] = b.ship;
    const g = el('g', { class: 'ship', 'pointer-events': 'none' }, svg);
    el('circle', { cx: px(x) + CELL / 2, cy: py(y) + CELL / 2, r: 17, fill: 'rgba(255,255,255,.8)' }, g);
    shipIcon(g, px(x) + CELL / 2, py(y) + CELL / 2 + 1, 1.2);
  }
  // the decisions on cells, one highlight per cell
  const byCell = new Map();
  for (const l of legal) {
    const k = `${l.x},${l.y}`;
    if (!byCell.has(k)) byCell.set(k, []);
    byCell.get(k).push(l);
  }
  for (const [k, ls] of byCell) {
    const { x, y } = ls[0];
    const kinds = [...new Set(ls.map(l => l.kind))];
    const r = el('rect', { x: px(x) + 3, y: py(y) + 3, width: CELL - 6, height: CELL - 6, rx: 6,
      class: `legal ${kinds.map(k2 => 'legal-' + k2).join(' ')}${ls.length > 1 ? ' legal-several' : ''}`, 'data-cell': k, 'data-move': ls[0].m }, svg);
    let hover = null;
    r.addEventListener('mouseenter', () => {
      r.classList.add('hover');
      if (ghost && ls.some(l => l.kind === 'place' || l.kind === 'place_water')) {
        hover = drawCard(svg, ghost, px(x), py(y), CELL, CELL, { asWater: ls.every(l => l.kind === 'place_water') });
        hover.setAttribute('opacity', '0.6'); hover.setAttribute('pointer-events', 'none');
      }
    });
    r.addEventListener('mouseleave', () => { r.classList.remove('hover'); if (hover) hover.remove(); hover = null; });
    if (onCell) {
      r.addEventListener('click', () => onCell(ls));
      // the keyboard: Tab reaches the cell, Enter or Space decides (keys.js)
      r.setAttribute('tabindex', '0');
      r.setAttribute('role', 'button');
      r.setAttribute('aria-label', ls.map(l => moveText(l, st, cards)).join(' / '));
      r.addEventListener('keydown', e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onCell(ls); } });
      r.addEventListener('focus', () => r.dispatchEvent(new Event('mouseenter')));
      r.addEventListener('blur', () => r.dispatchEvent(new Event('mouseleave')));
    }
    el('title', {}, r).textContent = ls.map(l => moveText(l, st, cards)).join(' / ');
  }
  return svg;
}

// Why a game ended (sjson.c end_names, by number and by name).
const END_NAMES = ['', 'full', 'max_rounds', 'stuck', 'row', 'bankrupt'];
export const endWords = name => t(`end.${typeof name === 'number' ? END_NAMES[name] || '' : name}`);

export function fmt(x, y) {
  const s = v => (v > 0 ? '+' : '') + v;
  return `${s(x)},${s(y)}`;
}

// A seat's name in the language of the page: red/black, or red 1, red 2,
// black 1, black 2 with four (kontor_seat_name).
export function seatName(i, nseats) {
  if (nseats === 4) return t('seat.four', { team: t(`team.${TEAM[i >> 1]}`), n: (i & 1) + 1 });
  return t(`team.${TEAM[i]}`);
}

// An action tile's name (Aktionstafeln), by its number.
export const tileName = tl => t(`tile.${tl.tile}`);
// An event card's name and text (Ereigniskarten), by its name in data/events.txt.
export const eventName = e => t(`event.${e.name}.name`);
export const eventText = e => t(`event.${e.name}.text`);

// A decision in words (the server's kontor_move_text, said in the page's
// language from the decision's fields; the server's words for a kind the
// catalogue does not know).
export function moveText(l, st, cards) {
  const at = l.x !== undefined ? fmt(l.x, l.y) : '';
  const onCell = () => { const c = st && st.board.cells.find(c2 => c2[0] === l.x && c2[1] === l.y); return c ? cards[c[2]] : null; };
  switch (l.kind) {
    case 'choose': return l.pass ? t('move.pass') : t('move.play', { card: cardLabel(cards[l.card]) });
    case 'declare': return l.pass ? t('move.declare_pass') : t('move.declare_play');
    case 'ship': return l.none ? t('move.ship_stay') : t('move.ship', { at });
    case 'remove': return l.none ? t('move.remove_none') : t('move.remove', { card: cardLabel(onCell()), at });
    case 'place': return l.none ? t('move.take_back') : t('move.place', { at });
    case 'place_water': return t('move.place_water', { at });
    case 'buy': return l.value > 1 ? t('move.buy_n', { n: l.value }) : l.value ? t('move.buy') : t('move.buy_none');
    case 'pile': return t('move.pile', { name: seatName(l.seat, st ? st.nseats : 2) });
    case 'bribe': {
      if (l.none) return t('move.bribe_none');
      const c = onCell(), n = c && c.goods ? c.goods[0] + c.goods[1] + c.goods[2] : 0;
      return t('move.bribe', { card: cardLabel(c), at, n });
    }
    case 'keep': return t('move.keep', { card: cardLabel(cards[l.card]) });
    case 'discard': return t('move.discard', { card: cardLabel(cards[l.card]) });
    case 'tavern': return l.value ? t('move.tavern_yes') : t('move.tavern_no');
    case 'export': return l.none ? t('move.export_none') : t('move.export', { good: t(`good.${l.good}`) });
    case 'event': return l.none ? t('move.event_none') : t('move.cell', { at });
    case 'tile': return l.none ? t('move.tile_none') : t('move.cell', { at });
    default: return l.text || l.kind;
  }
}

// An event in words, for the round log.
export function describe(ev, cards, names) {
  const who = ev.seat !== undefined && names[ev.seat] ? names[ev.seat] : '';
  const c = ev.card !== undefined ? cardLabel(cards[ev.card]) : '';
  const at = ev.x !== undefined ? fmt(ev.x, ev.y) : '';
  const p = { who, card: c, at, a: ev.a };
  switch (ev.kind) {
    case 'round': return t('ev.round', p);
    case 'pass': return t(ev.a ? 'ev.pass_coin' : 'ev.pass', p);
    case 'reveal': return t('ev.reveal', p);
    case 'play': return t('ev.play', p);
    case 'tax': return t('ev.tax', p);
    case 'takeback': return t('ev.takeback', p);
    case 'sitout': return t(ev.a ? 'ev.sitout_coin' : 'ev.sitout', p);
    case 'ship': return t(at ? 'ev.ship' : 'ev.ship_stay', p);
    case 'remove':
      // with four players the pile is a decision of its own: an event without a cell
      if (ev.x === undefined && names[ev.a]) return t('ev.pile', { ...p, name: names[ev.a] });
      return t(at ? 'ev.remove' : 'ev.remove_none', p);
    case 'place': return t('ev.place', p);
    case 'score': return ev.seat === undefined ? t('ev.score_tie', p) : t('ev.score', { ...p, team: t(`team.${TEAM[ev.seat]}`) });
    case 'draw': return t('ev.draw', p);
    case 'coin': return t('ev.coin', p);
    case 'end': return t('ev.end', { why: endWords(ev.a) });
    case 'buy': return ev.card !== undefined && cards[ev.card] ? t('ev.buy_card', p) : t('ev.buy', p);
    case 'overbuild': return t('ev.overbuild', p);
    case 'bribe': return t('ev.bribe', p);
    case 'select': return t('ev.select', p);
    case 'tavern': return t(ev.card ? 'ev.tavern_yes' : 'ev.tavern_no', p);
    case 'export': return t('ev.export', { ...p, good: t(`good.${ev.a}`) });
    case 'event': return ev.event && ev.event.name ? t('ev.event', { name: eventName(ev.event), text: eventText(ev.event) }) : t('ev.event_n', p);
    case 'tile': return t('ev.tile', { ...p, name: ev.a !== undefined ? t(`tile.${ev.a}`) : ev.tile });
    default: return ev.kind;
  }
}
