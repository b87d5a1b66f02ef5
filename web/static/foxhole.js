// "/foxhole": the fox-in-a-hole game, played in the browser. The state is the set of holes
// the fox could be in without having been caught; the server only draws escapes and finds
// the best strategy. Holes are 1-based on screen, 0-based in the state and the API.
import { api, h, listText, poll, pollUrl, s, say, showProgress } from '/static/app.js';

const $ = (sel) => document.querySelector(sel);
const board = $('#board');
const status = $('#foxhole-status');
const strategyStatus = $('#strategy-status');
const giveUpButton = $('#give-up');
const bestButton = $('#best');

const MAX_HOLES = 30;

/** The holes the fox can reach overnight from any hole in `from` (a line of n holes). */
function neighbours(from, n) {
  const next = new Set();
  for (const hole of from) {
    if (hole > 0) next.add(hole - 1);
    if (hole < n - 1) next.add(hole + 1);
  }
  return next;
}

/** The candidate set after inspecting `hole` on day `day` (1-based), given the day before's. */
export function nextState(previous, hole, day, n) {
  const before = day === 1 ? new Set(previous) : neighbours(previous, n);
  before.delete(hole);
  return before;
}

let game; // {n, candidates: Set, days: [{hole, candidates: number[]}], over, escape}
let generation = 0; // bumped by every new game, so strategy playback and requests stop

const sorted = (set) => [...set].sort((a, b) => a - b);
const people = (holes) => holes.map((x) => x + 1);

function holesText(holes) {
  if (holes.length === 0) return 'nowhere';
  return `${holes.length === 1 ? 'hole' : 'holes'} ${listText(people(holes))}`;
}

function newGame(n) {
  generation++;
  game = { n, candidates: new Set(Array.from({ length: n }, (_, i) => i)), days: [], over: false, escape: null };
  board.replaceChildren(
    ...Array.from({ length: n }, (_, i) =>
      h('button', { type: 'button', class: 'hole', 'data-hole': i + 1, 'aria-label': `Hole ${i + 1}`, onclick: () => inspect(i) }, i + 1),
    ),
  );
  say(status, '');
  say(strategyStatus, '');
  $('#strategy-progress').hidden = true;
  render();
}

function inspect(hole) {
  if (game.over) return;
  const day = game.days.length + 1;
  game.candidates = nextState(game.candidates, hole, day, game.n);
  const candidates = sorted(game.candidates);
  game.days.push({ hole, candidates });
  if (candidates.length === 0) {
    game.over = true;
    say(status, `You caught it! By day ${day} the fox had nowhere left to hide.`, 'ok');
  } else {
    say(status, `Day ${day}: no fox in hole ${hole + 1}. It could be in ${holesText(candidates)}.`);
  }
  render();
}

async function giveUp() {
  if (game.over || game.days.length === 0) return;
  const gen = generation;
  game.over = true;
  render();
  try {
    const { body } = await api('/foxhole/checks', {
      method: 'POST',
      json: { holes: game.n, inspections: game.days.map((d) => d.hole) },
    });
    if (gen !== generation) return;
    if (body.caught) {
      say(status, `You caught it after all! By day ${body.day} the fox had nowhere left to hide.`, 'ok');
      return;
    }
    game.escape = body.escape;
    const path = body.escape.map((x) => x + 1).join(' → ');
    say(status, `The fox got away. One way it could have gone, morning by morning: hole ${path}.`);
    render();
  } catch (err) {
    if (gen !== generation) return;
    game.over = false;
    say(status, err.message, 'error');
    render();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function bestStrategy() {
  const n = game.n;
  newGame(n);
  const gen = generation;
  const stale = () => gen !== generation;
  bestButton.disabled = true;
  try {
    const queued = await api('/foxhole/strategies', { method: 'POST', json: { holes: n } });
    const bar = $('#strategy-progress-bar');
    $('#strategy-progress').hidden = false;
    const job = await poll(pollUrl(queued), { isStale: stale, onUpdate: (j) => showProgress(bar, j.progress) });
    if (!job) return;
    $('#strategy-progress').hidden = true;
    if (job.state !== 'succeeded') {
      say(strategyStatus, `The search did not finish: ${job.error || job.state}.`, 'error');
      return;
    }
    const { inspections, days, reason } = job.result;
    if (!inspections) {
      say(strategyStatus, `There is no sure way to catch the fox here: ${reason}.`);
      return;
    }
    say(
      strategyStatus,
      `The best strategy for ${n} ${n === 1 ? 'hole' : 'holes'} takes ${days} ${days === 1 ? 'day' : 'days'}: look in ${inspections.length === 1 ? 'hole' : 'holes'} ${people(inspections).join(', ')}.`,
      'ok',
    );
    // Play it on the board, quickly enough that long strategies don't drag.
    const delay = Math.max(120, Math.min(450, 8000 / inspections.length));
    game.playing = true;
    render();
    for (const hole of inspections) {
      await sleep(delay);
      if (stale()) return;
      inspect(hole);
    }
    game.playing = false;
    render();
  } catch (err) {
    if (!stale()) {
      $('#strategy-progress').hidden = true;
      say(strategyStatus, err.message, 'error');
    }
  } finally {
    bestButton.disabled = false;
  }
}

function render() {
  const day = game.days.length;
  const last = game.days[day - 1];
  for (const button of board.children) {
    const hole = Number(button.dataset.hole) - 1;
    button.classList.toggle('candidate', game.candidates.has(hole));
    button.classList.toggle('cleared', !game.candidates.has(hole));
    button.classList.toggle('inspected', last?.hole === hole);
    button.disabled = game.over || !!game.playing;
  }
  if (game.over) {
    $('#day').textContent = `Day ${day}`;
    $('#prompt').textContent = 'Game over. Start a new game to play again.';
  } else {
    $('#day').textContent = `Day ${day + 1}`;
    $('#prompt').textContent =
      day === 0 ? 'Choose a hole to look into.' : 'The fox has moved overnight. Choose a hole to look into.';
  }
  giveUpButton.disabled = game.over || day === 0 || !!game.playing;
  renderHistory();
}

// History chart geometry (SVG user units).
const COL = 40;
const ROW = 34;
const LEFT = 62;
const TOP = 28;

function renderHistory() {
  const { n, days, escape } = game;
  $('#history-empty').hidden = days.length > 0;
  $('#log').hidden = days.length === 0;
  if (days.length === 0) {
    $('#history').replaceChildren();
    $('#log tbody').replaceChildren();
    return;
  }
  const width = LEFT + n * COL + 8;
  const height = TOP + days.length * ROW + 6;
  const cx = (hole) => LEFT + hole * COL + COL / 2;
  const cy = (d) => TOP + d * ROW + ROW / 2; // d is 0-based
  const svg = s('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    role: 'img',
    'aria-label': 'Chart of each day: where you looked and where the fox could be',
  });
  svg.style.maxWidth = `${width}px`;
  svg.style.minWidth = `${Math.min(width, LEFT + n * 26)}px`; // many holes: scroll sideways
  for (let hole = 0; hole < n; hole++) {
    svg.append(s('text', { class: 'hole-label', x: cx(hole), y: 16, 'text-anchor': 'middle' }, hole + 1));
  }
  days.forEach(({ hole, candidates }, d) => {
    const row = s('g', { class: 'day', 'data-day': d + 1 });
    row.append(s('text', { class: 'day-label', x: 4, y: cy(d) + 4 }, `Day ${d + 1}`));
    const could = new Set(candidates);
    for (let x = 0; x < n; x++) {
      row.append(s('circle', { class: could.has(x) ? 'dot candidate' : 'dot', cx: cx(x), cy: cy(d), r: 11 }));
    }
    row.append(s('circle', { class: 'look', cx: cx(hole), cy: cy(d), r: 15 }));
    svg.append(row);
  });
  if (escape && escape.length) {
    const points = escape.map((hole, d) => `${cx(hole)},${cy(d)}`).join(' ');
    svg.append(s('polyline', { class: 'escape-path', points }));
    escape.forEach((hole, d) => {
      svg.append(
        s(
          'g',
          { class: 'escape-step', 'data-escape-day': d + 1, 'data-hole': hole + 1 },
          s('title', {}, `Day ${d + 1}: the fox was in hole ${hole + 1}`),
          s('circle', { cx: cx(hole), cy: cy(d), r: 13 }),
          s('text', { x: cx(hole), y: cy(d) + 3.5, 'text-anchor': 'middle' }, 'fox'),
        ),
      );
    });
  }
  $('#history').replaceChildren(svg);

  $('#log-fox-col').hidden = !escape;
  $('#log tbody').replaceChildren(
    ...days.map(({ hole, candidates }, d) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, d + 1),
        h('td', {}, `hole ${hole + 1}`),
        h('td', {}, candidates.length ? listText(people(candidates)) : 'nowhere: caught!'),
        escape ? h('td', {}, `hole ${escape[d] + 1}`) : null,
      ),
    ),
  );
}

$('#setup').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#holes');
  const n = Number(input.value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_HOLES) {
    $('#setup-error').textContent = `The number of holes must be a whole number from 1 to ${MAX_HOLES}.`;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    return;
  }
  $('#setup-error').textContent = '';
  input.setAttribute('aria-invalid', 'false');
  newGame(n);
  board.querySelector('button')?.focus();
});
giveUpButton.addEventListener('click', giveUp);
bestButton.addEventListener('click', bestStrategy);

newGame(Number($('#holes').value) || 5);
