// reference.js: the always-visible rules reference of the game screen: the
// goods cycle, taxes, cranes, scoring, the ship when the game has one, and
// the variant's own rules, in the page's language, with a link to the rules.
import { t, tOr, getLang } from './i18n.js';

function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
  return e;
}

// st: the first state of the game (its variant, whether it has a ship, its seats).
export function reference(st) {
  const good = i => h('span', { class: `good good-${i}` }, t(`good.${i}`));
  const items = [
    h('li', { class: 'ref-cycle' }, h('b', {}, t('ref.cycle')), ' ', good(1), ' › ', good(2), ' › ', good(0), ' › ', good(1)),
    h('li', {}, t('ref.scoring')),
    h('li', {}, t(st.nseats === 4 ? 'ref.taxes4' : 'ref.taxes')),
    h('li', {}, t('ref.cranes')),
    h('li', { class: 'ref-colours' }, t('ref.colours')),
    st.board && st.board.ship ? h('li', {}, t('ref.ship')) : null,
    h('li', { class: 'ref-variant' }, h('b', {}, tOr(`variant.${st.variant}.name`, st.variant)), ': ', tOr(`variant.${st.variant}.about`, '')),
  ];
  return h('details', { class: 'reference', id: 'reference', open: true },
    h('summary', {}, t('ref.title')),
    h('ul', {}, items),
    h('a', { href: `rules.html#${getLang()}`, target: '_blank', id: 'rules-from-game' }, t('ref.all_rules')));
}
