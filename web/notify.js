// notify.js: telling a player that it is his turn: the tab's title, an
// optional sound, and a browser notification when the tab is hidden.
//
// The sound and the notification are each switched on by the player (kept in
// localStorage); a notification also needs the browser's permission, asked
// for when it is switched on. Nothing fires for a spectator.
import { t } from './i18n.js';

const KEY = 'kontor-notify';

function load() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
}
function save(o) {
  try { localStorage.setItem(KEY, JSON.stringify(o)); } catch { /* private mode */ }
}

let audio = null;
function beep() {
  try {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    if (!audio) audio = new AC();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.12, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.25);
  } catch { /* no sound is no error */ }
}

// baseTitle: the tab's title when it is not the player's turn.
export function notifier(baseTitle) {
  const opts = load();
  let wasMine = false;
  const box = (id, key, label, onOn) => {
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.id = id;
    c.checked = !!opts[key];
    c.addEventListener('change', async () => {
      opts[key] = c.checked;
      if (c.checked && onOn) c.checked = opts[key] = await onOn();
      save(opts);
    });
    const l = document.createElement('label');
    l.append(c, ' ', label);
    return l;
  };
  const controls = document.createElement('div');
  controls.className = 'notify-controls';
  controls.append(
    box('opt-sound', 'sound', t('notify.sound'), async () => { beep(); return true; }),
    box('opt-notify', 'notify', t('notify.browser'), async () => {
      if (!('Notification' in window)) return false;
      if (Notification.permission === 'granted') return true;
      return (await Notification.requestPermission()) === 'granted';
    }));

  // mine: the player owes a decision now; hint: what to do, for the notification.
  function update(mine, hint) {
    document.title = mine ? t('title.your_turn') : baseTitle;
    if (mine && !wasMine) {
      if (opts.sound) beep();
      if (opts.notify && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
        try {
          const n = new Notification(t('notify.title'), { body: hint, tag: 'kontor-turn' });
          n.onclick = () => { window.focus(); n.close(); };
        } catch { /* a browser that refuses is no error */ }
      }
    }
    wasMine = mine;
  }
  return { controls, update };
}
