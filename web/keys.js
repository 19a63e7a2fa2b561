// keys.js: playing with the keyboard and hearing what happens.
//
// Every decision is reachable with Tab: the playable hand cards, the
// highlighted cells and the decision buttons; the arrow keys move between
// hand cards and between cells (to the nearest one in that direction), and
// Enter or Space plays the one in focus. Focus survives the redraw that
// follows every state message. A polite live region says what happened and
// when it is the player's turn, for screen readers.

// Make el (an SVG element) a button for the keyboard and for assistive technology.
export function activatable(el, label, fn) {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', label);
  el.addEventListener('keydown', e => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); fn(); }
  });
}

const centre = el => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
const DIRS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// Arrow keys inside container move the focus among the elements of selector:
// to the nearest one whose centre lies in that direction.
export function arrows(container, selector) {
  container.addEventListener('keydown', e => {
    const d = DIRS[e.key];
    if (!d || !e.target.matches(selector)) return;
    const [x0, y0] = centre(e.target);
    let best = null, bestScore = Infinity;
    for (const c of container.querySelectorAll(selector)) {
      if (c === e.target) continue;
      const [x, y] = centre(c), dx = x - x0, dy = y - y0;
      const along = dx * d[0] + dy * d[1], across = Math.abs(dx * d[1]) + Math.abs(dy * d[0]);
      if (along <= 1) continue;
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = c; }
    }
    if (best) { e.preventDefault(); best.focus(); }
  });
}

// What has the focus, said so that it can be found again after a redraw.
export function focusKey(root) {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  for (const attr of ['data-move', 'data-cell', 'data-card']) if (a.hasAttribute(attr)) return `[${attr}="${a.getAttribute(attr)}"]`;
  return null;
}

// Focus the element key names again, else (when the player's turn has just
// begun, and the focus is nowhere in particular) the first decision.
export function restoreFocus(root, key, turnBegins) {
  const again = key && root.querySelector(`${key}[tabindex], button${key}`);
  if (again) { again.focus({ preventScroll: true }); return; }
  const idle = !document.activeElement || document.activeElement === document.body || (key && root.contains(document.activeElement)) || key;
  if (turnBegins && idle) {
    const first = root.querySelector('.hand-card.playable, #actions button.decision, rect.legal');
    if (first) first.focus({ preventScroll: true });
  }
}

// A live region: what it is told is read out (politely) by screen readers.
export function liveRegion() {
  const r = document.createElement('div');
  r.id = 'announce';
  r.className = 'visually-hidden';
  r.setAttribute('role', 'status');
  r.setAttribute('aria-live', 'polite');
  return { el: r, say(text) { if (text) r.textContent = text; } };
}
