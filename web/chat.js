// chat.js: the chat panel of a game: the table's channel, and in the game for
// four the team's, with whether the rulebook lets the partners confer now.
//
// The server decides everything (who may write, when the team channel is
// open, who reads what: docs/server.md "Chat"); the panel shows its answers.
// Every text of a message, a name included, goes into the page with
// textContent only, never as HTML: what another player typed is data.
import { t } from './i18n.js';

const MAX = 200; // characters, as the server counts them

function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// send(object): sends a message on the game's socket. seat: ours (null: a
// spectator). four: the game for four (a team channel). nameOf(seat): a
// seat's name as the page shows it.
export function chatPanel({ send, seat, four, nameOf }) {
  const box = node('section', 'chat');
  box.id = 'chat';
  box.setAttribute('aria-label', t('chat.title'));
  const head = node('h3', '', t('chat.title'));
  const tabs = node('div', 'chat-tabs');
  tabs.setAttribute('role', 'tablist');
  const lists = {}, tabButtons = {}, unread = { table: 0, team: 0 };
  const channels = four && seat !== null ? ['table', 'team'] : ['table'];
  let current = 'table', teamOpen = false;
  const teamState = node('span', 'team-state');
  teamState.id = 'team-chat-state';
  for (const ch of channels) {
    const b = node('button', `chat-tab chat-tab-${ch}`);
    b.id = `chat-tab-${ch}`;
    b.type = 'button';
    b.setAttribute('role', 'tab');
    b.addEventListener('click', () => show(ch));
    tabButtons[ch] = b;
    tabs.append(b);
    const ol = node('ol', 'chat-log');
    ol.id = `chat-${ch}`;
    ol.setAttribute('aria-live', 'polite');
    ol.setAttribute('aria-label', t(`chat.${ch}`));
    b.setAttribute('aria-controls', ol.id);
    ol.tabIndex = 0;
    lists[ch] = ol;
  }
  const error = node('div', 'error chat-error');
  error.id = 'chat-error';
  const input = node('input');
  input.id = 'chat-input';
  input.type = 'text';
  input.maxLength = MAX;
  input.autocomplete = 'off';
  input.setAttribute('aria-label', t('chat.say'));
  const sendButton = node('button', '', t('chat.send'));
  sendButton.id = 'chat-send';
  sendButton.type = 'submit';
  const form = node('form', 'chat-form');
  form.append(input, sendButton);
  form.addEventListener('submit', e => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.textContent = '';
    send({ type: 'chat', channel: current, text });
    input.value = '';
  });
  box.append(head, tabs);
  if (channels.includes('team')) box.append(teamState);
  box.append(...Object.values(lists), error);
  if (seat !== null) box.append(form);
  else box.append(node('p', 'muted', t('chat.spectator')));

  function labels() {
    for (const ch of channels) {
      const b = tabButtons[ch];
      b.textContent = t(`chat.${ch}`) + (unread[ch] ? ` (${unread[ch]})` : '');
      b.setAttribute('aria-selected', String(ch === current));
      b.classList.toggle('active', ch === current);
    }
    if (channels.includes('team')) {
      teamState.textContent = t(teamOpen ? 'chat.team_open' : 'chat.team_closed');
      teamState.classList.toggle('open', teamOpen);
      teamState.hidden = current !== 'team';
      teamState.dataset.open = String(teamOpen);
    }
    // the team's channel takes words only while it is open
    const closed = current === 'team' && !teamOpen;
    input.disabled = closed;
    sendButton.disabled = closed;
    input.placeholder = closed ? t('chat.team_closed') : t('chat.placeholder');
  }
  function show(ch) {
    current = ch;
    unread[ch] = 0;
    for (const c of channels) lists[c].hidden = c !== ch;
    labels();
  }

  function add(m, quiet) {
    const ch = m.channel === 'team' ? 'team' : 'table';
    const ol = lists[ch];
    if (!ol) return; // (a team message reaches only its team: never here)
    const li = node('li', `chat-msg chat-${ch}${m.seat === seat ? ' mine' : ''}`);
    const who = node('span', 'who', (typeof m.seat === 'number' ? nameOf(m.seat) : m.name || '') + (m.player ? ` (${m.player})` : ''));
    li.append(who, node('span', 'sep', ': '), node('span', 'text', m.text));
    li.dataset.seq = m.seq;
    ol.append(li);
    ol.scrollTop = ol.scrollHeight;
    if (ch !== current && !quiet) unread[ch]++;
    labels();
  }

  show('table');
  return {
    el: box,
    add: m => add(m, false),
    history(msgs) { for (const c of channels) lists[c].replaceChildren(); for (const m of msgs || []) add(m, true); },
    // the team channel's state from each state message ("team_chat")
    state(st) { if (st && st.team_chat !== undefined && st.team_chat !== teamOpen) { teamOpen = st.team_chat; labels(); } },
    // a refusal of the server that concerns the chat; true when it was one
    error(m) {
      const chatCodes = ['chat_empty', 'chat_too_long', 'chat_control', 'chat_utf8', 'chat_rate', 'team_chat_closed', 'no_team'];
      if (!chatCodes.includes(m.code) && !(m.code === 'spectator' && /chat/.test(m.error || ''))) return false;
      error.textContent = m.code === 'chat_rate' ? t('chat.rate', { s: m.retry_after || 1 }) : m.code === 'team_chat_closed' ? t('chat.team_closed') : m.error;
      return true;
    },
  };
}
