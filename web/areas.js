// areas.js: the harbour's areas made readable: each one outlined on the
// board with a badge, and listed beside it. An open area says who leads it
// and by what (the rule that decides, as the server reports it in
// open_areas) and how many free cells still border it; an enclosed one says
// who won it and whether it counts now (the five largest, and so on), or,
// once the game is over, whether it counted in the final scoring.
import { t } from './i18n.js';
import { el, CELL, TEAM, MARK_GLYPH, fmt } from './board.js';

const INK = ['#b3261e', '#1d1d1f'];
const letter = i => String.fromCharCode(65 + (i % 26)) + (i >= 26 ? Math.floor(i / 26) : '');

// The outline of a set of cells: the sides that border no cell of the set.
function outline(cells, px, py) {
  const inSet = new Set(cells.map(([x, y]) => `${x},${y}`));
  let d = '';
  for (const [x, y] of cells) {
    const X = px(x) + 1, Y = py(y) + 1, W = CELL - 2;
    if (!inSet.has(`${x},${y - 1}`)) d += `M${X} ${Y}h${W}`;
    if (!inSet.has(`${x},${y + 1}`)) d += `M${X} ${Y + W}h${W}`;
    if (!inSet.has(`${x - 1},${y}`)) d += `M${X} ${Y}v${W}`;
    if (!inSet.has(`${x + 1},${y}`)) d += `M${X + W} ${Y}v${W}`;
  }
  return d;
}

const first = cells => cells.reduce((a, c) => (c[1] < a[1] || (c[1] === a[1] && c[0] < a[0]) ? c : a), cells[0]);

// Words for an open area: who leads, by what, and its free cells.
export function openWords(a) {
  const free = t('area.free', { n: a.free });
  if (a.leader === null || a.leader === undefined) {
    const any = a.goods.some(g => g.some(Boolean));
    return `${t(any ? 'area.tied' : 'area.empty')} · ${free}`;
  }
  const team = t(`team.${TEAM[a.leader]}`), good = t(`good.${a.good}`);
  const by = a.rule === 'superiority' ? t('area.by_superiority', { team, n: a.amount, good })
    : a.rule === 'more' ? t('area.by_more', { team, n: a.ahead })
      : t('area.by_cycle', { team, good, over: t(`good.${a.over}`) });
  return `${by} · ${free}`;
}

// Words for an enclosed area; over: the game is over, so its counts is the
// final scoring's (as in the end table), not a reading of the moment.
export function closedWords(a, over) {
  if (a.winner === null) return t('area.closed_tie');
  const won = t('area.closed_won', { team: t(`team.${TEAM[a.winner]}`) });
  const counts = over ? (a.counts ? t('area.counted') : t('area.not_counted')) : a.counts ? t('area.counts') : t('area.not_counting');
  return `${won} · ${a.out ? t('area.struck') : counts}`;
}

// Draw the outlines and badges (drawBoard's overlay hook).
export function areaOverlay(st) {
  return (svg, px, py) => {
    const g = el('g', { class: 'areas', 'pointer-events': 'none' }, svg);
    const badge = (cells, label, ink, cls, words) => {
      const [x, y] = first(cells);
      const b = el('g', { class: `area-badge ${cls}`, 'data-area': label }, g);
      el('rect', { x: px(x) + CELL / 2 - 12, y: py(y) + CELL - 15, width: 24, height: 12, rx: 3, fill: '#fffdf7', stroke: ink, 'stroke-width': 1.2 }, b);
      const tx = el('text', { x: px(x) + CELL / 2, y: py(y) + CELL - 6, 'text-anchor': 'middle', 'font-size': 9, 'font-weight': 700, fill: ink }, b);
      tx.textContent = label;
      el('title', {}, b).textContent = words;
    };
    (st.open_areas || []).forEach((a, i) => {
      const ink = a.leader === null || a.leader === undefined ? '#6b6b6b' : INK[a.leader];
      el('path', { d: outline(a.cells, px, py), stroke: ink, 'stroke-width': 2.5, 'stroke-dasharray': '7 4', fill: 'none', class: 'area-outline open' }, g);
      badge(a.cells, `${letter(i)}${a.leader === null || a.leader === undefined ? '' : MARK_GLYPH[TEAM[a.leader]]}`, ink, 'open', openWords(a));
    });
    st.areas.forEach((a, i) => {
      const ink = a.winner === null ? '#6b6b6b' : INK[a.winner];
      el('path', { d: outline(a.cells, px, py), stroke: ink, 'stroke-width': 3, fill: 'none', class: 'area-outline closed' }, g);
      badge(a.cells, `${i + 1}${a.counts && !a.out ? '✓' : ''}`, ink, 'closed', closedWords(a, st.over));
    });
  };
}

// The list of areas beside the board.
export function areaList(st, open) {
  const li = (label, cls, words, at) => {
    const e = document.createElement('li');
    e.className = cls;
    const b = document.createElement('b');
    b.textContent = label;
    e.append(b, ` (${at}) ${words}`);
    return e;
  };
  const ul = document.createElement('ul');
  (st.open_areas || []).forEach((a, i) => ul.append(li(letter(i), 'area-open', openWords(a), fmt(...first(a.cells)))));
  st.areas.forEach((a, i) => ul.append(li(String(i + 1), 'area-closed', closedWords(a, st.over), fmt(...a.at))));
  const d = document.createElement('details');
  d.id = 'areas';
  d.className = 'areas-list';
  d.open = open;
  const s = document.createElement('summary');
  s.textContent = t('area.title', { open: (st.open_areas || []).length, closed: st.areas.length });
  d.append(s, ul.children.length ? ul : Object.assign(document.createElement('p'), { className: 'muted', textContent: t('area.none') }));
  return d;
}
