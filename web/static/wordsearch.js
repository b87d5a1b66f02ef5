// Word search: lists pasted one a line (or a pool of words), one puzzle played in the page
// (POST /wordsearches, then drag across the letters), and the book made by
// POST /wordsearches/books with progress and its PDFs. A refused list is shown next to its line.
import {
  api, coverPreview, h, showCoverPreview, placeImprint, poll, pollUrl, readImprint, s, say, sentence, showLineError, showProgress,
} from '/static/app.js';

const $ = (selector) => document.querySelector(selector);
const listsBox = $('#lists');
const poolBox = $('#pool');

const EXAMPLE = `Garden birds: robin, sparrow, blue tit, wren, magpie, starling, crow, owl, thrush, finch
Trees: oak, ash, birch, willow, maple, cedar, larch, rowan, hazel, alder, beech
In the kitchen: ladle, whisk, grater, colander, skillet, kettle, teapot, spatula, sieve
Weather: rain, snow, sleet, thunder, lightning, breeze, cloud, frost, mist, drizzle`;

const EXAMPLE_POOL = `apple, banana, cherry, grape, lemon, mango, melon, peach, pear, plum,
kiwi, lime, fig, date, guava, papaya, quince, apricot, orange, olive,
raisin, prune, berry, currant, damson, medlar, pomelo, satsuma`;

// ---- reading the form ----------------------------------------------------------------------

/** The lists, one a non-blank line: {line (1-based), title, words}. */
function parseLists(text) {
  const lists = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    const colon = raw.indexOf(':');
    const title = colon >= 0 ? raw.slice(0, colon).trim() : '';
    const words = (colon >= 0 ? raw.slice(colon + 1) : raw).split(',').map((w) => w.trim()).filter(Boolean);
    lists.push({ line: i + 1, title, words });
  });
  return lists;
}

const parsePool = (text) => text.split(/[,\n]/).map((w) => w.trim()).filter(Boolean);

const usingPool = () => document.querySelector('input[name="source"]:checked').value === 'pool';

/** {level} or {spread: [levels]} from the level menu. */
function levelChoice() {
  const value = $('#level').value;
  return value.startsWith('spread:') ? { spread: value.slice('spread:'.length).split(',') } : { level: value };
}

/** The grid members both requests share. */
function gridChoice() {
  return { rows: Number($('#rows').value), cols: Number($('#cols').value), shape: $('#shape').value };
}

function countLists() {
  const n = usingPool() ? parsePool(poolBox.value).length : parseLists(listsBox.value).length;
  const [one, many] = usingPool() ? ['word', 'words'] : ['list', 'lists'];
  $('#lists-count').textContent = n ? `${n} ${n === 1 ? one : many}` : '';
}

// ---- refusals ------------------------------------------------------------------------------

function clearErrors() {
  $('#lists-error').hidden = true;
  $('#lists-error-text').textContent = '';
  $('#lists-error-lines').replaceChildren();
  for (const id of ['#form-error', '#book-error', '#pool-error']) $(id).textContent = '';
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}


// The controls a refusal's `field` may name.
const CONTROLS = {
  rows: '#rows', cols: '#cols', shape: '#shape', level: '#level', spread: '#level', title: '#title', trim: '#trim',
  large_print: '#large_print', count: '#count', words_per_puzzle: '#words_per_puzzle',
  author: '#author', copyright: '#copyright', isbn: '#isbn',
};

/** Selects the pool's word number `index` (from 0, as parsePool counts) in its text. */
function selectPoolWord(index) {
  let k = 0;
  for (const m of poolBox.value.matchAll(/[^,\n]+/g)) {
    if (!m[0].trim()) continue;
    if (k++ === index) {
      const start = m.index + m[0].length - m[0].trimStart().length;
      poolBox.setSelectionRange(start, start + m[0].trim().length);
      return;
    }
  }
}

/**
 * Shows a 422 where it belongs. `listOf(field)` gives the lists' line a field names
 * (`words[3]` when playing, `puzzles[2].words[4]` for the book), or null; `poolIndexOf(field)`
 * the pool's word it names (`pool[7]`, or a word drawn from the pool for play), or null.
 */
function showRefusal(err, { listOf, poolIndexOf }, messageEl) {
  const field = err.problem?.field || '';
  const line = listOf(field);
  if (line) {
    showLineError(listsBox, 'lists', line, `Line ${line}: ${err.message}`);
    return;
  }
  if (/^(pool|words)\b/.test(field) && usingPool()) {
    $('#pool-error').textContent = err.message;
    poolBox.setAttribute('aria-invalid', 'true');
    poolBox.focus();
    const index = poolIndexOf(field);
    if (index !== null && index >= 0) selectPoolWord(index);
    return;
  }
  messageEl.textContent = err.message;
  const target = CONTROLS[field.replace(/^puzzles\[\d+\]\./, '')];
  if (target) {
    $(target).setAttribute('aria-invalid', 'true');
    $(target).focus();
  }
}

// ---- playing -------------------------------------------------------------------------------

const CELL = 40; // the side of a cell in the grid's own units
// The eight directions, a step each, by octant of the angle (y down).
const STEPS = [[0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1]];
let game = null; // {rows, words: [{word, key, rkey, found}], svg, marks, drag}
let playGeneration = 0;

const cellsKey = (cells) => cells.map(([r, c]) => `${r},${c}`).join(' ');

/** The words to play: the first list, or a draw from the pool. */
function playWords() {
  if (!usingPool()) return parseLists(listsBox.value)[0];
  const pool = parsePool(poolBox.value);
  const want = Math.max(3, Math.min(40, Number($('#words_per_puzzle').value) || 15, pool.length));
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return { line: null, title: '', words: pool.slice(0, want) };
}

async function play() {
  clearErrors();
  const gen = ++playGeneration;
  const list = playWords();
  if (!list || !list.words.length) {
    const box = usingPool() ? poolBox : listsBox;
    $('#form-error').textContent = usingPool() ? 'Give the pool’s words first.' : 'Give at least one list of words.';
    box.setAttribute('aria-invalid', 'true');
    box.focus();
    return;
  }
  const choice = levelChoice();
  const request = { words: list.words, ...gridChoice(), level: choice.level || choice.spread[0] };
  const part = $('#play-part');
  const status = $('#play-status');
  part.hidden = false;
  $('#game').hidden = true;
  say(status, '');
  $('#play-progress').hidden = false;
  showProgress($('#play-progress-bar'), null);
  $('#play').disabled = true;
  try {
    const queued = await api('/wordsearches', { method: 'POST', json: request });
    const done = await poll(pollUrl(queued), { interval: 200, isStale: () => gen !== playGeneration });
    if (!done) return;
    if (done.state !== 'succeeded') {
      say(status, `No puzzle was made: ${done.error || done.state}.`, 'error');
      return;
    }
    startGame(list.title, done.result);
  } catch (err) {
    if (gen !== playGeneration) return;
    part.hidden = true;
    const listOf = (field) => (list.line && /^words(\[\d+\])?$/.test(field) ? list.line : null);
    const poolIndexOf = (field) => {
      const m = /^words\[(\d+)\]$/.exec(field);
      return m ? parsePool(poolBox.value).indexOf(list.words[Number(m[1])]) : null;
    };
    showRefusal(err, { listOf, poolIndexOf }, $('#form-error'));
  } finally {
    if (gen === playGeneration) {
      $('#play-progress').hidden = true;
      $('#play').disabled = false;
    }
  }
}

function startGame(title, puzzle) {
  const rows = puzzle.rows;
  const height = rows.length;
  const width = Math.max(...rows.map((r) => r.length));
  const marks = s('g', { class: 'marks' });
  const dragLayer = s('g', { class: 'drag' });
  const letters = s('g', { class: 'letters' });
  const squares = s('g', { class: 'squares' });
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const ch = rows[r][c] ?? ' ';
      if (ch === ' ') continue;
      squares.append(s('rect', { x: c * CELL, y: r * CELL, width: CELL, height: CELL }));
      letters.append(s('text', {
        class: 'cell', x: (c + 0.5) * CELL, y: (r + 0.5) * CELL, 'data-row': r, 'data-col': c,
      }, ch));
    }
  }
  const svg = s('svg', {
    viewBox: `0 0 ${width * CELL} ${height * CELL}`, role: 'img', 'aria-labelledby': 'play-heading play-hint',
    'data-rows': height, 'data-cols': width,
  }, squares, marks, dragLayer, letters);
  const cursorMark = s('rect', { class: 'cursor', width: CELL - 4, height: CELL - 4, rx: 6 });
  svg.append(cursorMark);
  svg.setAttribute('tabindex', '0');
  const words = puzzle.words.map((w) => ({
    word: w.word, cells: w.cells, key: cellsKey(w.cells), rkey: cellsKey([...w.cells].reverse()), found: false,
  }));
  game = { rows, height, width, svg, marks, dragLayer, words, drag: null, cursorMark, cursor: [0, 0] };
  drawCursor();
  $('#ws-board').replaceChildren(svg);
  const sorted = [...words].sort((a, b) => a.word.localeCompare(b.word));
  $('#ws-words').replaceChildren(...sorted.map((w) => {
    w.item = h('li', { 'data-word': w.word }, w.word);
    return w.item;
  }));
  $('#play-heading').textContent = title ? `Play: ${title}` : 'Play';
  say($('#play-status'), '');
  showFoundCount();
  $('#game').hidden = false;
  svg.addEventListener('pointerdown', dragStart);
  svg.addEventListener('pointermove', dragMove);
  svg.addEventListener('pointerup', dragEnd);
  svg.addEventListener('pointercancel', dragCancel);
  svg.addEventListener('keydown', onKey);
  $('#play-part').scrollIntoView({ block: 'start' });
}

/** The pointer's place in cell units (fractional, maybe outside the grid). */
function pointAt(event) {
  const m = game.svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
  return { y: p.y / CELL, x: p.x / CELL };
}

const inGrid = (r, c) => r >= 0 && c >= 0 && r < game.height && c < game.width;
const hasCell = (r, c) => inGrid(r, c) && (game.rows[r][c] ?? ' ') !== ' ';

/** The straight run of cells from `start` toward the pointer, snapped to one of 8 directions. */
function runToward(start, point) {
  const dy = point.y - (start[0] + 0.5);
  const dx = point.x - (start[1] + 0.5);
  if (Math.hypot(dx, dy) < 0.5) return [start];
  const octant = ((Math.round(Math.atan2(dy, dx) / (Math.PI / 4)) % 8) + 8) % 8;
  const [ur, uc] = STEPS[octant];
  let k = Math.max(0, Math.round((dy * ur + dx * uc) / (ur * ur + uc * uc)));
  while (k > 0 && !inGrid(start[0] + k * ur, start[1] + k * uc)) k--;
  return Array.from({ length: k + 1 }, (_, j) => [start[0] + j * ur, start[1] + j * uc]);
}

/** A rounded band over a run of cells, as a found word is looped. */
function band(cells, cls) {
  const [r0, c0] = cells[0];
  const [r1, c1] = cells[cells.length - 1];
  return s('line', {
    class: cls, x1: (c0 + 0.5) * CELL, y1: (r0 + 0.5) * CELL, x2: (c1 + 0.5) * CELL, y2: (r1 + 0.5) * CELL,
  });
}

function drawDrag() {
  game.dragLayer.replaceChildren(...(game.drag ? [band(game.drag.cells, 'drag-band')] : []));
}

function dragStart(event) {
  if (!game || game.drag || event.button > 0) return;
  const p = pointAt(event);
  if (!p) return;
  const start = [Math.floor(p.y), Math.floor(p.x)];
  if (!hasCell(...start)) return;
  event.preventDefault();
  game.svg.setPointerCapture?.(event.pointerId);
  game.drag = { pointer: event.pointerId, start, cells: [start] };
  drawDrag();
}

function dragMove(event) {
  if (!game?.drag || event.pointerId !== game.drag.pointer) return;
  event.preventDefault();
  const p = pointAt(event);
  if (!p) return;
  game.drag.cells = runToward(game.drag.start, p);
  drawDrag();
}

function dragEnd(event) {
  if (!game?.drag || event.pointerId !== game.drag.pointer) return;
  const p = pointAt(event);
  if (p) game.drag.cells = runToward(game.drag.start, p);
  finishDrag();
}

/** A run's end: the word whose cells it covers, either end first, is found; else nothing. */
function finishDrag() {
  const key = cellsKey(game.drag.cells);
  game.drag = null;
  drawDrag();
  const word = game.words.find((w) => !w.found && (w.key === key || w.rkey === key));
  if (word) markFound(word);
}

// Keys, for those without a pointer: the arrows move a cursor, Enter or Space takes the
// first letter and then the last, Escape lets go.
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function onKey(event) {
  if (!game) return;
  const keyed = game.drag?.pointer === 'keys';
  if (ARROWS[event.key]) {
    event.preventDefault();
    const [r, c] = game.cursor;
    const [dr, dc] = ARROWS[event.key];
    if (inGrid(r + dr, c + dc)) game.cursor = [r + dr, c + dc];
    if (keyed) game.drag.cells = runToward(game.drag.start, { y: game.cursor[0] + 0.5, x: game.cursor[1] + 0.5 });
    drawCursor();
    drawDrag();
  } else if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    if (keyed) finishDrag();
    else if (!game.drag && hasCell(...game.cursor)) {
      game.drag = { pointer: 'keys', start: game.cursor, cells: [game.cursor] };
      drawDrag();
    }
  } else if (event.key === 'Escape' && keyed) {
    game.drag = null;
    drawDrag();
  }
}

function drawCursor() {
  const [r, c] = game.cursor;
  game.cursorMark.setAttribute('x', c * CELL + 2);
  game.cursorMark.setAttribute('y', r * CELL + 2);
}

function dragCancel(event) {
  if (!game?.drag || event.pointerId !== game.drag.pointer) return;
  game.drag = null;
  drawDrag();
}

function markFound(word) {
  word.found = true;
  game.marks.append(band(word.cells, 'found-band'));
  for (const [r, c] of word.cells) {
    game.svg.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`)?.classList.add('found');
  }
  word.item.classList.add('found');
  word.item.append(h('span', { class: 'visually-hidden' }, ' (found)'));
  showFoundCount();
  if (game.words.every((w) => w.found)) {
    say($('#play-status'), `All found: well done! You found all ${game.words.length} words.`, 'ok');
  }
}

function showFoundCount() {
  const found = game.words.filter((w) => w.found).length;
  $('#found-count').textContent = `${found} of ${game.words.length} found`;
}

// ---- the book ------------------------------------------------------------------------------

let bookJob = null; // the job being made, for Cancel

async function makeBook(event) {
  event.preventDefault();
  clearErrors();
  const status = $('#book-status');
  const links = $('#book-links');
  const bar = $('#book-progress');
  say(status, '');
  links.replaceChildren();
  const body = {
    title: $('#title').value.trim() || 'Word Search',
    trim: $('#trim').value,
    large_print: $('#large_print').checked,
    ...levelChoice(),
    ...gridChoice(),
  };
  const { imprint, field, message } = readImprint();
  if (field) {
    $('#book-error').textContent = message;
    $(CONTROLS[field]).setAttribute('aria-invalid', 'true');
    $(CONTROLS[field]).focus();
    return;
  }
  Object.assign(body, imprint);
  let lists = [];
  if (usingPool()) {
    body.pool = parsePool(poolBox.value);
    body.count = Number($('#count').value);
    body.words_per_puzzle = Number($('#words_per_puzzle').value);
    if (!body.pool.length) {
      $('#pool-error').textContent = 'Give the pool’s words first.';
      poolBox.setAttribute('aria-invalid', 'true');
      poolBox.focus();
      return;
    }
  } else {
    lists = parseLists(listsBox.value);
    if (!lists.length) {
      $('#book-error').textContent = 'Give at least one list of words, one a line.';
      listsBox.setAttribute('aria-invalid', 'true');
      listsBox.focus();
      return;
    }
    body.puzzles = lists.map(({ title, words }) => (title ? { title, words } : { words }));
  }
  $('#make-book').disabled = true;
  const show = (job) => {
    bar.hidden = false;
    showProgress($('#book-progress-bar'), job?.progress);
    const p = job?.progress;
    $('#book-progress-text').textContent = p?.total ? `Making: ${p.done} of ${p.total} puzzles` : 'Queued…';
  };
  try {
    const queued = await api('/wordsearches/books', { method: 'POST', json: body });
    const url = pollUrl(queued);
    bookJob = url.split('/').pop();
    show(queued.body);
    const done = await poll(url, { onUpdate: show });
    bar.hidden = true;
    if (done.state !== 'succeeded') {
      const why = done.state === 'cancelled' ? 'it was cancelled' : done.error || done.state;
      say(status, `No book was made: ${String(why).replace(/[.\s]+$/, '')}.`, 'error');
      return;
    }
    const r = done.result || {};
    const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    say(status, `Your book is ready: ${plural(r.puzzles.length, 'puzzle', 'puzzles')} on ${plural(r.pages, 'page', 'pages')}.`, 'ok');
    links.replaceChildren(
      h('a', { class: 'button', href: done.links?.book_pdf || `${url}/book.pdf`, id: 'book-pdf' }, 'Download the book (PDF)'),
      h('a', { class: 'button secondary', href: done.links?.cover_pdf || `${url}/cover.pdf`, id: 'cover-pdf' },
        'Download the cover (PDF)'),
    );
    showCoverPreview(links, await coverPreview(done.links?.cover_pdf || `${url}/cover.pdf`));
  } catch (err) {
    bar.hidden = true;
    const listOf = (field) => {
      const m = /^puzzles\[(\d+)\]/.exec(field);
      return m && lists[Number(m[1])] ? lists[Number(m[1])].line : null;
    };
    const poolIndexOf = (field) => {
      const m = /^pool\[(\d+)\]$/.exec(field);
      return m ? Number(m[1]) : null;
    };
    showRefusal(err, { listOf, poolIndexOf }, $('#book-error'));
  } finally {
    bookJob = null;
    $('#make-book').disabled = false;
  }
}

async function cancelBook() {
  if (!bookJob) return;
  try {
    await api(`/jobs/${bookJob}`, { method: 'DELETE' });
  } catch (err) {
    say($('#book-status'), sentence(err.message), 'error');
  }
}

// ---- wiring --------------------------------------------------------------------------------

function showSource() {
  const pool = usingPool();
  $('#lists-part').hidden = pool;
  $('#pool-part').hidden = !pool;
  $('#play').textContent = pool ? 'Play a puzzle from the pool' : 'Play the first puzzle';
  clearErrors();
  countLists();
}

placeImprint($('#imprint'));
$('#wordsearch-form').addEventListener('submit', makeBook);
$('#play').addEventListener('click', play);
$('#cancel-book').addEventListener('click', cancelBook);
for (const radio of document.querySelectorAll('input[name="source"]')) radio.addEventListener('change', showSource);
for (const box of [listsBox, poolBox]) {
  box.addEventListener('input', () => {
    clearErrors();
    countLists();
  });
}
$('#load-example').addEventListener('click', () => {
  if (usingPool()) poolBox.value = EXAMPLE_POOL;
  else listsBox.value = EXAMPLE;
  clearErrors();
  countLists();
});
showSource();
