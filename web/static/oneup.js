// "/oneup": draw, play, solve and generate One Up puzzles (with hints), and make books of them.
import { api, coverPreview, h, showCoverPreview, placeImprint, poll, pollUrl, readImprint, s, say, sentence, showProgress } from '/static/app.js';

const $ = (sel) => document.querySelector(sel);
const textarea = $('#puzzle-text');
const textError = $('#puzzle-error');
const status = $('#oneup-status');
const boardBox = $('#oneup-board');
const extra = $('#oneup-extra');
const progressRow = $('#oneup-progress');

// The puzzle of 7 July 2024, in the text format.

/**
 * A lenient reading of the text format, only for drawing while typing: {rows, cols, clues}
 * or null. The server's parser is the judge and names the faulty line when Solve is pressed.
 * rows[r][c] is cell (r, c)'s row-region label, cols[r][c] its column-region label.
 */
export function readPuzzle(text) {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.trim().split(/\s+/)[0] || '');
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && !lines[i]) i++;
  };
  const block = (n) => {
    skipBlank();
    const out = lines.slice(i, i + n);
    i += n;
    return out.length === n && out.every((l) => Array.from(l).length === n) ? out : null;
  };
  skipBlank();
  const n = Array.from(lines[i] || '').length;
  if (n < 2 || n > 12) return null;
  const rows = block(n);
  const cols = rows && block(n);
  if (!cols) return null;
  skipBlank();
  const count = Number(lines[i++]);
  const clues = [];
  const all = text.split(/\r?\n/);
  for (let k = 0; Number.isInteger(count) && k < count && i < all.length; k++) {
    skipBlank();
    const [row, col, digit] = (all[i++] || '').trim().split(/\s+/).slice(0, 3).map(Number);
    if (![row, col, digit].every(Number.isInteger) || row < 1 || col < 1 || row > n || col > n) break;
    clues.push({ row, col, digit });
  }
  return { rows, cols, clues };
}

const CELL = 48;
const PAD = 3;

/**
 * The grid as SVG: walls between regions, clue digits, and the solution if given; else the
 * person's own digits (`play.entries`, keyed "row,col"), the selected cell and a hint's cells.
 */
function drawBoard({ rows, cols, clues = [] }, solution = null, play = null) {
  const n = rows.length;
  const size = n * CELL + 2 * PAD;
  const at = (r, c) => [PAD + c * CELL, PAD + r * CELL];
  const clueAt = new Map(clues.map((k) => [`${k.row},${k.col}`, k.digit]));
  const svg = s('svg', {
    viewBox: `0 0 ${size} ${size}`,
    width: size,
    role: play ? 'application' : 'img',
    'aria-label': `${n} by ${n} One Up grid${solution ? ', solved' : ''} with ${clues.length} clues`,
  });
  if (play) svg.setAttribute('tabindex', '0');
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [x, y] = at(r, c);
      const key = `${r + 1},${c + 1}`;
      const clue = clueAt.get(key);
      const entry = play?.entries.get(key);
      const digit = clue ?? (solution ? solution[r]?.[c] : entry ?? '');
      const classes = ['cell'];
      if (clue !== undefined) classes.push('clue');
      if (play?.hinted?.has(key)) classes.push('hinted');
      if (play?.placed === key) classes.push('placed');
      if (play?.selected === key) classes.push('selected');
      svg.append(
        s(
          'g',
          { class: classes.join(' '), 'data-row': r + 1, 'data-col': c + 1 },
          s('rect', { x, y, width: CELL, height: CELL }),
          s('text', { x: x + CELL / 2, y: y + CELL / 2 + 8, 'text-anchor': 'middle' }, digit ?? ''),
        ),
      );
    }
  }
  const line = (x1, y1, x2, y2, cls) => svg.append(s('line', { class: cls, x1, y1, x2, y2 }));
  for (let k = 1; k < n; k++) {
    line(PAD + k * CELL, PAD, PAD + k * CELL, PAD + n * CELL, 'grid-line');
    line(PAD, PAD + k * CELL, PAD + n * CELL, PAD + k * CELL, 'grid-line');
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [x, y] = at(r, c);
      // A row region ends where the next cell along the row has another row label…
      if (c + 1 < n && rows[r][c] !== rows[r][c + 1]) line(x + CELL, y, x + CELL, y + CELL, 'wall');
      // …and a column region where the next cell down has another column label.
      if (r + 1 < n && cols[r][c] !== cols[r + 1][c]) line(x, y + CELL, x + CELL, y + CELL, 'wall');
    }
  }
  svg.append(s('rect', { class: 'wall', x: PAD, y: PAD, width: n * CELL, height: n * CELL, fill: 'none' }));
  return svg;
}

let shown = null; // the puzzle drawn now: {rows, cols, clues}
let shownSolution = null; // the solution drawn over it, if any
let generation = 0; // bumped by every solve or generate, so a stale poll stops
// The person's play: their digits by "row,col", the selected cell, the last hint's cells.
const play = { entries: new Map(), selected: null, hinted: new Set(), placed: null };
const hintBox = $('#oneup-hint');

/** Draws the board again as it is played; `focus` keeps the keyboard on it. */
function drawPlay(focus = false) {
  if (!shown) return;
  boardBox.replaceChildren(drawBoard(shown, shownSolution, shownSolution ? null : play));
  if (focus) boardBox.querySelector('svg')?.focus();
  $('#hint').disabled = !!shownSolution;
  $('#clear-entries').disabled = !!shownSolution || play.entries.size === 0;
}

function clearHint() {
  play.hinted = new Set();
  play.placed = null;
  hintBox.replaceChildren();
  hintBox.classList.remove('error');
}

/** A new puzzle (or none): the person's digits and hints start over. */
function resetPlay() {
  play.entries = new Map();
  play.selected = null;
  clearHint();
}

function redraw(solution = null) {
  const before = shown && JSON.stringify([shown.rows, shown.cols, shown.clues]);
  shown = readPuzzle(textarea.value);
  shownSolution = solution;
  if (!shown || JSON.stringify([shown.rows, shown.cols, shown.clues]) !== before) resetPlay();
  if (shown) {
    drawPlay();
  } else if (solution) {
    // The server read it even though the preview could not: show the digits without walls.
    const n = solution.length;
    const blank = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => `${r}:${c}`));
    boardBox.replaceChildren(drawBoard({ rows: blank, cols: blank }, solution));
  } else {
    boardBox.replaceChildren(h('p', { class: 'hint' }, 'The grid appears here when the text describes a puzzle.'));
    $('#hint').disabled = true;
    $('#clear-entries').disabled = true;
  }
  $('#oneup-solution-text').textContent = solution
    ? `Solution, row by row: ${solution.map((r, i) => `row ${i + 1}: ${Array.from(r).join(' ')}`).join('; ')}.`
    : '';
}

function textProblem(message) {
  textError.textContent = message;
  textarea.setAttribute('aria-invalid', message ? 'true' : 'false');
}

/** Puts the caret on line `n` (1-based) of the textarea and selects it. */
function selectLine(n) {
  const lines = textarea.value.split('\n');
  if (n < 1 || n > lines.length) return;
  const start = lines.slice(0, n - 1).reduce((a, l) => a + l.length + 1, 0);
  textarea.focus();
  textarea.setSelectionRange(start, start + lines[n - 1].length);
}

function statsList(stats) {
  if (!stats || typeof stats !== 'object') return null;
  // Lists (the techniques a puzzle needs) read as words.
  const entries = Object.entries(stats).filter(([, v]) => v === null || typeof v !== 'object' || Array.isArray(v));
  if (!entries.length) return null;
  const show = (v) => (Array.isArray(v) ? v.map((x) => String(x).replace(/-/g, ' ')).join(', ') : String(v));
  return h('dl', { class: 'stats' }, ...entries.flatMap(([k, v]) => [h('dt', {}, k.replace(/_/g, ' ')), h('dd', {}, show(v))]));
}

function working(label, body) {
  progressRow.hidden = false;
  showProgress($('#oneup-progress-bar'), body?.progress);
  $('#oneup-progress-text').textContent = label;
}

function setBusy(busy) {
  $('#solve').disabled = busy;
  $('#generate').disabled = busy;
}

/** The grid as the hints endpoint reads it: a string a row, "." for an empty cell. */
function gridRows() {
  const n = shown.rows.length;
  return Array.from({ length: n }, (_, r) =>
    Array.from({ length: n }, (_, c) => play.entries.get(`${r + 1},${c + 1}`) ?? '.').join(''),
  );
}

async function askHint() {
  if (!shown) return;
  clearHint();
  $('#hint').disabled = true;
  try {
    const { body } = await api('/oneup/hints', { method: 'POST', json: { puzzle: textarea.value, grid: gridRows() } });
    play.hinted = new Set(body.cells.map((c) => `${c.row},${c.col}`));
    play.placed = body.place ? `${body.place.row},${body.place.col}` : null;
    const parts = [h('p', { id: 'hint-text' }, sentence(body.text))];
    if (body.steps.length > 1) {
      const first = body.steps.slice(0, -1).map((step) => h('li', {}, sentence(step.text)));
      parts.unshift(h('p', {}, 'First rule out:'), h('ol', {}, ...first), h('p', {}, 'Then:'));
    }
    if (body.place) {
      const fill = h('button', { type: 'button', class: 'secondary', id: 'use-hint' }, 'Fill it in');
      fill.addEventListener('click', () => {
        play.entries.set(`${body.place.row},${body.place.col}`, String(body.place.digit));
        clearHint();
        drawPlay(true);
      });
      parts.push(fill);
    }
    hintBox.replaceChildren(...parts);
  } catch (err) {
    hintBox.classList.add('error');
    hintBox.replaceChildren(h('p', { id: 'hint-text' }, err.message));
  } finally {
    drawPlay();
  }
}

/** Clicking selects a cell to type in; clue cells cannot be changed. */
boardBox.addEventListener('click', (event) => {
  const cell = event.target.closest?.('.cell');
  if (!cell || shownSolution || !shown) return;
  play.selected = `${cell.dataset.row},${cell.dataset.col}`;
  drawPlay(true);
});

boardBox.addEventListener('keydown', (event) => {
  if (!shown || shownSolution) return;
  const n = shown.rows.length;
  const [r, c] = (play.selected || '1,1').split(',').map(Number);
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    const [dr, dc] = moves[event.key];
    const nr = Math.min(n, Math.max(1, r + (play.selected ? dr : 0)));
    const nc = Math.min(n, Math.max(1, c + (play.selected ? dc : 0)));
    play.selected = `${nr},${nc}`;
  } else if (!play.selected) {
    return;
  } else if (shown.clues.some((k) => k.row === r && k.col === c)) {
    if (!/^[0-9]$|^(Backspace|Delete)$/.test(event.key)) return;
    say(status, 'That cell holds a clue; it cannot be changed.', 'info');
  } else if (/^[1-9]$/.test(event.key) && Number(event.key) <= n) {
    play.entries.set(play.selected, event.key);
    clearHint();
  } else if (['Backspace', 'Delete', '0', '.', ' '].includes(event.key)) {
    play.entries.delete(play.selected);
    clearHint();
  } else {
    return;
  }
  event.preventDefault();
  drawPlay(true);
});

$('#hint').addEventListener('click', askHint);
$('#clear-entries').addEventListener('click', () => {
  resetPlay();
  drawPlay();
});

async function solve(event) {
  event.preventDefault();
  const gen = ++generation;
  const stale = () => gen !== generation;
  textProblem('');
  say(status, '');
  extra.replaceChildren();
  redraw();
  if (!textarea.value.trim()) {
    textProblem('Paste a puzzle first, or load the example.');
    textarea.focus();
    return;
  }
  setBusy(true);
  try {
    const queued = await api('/oneup/solves?method=exact', { method: 'POST', text: textarea.value });
    working('Solving…', queued.body);
    const done = await poll(pollUrl(queued), { isStale: stale, onUpdate: (b) => working('Solving…', b) });
    if (!done) return;
    progressRow.hidden = true;
    if (done.state !== 'succeeded') {
      say(status, `The solver stopped: ${done.error || done.reason || done.state}.`, 'error');
      return;
    }
    const result = done.result;
    if (!result.solution) {
      redraw();
      say(status, result.reason ? `No solution: ${result.reason}.` : 'This puzzle has no solution.', 'error');
    } else {
      redraw(result.solution);
      const verdict =
        result.unique === true
          ? 'Solved. The solution is unique.'
          : result.unique === false
            ? 'Solved, but the solution is not unique: this is one of several.'
            : `Solved.${result.reason ? ` ${result.reason}.` : ''}`;
      say(status, verdict, 'ok');
      status.dataset.unique = String(result.unique);
    }
    const stats = statsList(result.stats);
    if (stats) extra.replaceChildren(h('h3', {}, 'Solver statistics'), stats);
  } catch (err) {
    if (stale()) return;
    progressRow.hidden = true;
    if (err.status === 400 || err.status === 422) {
      textProblem(err.message);
      const line = err.problem?.line ?? err.message.match(/\bline (\d+)/i)?.[1];
      if (line) selectLine(Number(line));
    } else {
      say(status, err.message, 'error');
    }
  } finally {
    if (!stale()) setBusy(false);
  }
}

async function generate(event) {
  event.preventDefault();
  const gen = ++generation;
  const stale = () => gen !== generation;
  const size = Number($('#size').value);
  const request = { size, clue_symmetry: $('#clue-symmetry').value };
  if ($('#level').value) request.level = $('#level').value;
  textProblem('');
  say(status, '');
  extra.replaceChildren();
  setBusy(true);
  try {
    const queued = await api('/oneup/puzzles', { method: 'POST', json: request });
    const url = pollUrl(queued);
    working('Generating…', queued.body);
    const done = await poll(url, { isStale: stale, onUpdate: (b) => working('Generating…', b) });
    if (!done) return;
    progressRow.hidden = true;
    if (done.state !== 'succeeded' || !done.result?.puzzle) {
      say(status, `No puzzle was made: ${done.error || done.result?.reason || done.state}.`, 'error');
      return;
    }
    const { text, json } = done.result.puzzle;
    textarea.value = text.endsWith('\n') ? text : `${text}\n`;
    redraw();
    if (!shown) {
      // The preview's lenient reader should always read the server's text; if not, draw the JSON.
      shown = { rows: json.row_regions, cols: json.col_regions, clues: json.clues };
      drawPlay();
    }
    const level = done.result.difficulty?.level;
    say(status, `A new ${level ? `${level} ` : ''}${size} × ${size} puzzle with ${json.clues.length} clues.`, 'ok');
    const solution = done.result.solution;
    const reveal = h('button', { type: 'button', class: 'secondary' }, 'Show the solution');
    reveal.addEventListener('click', () => {
      redraw(solution);
      reveal.disabled = true;
    });
    const difficulty = statsList(done.result.difficulty);
    extra.replaceChildren(
      h(
        'div',
        { class: 'links' },
        h('a', { class: 'button secondary', href: done.links.puzzle_pdf }, 'Print the puzzle (PDF)'),
        h('a', { class: 'button secondary', href: done.links.solution_pdf }, 'Print the solution (PDF)'),
        solution ? reveal : null,
      ),
      difficulty ? h('h3', {}, 'Difficulty') : null,
      difficulty,
    );
  } catch (err) {
    if (stale()) return;
    progressRow.hidden = true;
    say(status, err.message, 'error');
  } finally {
    if (!stale()) setBusy(false);
  }
}

const LEVELS = ['easy', 'medium', 'hard', 'expert'];

async function makeBook(event) {
  event.preventDefault();
  const bookError = $('#book-error');
  const bookStatus = $('#book-status');
  const links = $('#book-links');
  const bar = $('#book-progress');
  bookError.textContent = '';
  say(bookStatus, '');
  links.replaceChildren();
  const levels = {};
  for (const level of LEVELS) {
    const input = $(`#book-${level}`);
    input.removeAttribute('aria-invalid');
    const n = Number(input.value || 0);
    if (!Number.isInteger(n) || n < 0) {
      bookError.textContent = `${sentence(level)} puzzles: give a whole number, 0 or more.`;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    if (n > 0) levels[level] = n;
  }
  const request = {
    levels,
    size: Number($('#book-size').value),
    trim: $('#book-trim').value,
    title: $('#book-title').value,
  };
  for (const el of $('#book-form').querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  const { imprint, field, message } = readImprint('book-');
  if (field) {
    bookError.textContent = message;
    $(`#book-${field}`).setAttribute('aria-invalid', 'true');
    $(`#book-${field}`).focus();
    return;
  }
  Object.assign(request, imprint);
  const count = Object.values(levels).reduce((a, b) => a + b, 0);
  $('#make-book').disabled = true;
  const show = (body) => {
    bar.hidden = false;
    showProgress($('#book-progress-bar'), body?.progress);
    const p = body?.progress;
    $('#book-progress-text').textContent = p?.total ? `Generating: ${p.done} of ${p.total} puzzles` : 'Queued…';
  };
  try {
    const queued = await api('/oneup/books', { method: 'POST', json: request });
    show(queued.body);
    const done = await poll(pollUrl(queued), { onUpdate: show });
    bar.hidden = true;
    if (done.state !== 'succeeded') {
      say(bookStatus, `No book was made: ${done.error || done.state}.`, 'error');
      return;
    }
    say(bookStatus, `Your book of ${count} puzzles is ready.`, 'ok');
    links.replaceChildren(
      h('a', { class: 'button', href: done.links.book_pdf, id: 'book-pdf' }, 'Download the book (PDF)'),
      h('a', { class: 'button secondary', href: done.links.cover_pdf, id: 'cover-pdf' }, 'Download the cover (PDF)'),
    );
    showCoverPreview(links, await coverPreview(done.links.cover_pdf));
  } catch (err) {
    bar.hidden = true;
    bookError.textContent = err.message;
    const field = err.problem?.field || '';
    const named = ['title', 'author', 'copyright', 'isbn'].includes(field) ? $(`#book-${field}`) : null;
    const target = field.startsWith('levels.') ? $(`#book-${field.slice(7)}`) : named;
    if (target) {
      target.setAttribute('aria-invalid', 'true');
      target.focus();
    }
  } finally {
    $('#make-book').disabled = false;
  }
}

let typing;
textarea.addEventListener('input', () => {
  clearTimeout(typing);
  typing = setTimeout(() => {
    textProblem('');
    redraw();
  }, 250);
});
$('#load-example').addEventListener('click', async () => {
  generation++;
  // The server ships the example the engine is tested with, so the two never drift apart.
  const response = await fetch('/static/oneup-example.txt');
  if (!response.ok) {
    say(status, 'The example could not be loaded; try again.', 'error');
    return;
  }
  textarea.value = await response.text();
  textProblem('');
  say(status, '');
  extra.replaceChildren();
  setBusy(false);
  progressRow.hidden = true;
  redraw();
});
$('#solve-form').addEventListener('submit', solve);
placeImprint($('#book-imprint'), 'book-');
$('#book-form').addEventListener('submit', makeBook);
$('#generate-form').addEventListener('submit', generate);

redraw();
