// "/crosswords": draw, paste or generate a grid (open or American rules), lock letters,
// bring a word list, fill it, see each entry's score, give it a title, a byline and clues,
// and download the puzzle.
import { api, h, listText, poll, pollUrl, randomSeed, s, say, sentence, showProgress } from '/static/app.js';

const $ = (sel) => document.querySelector(sel);
const formError = $('#patterns-error');
const patternsBox = $('#patterns');
const patternsStatus = $('#patterns-status');
const fillSection = $('#fill');
const fillStatus = $('#fill-status');

/** Standard numbering: a white square starting a word across or down gets the next number. */
export function numbering(rows) {
  const white = (r, c) => r >= 0 && c >= 0 && r < rows.length && c < rows[r].length && rows[r][c] !== '#';
  const numbers = new Map();
  let next = 1;
  rows.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      if (!white(r, c)) continue;
      const across = !white(r, c - 1) && white(r, c + 1);
      const down = !white(r - 1, c) && white(r + 1, c);
      if (across || down) numbers.set(`${r},${c}`, next++);
    }
  });
  return numbers;
}

const CELL = 30;

/** A grid as SVG: `#` black, `.` white, any other character a letter. */
function drawGrid(rows, { letters = false, label }) {
  const n = rows.length;
  const w = Math.max(...rows.map((r) => r.length));
  const numbers = numbering(rows);
  const svg = s('svg', { viewBox: `-1 -1 ${w * CELL + 2} ${n * CELL + 2}`, role: 'img', 'aria-label': label });
  rows.forEach((row, r) => {
    Array.from(row).forEach((ch, c) => {
      const x = c * CELL;
      const y = r * CELL;
      const black = ch === '#';
      const g = s('g', { class: 'square', 'data-row': r + 1, 'data-col': c + 1 });
      g.append(s('rect', { class: black ? 'black' : 'white', x, y, width: CELL, height: CELL }));
      const num = numbers.get(`${r},${c}`);
      if (num) g.append(s('text', { class: 'num', x: x + 2, y: y + 9 }, num));
      if (letters && !black && ch !== '.') {
        g.append(s('text', { class: 'fill-letter', x: x + CELL / 2, y: y + CELL / 2 + 8, 'text-anchor': 'middle' }, ch));
      }
      svg.append(g);
    });
  });
  return h('div', { class: 'xw' }, svg);
}

let patternsGen = 0;
let fillGen = 0;

function readForm() {
  const count = Number($('#count').value);
  const symmetry = $('#symmetry').value;
  if ($('#rules').value === 'american') return readAmerican(count, symmetry);
  const size = Number($('#size').value);
  const maxLen = Number($('#max-len').value);
  if (!Number.isInteger(size) || size < 5 || size > 21) return { field: 'size', message: 'The size must be a whole number from 5 to 21.' };
  if (symmetry === 'mirror' && size % 2 === 0) {
    return { field: 'size', message: `Mirror symmetry needs an odd size; try ${size - 1} or ${size + 1}.` };
  }
  if (!Number.isInteger(maxLen) || maxLen < 3 || maxLen > size) {
    return { field: 'max-len', message: `The longest word must be a whole number from 3 to the size (${size}).` };
  }
  if (!Number.isInteger(count) || count < 1 || count > 48) return { field: 'count', message: 'How many must be a whole number from 1 to 48.' };
  // A fresh seed each time, so that pressing Generate again shows other patterns.
  return { request: { size, max_len: maxLen, symmetry, count, seed: randomSeed() } };
}

/** An American-rules request: rows and columns, symmetry, optionally the fewest entries. */
function readAmerican(count, symmetry) {
  const rows = Number($('#pattern-rows').value);
  const cols = Number($('#pattern-cols').value);
  const minWords = $('#min-words').value.trim();
  if (!Number.isInteger(rows) || rows < 3 || rows > 31) return { field: 'pattern-rows', message: 'Rows must be a whole number from 3 to 31.' };
  if (!Number.isInteger(cols) || cols < 3 || cols > 31) return { field: 'pattern-cols', message: 'Columns must be a whole number from 3 to 31.' };
  if (!Number.isInteger(count) || count < 1 || count > 48) return { field: 'count', message: 'How many must be a whole number from 1 to 48.' };
  const request = { rules: 'american', rows, cols, symmetry, count, seed: randomSeed() };
  if (minWords !== '') {
    const n = Number(minWords);
    if (!Number.isInteger(n) || n < 1) return { field: 'min-words', message: 'The fewest entries must be a whole number, or left empty.' };
    request.min_words = n;
  }
  return { request };
}

const PATTERN_FIELDS = ['size', 'max-len', 'count', 'pattern-rows', 'pattern-cols', 'min-words'];

function markInvalid(field) {
  for (const id of PATTERN_FIELDS) $(`#${id}`).setAttribute('aria-invalid', String(id === field));
}

/** Shows the fields of the chosen rules; symmetry "none" is American only, and each rule set has its default. */
function showRules() {
  const american = $('#rules').value === 'american';
  for (const field of document.querySelectorAll('#patterns-form [data-rules]')) field.hidden = field.dataset.rules !== (american ? 'american' : 'seed');
  const none = $('#symmetry option[value="none"]');
  none.hidden = !american;
  none.disabled = !american;
  $('#symmetry').value = american ? 'rotational' : 'mirror';
}

async function makePatterns(event) {
  event.preventDefault();
  formError.textContent = '';
  markInvalid(null);
  const { request, field, message } = readForm();
  if (!request) {
    formError.textContent = message;
    markInvalid(field);
    $(`#${field}`).focus();
    return;
  }
  const gen = ++patternsGen;
  const stale = () => gen !== patternsGen;
  const button = $('#make-patterns');
  button.disabled = true;
  say(patternsStatus, '');
  patternsBox.replaceChildren();
  const progress = $('#patterns-progress');
  try {
    const queued = await api('/crosswords/patterns', { method: 'POST', json: request });
    progress.hidden = false;
    const bar = $('#patterns-progress-bar');
    const job = await poll(pollUrl(queued), { isStale: stale, onUpdate: (j) => showProgress(bar, j.progress) });
    if (!job) return;
    progress.hidden = true;
    if (job.state !== 'succeeded') {
      say(patternsStatus, `The search stopped: ${job.error || job.state}.`, 'error');
      return;
    }
    showPatterns(job.result, request);
  } catch (err) {
    if (stale()) return;
    progress.hidden = true;
    const f = { size: 'size', max_len: 'max-len', count: 'count', rows: 'pattern-rows', cols: 'pattern-cols', min_words: 'min-words' }[
      err.problem?.field
    ];
    if (f) markInvalid(f);
    say(patternsStatus, err.message, 'error');
  } finally {
    if (!stale()) button.disabled = false;
  }
}

function showPatterns({ patterns = [], total, note, reason }, request) {
  const [rows, cols] = request.rules === 'american' ? [request.rows, request.cols] : [request.size, request.size];
  const parts = [
    patterns.length === 0
      ? sentence(reason) || 'No pattern fits these rules.'
      : `${patterns.length} ${patterns.length === 1 ? 'pattern' : 'patterns'} of ${rows} × ${cols}${request.rules === 'american' ? ', American rules' : ''}.`,
  ];
  if (total !== undefined && total !== null) parts.push(`${total} exist in all.`);
  if (note) parts.push(sentence(note));
  say(patternsStatus, parts.join(' '), patterns.length ? 'ok' : 'info');
  patternsBox.replaceChildren(
    ...patterns.map((p, i) => {
      const fill = h('button', { type: 'button', class: 'secondary', 'aria-label': `Fill pattern ${i + 1}` }, 'Fill');
      fill.addEventListener('click', () => fillPattern(p, i + 1));
      const edit = h('button', { type: 'button', class: 'secondary', 'aria-label': `Edit pattern ${i + 1}` }, 'Edit');
      edit.addEventListener('click', () => editPattern(p));
      return h(
        'figure',
        { class: 'pattern', 'data-hex': p.hex },
        h('figcaption', {}, `Pattern ${i + 1}: ${p.words} words, ${p.black} black squares`),
        drawGrid(p.rows, { label: `Pattern ${i + 1}, ${p.rows.length} by ${p.rows[0].length}, ${p.black} black squares` }),
        h('div', { class: 'actions' }, fill, ' ', edit),
      );
    }),
  );
}

/** Fills a generated pattern (by its rows when it has no hex form: not square, or a side outside 5..21). */
function fillPattern(pattern, number) {
  return runFill({ pattern: pattern.hex ?? pattern.rows, seed: randomSeed() }, `Pattern ${number}`);
}

/** Queues a fill of `request`, follows it, and shows it under `title`. */
async function runFill(request, title) {
  const gen = ++fillGen;
  const stale = () => gen !== fillGen;
  fillSection.hidden = false;
  $('#fill-heading').textContent = title;
  $('#fill-view').replaceChildren();
  textsForm.hidden = true;
  filled = null;
  say(fillStatus, '');
  const progress = $('#fill-progress');
  progress.hidden = false;
  // The result sits right under "Fill my grid"; from a generated pattern below, go up to it.
  fillSection.scrollIntoView({ behavior: 'smooth', block: 'start' });
  $('#fill-heading').focus({ preventScroll: true });
  try {
    const queued = await api('/crosswords/fills', { method: 'POST', json: request });
    const url = pollUrl(queued);
    const bar = $('#fill-progress-bar');
    const job = await poll(url, { isStale: stale, onUpdate: (j) => showProgress(bar, j.progress) });
    if (!job) return;
    progress.hidden = true;
    if (job.state !== 'succeeded') {
      say(fillStatus, `No fill was found: ${job.error || job.state}.`, 'error');
      return;
    }
    showFill(job.result, title, job.links);
    if (job.result.rows) showTexts(job.result);
  } catch (err) {
    if (stale()) return;
    progress.hidden = true;
    say(fillStatus, err.message, 'error');
  }
}

function clueList(title, entries, weakest) {
  return h(
    'div',
    {},
    h('h3', {}, title),
    h(
      'ol',
      { 'data-direction': title.toLowerCase() },
      ...entries.map((e) =>
        h(
          'li',
          {
            'data-number': e.number,
            'data-row': e.row,
            'data-col': e.col,
            'data-score': e.score ?? null,
            class: e.score !== undefined && e.score === weakest ? 'weakest' : null,
          },
          h('b', {}, `${e.number}.`),
          ' ',
          e.word,
          e.score !== undefined ? h('span', { class: 'score', title: 'score' }, ` ${e.score}`) : null,
        ),
      ),
    ),
  );
}

/** The squares of an entry, 1-based. */
function entryCells(e, across) {
  return Array.from(e.word, (_, k) => (across ? [e.row, e.col + k] : [e.row + k, e.col]));
}

/**
 * The score to mark as the weakest among `entries`: their lowest, unless every scored entry
 * has it (then none is weaker than another, and null, as when none has a score).
 */
export function weakestScore(entries) {
  const scores = entries.map((e) => e.score).filter((score) => score !== undefined && score !== null);
  if (scores.length === 0) return null;
  const lowest = Math.min(...scores);
  return scores.some((score) => score !== lowest) ? lowest : null;
}

/** The sentence that sums up a fill's scores. */
function scoreSummary(words, entries, quality) {
  if (!quality || quality.min_score === undefined) return `Filled with ${words} words.`;
  const scored = entries.filter((e) => e.score !== undefined && e.score !== null).length;
  if (weakestScore(entries) === null) {
    return scored === words
      ? `Filled with ${words} words, all scoring ${quality.min_score}.`
      : `Filled with ${words} words; the ${scored} from the list all score ${quality.min_score}.`;
  }
  return `Filled with ${words} words; lowest score ${quality.min_score}, mean ${Number(quality.mean_score).toFixed(1)}.`;
}

/** A fill, or (rows null) the reason none was found: no such fill exists, or the search ran out of budget. */
function showFill({ rows, across = [], down = [], quality, reason }, title, links) {
  if (!rows) {
    say(fillStatus, sentence(reason) || 'No fill was found for this grid.', 'error');
    return;
  }
  $('#fill-heading').textContent = `${title}, filled`;
  const words = across.length + down.length;
  say(fillStatus, scoreSummary(words, [...across, ...down], quality), 'ok');
  // Marked only when some entry scores more: when all tie, none is weaker than the rest.
  const weakest = weakestScore([...across, ...down]) ?? undefined;
  const grid = drawGrid(rows, { letters: true, label: `${title} filled with words` });
  // The weakest entries' squares are shaded, so a constructor sees where to rework.
  const weak = [...across.map((e) => [e, true]), ...down.map((e) => [e, false])].filter(([e]) => weakest !== undefined && e.score === weakest);
  for (const [e, isAcross] of weak) {
    for (const [r, c] of entryCells(e, isAcross)) grid.querySelector(`.square[data-row="${r}"][data-col="${c}"]`)?.classList.add('weak');
  }
  const link = (id, href, text) => (href ? h('a', { class: 'button secondary', href, id }, text) : null);
  $('#fill-view').replaceChildren(
    grid,
    h(
      'div',
      {},
      h(
        'div',
        { class: 'links' },
        link('fill-grid-pdf', links.grid_pdf, 'Print grid (PDF)'),
        link('fill-solution-pdf', links.solution_pdf, 'Print solution (PDF)'),
        link('fill-puz', links.puz, 'Across Lite (.puz)'),
        link('fill-ipuz', links.ipuz, 'ipuz'),
      ),
      h('div', { class: 'clues' }, clueList('Across', across, weakest), clueList('Down', down, weakest)),
    ),
  );
}

// ---- Title, byline and clues -----------------------------------------------------------

const textsForm = $('#texts-form');
const textsStatus = $('#texts-status');
/** The fill shown: its rows, across and down entries. */
let filled = null;
/** Clues typed so far, by word: a word in the next fill gets its clue back. */
const clueMemory = new Map();
const TEXT_FIELDS = { title: 'xw-title', author: 'xw-author', copyright: 'xw-copyright' };

/** One input per entry, under Across and Down, prefilled with the clues given so far. */
function showTexts({ rows, across = [], down = [] }) {
  filled = { rows, across, down };
  const group = (name, dir, entries) =>
    h(
      'fieldset',
      { class: 'clue-group', 'data-direction': name.toLowerCase() },
      h('legend', {}, name),
      ...entries.map((e) => {
        const key = `${e.number}${dir}`;
        const id = `clue-${key}`;
        return h(
          'div',
          { class: 'clue-field' },
          h('label', { for: id }, h('b', {}, `${e.number}`), ' ', h('span', { class: 'visually-hidden' }, `${name}, `), e.word),
          h('input', { id, type: 'text', maxlength: 500, autocomplete: 'off', 'data-key': key, 'data-word': e.word, value: clueMemory.get(e.word) ?? '' }),
        );
      }),
    );
  $('#clue-editor').replaceChildren(group('Across', 'A', across), group('Down', 'D', down));
  say(textsStatus, '');
  // A save still running for the fill before is stale: its button is free again.
  $('#texts-save').disabled = false;
  textsForm.hidden = false;
}

textsForm.addEventListener('input', (event) => {
  const input = event.target;
  input.removeAttribute('aria-invalid');
  if (input.dataset.word) clueMemory.set(input.dataset.word, input.value);
  say(textsStatus, 'Not in the downloads yet: save them.');
});

/**
 * Puts the title, byline and clues into the downloads: the filled rows are sent again as a
 * fill whose every square is a locked letter, with the texts, so the server checks the
 * clues against the grid's entries and answers at once with the same words; its links
 * replace the downloads'.
 */
async function saveTexts(event) {
  event.preventDefault();
  if (!filled) return;
  const gen = fillGen;
  const stale = () => gen !== fillGen;
  const request = { pattern: filled.rows };
  for (const [field, id] of Object.entries(TEXT_FIELDS)) {
    const value = $(`#${id}`).value.trim();
    if (value) request[field] = value;
  }
  const clues = {};
  for (const input of textsForm.querySelectorAll('#clue-editor input')) {
    const clue = input.value.trim();
    if (clue) clues[input.dataset.key] = clue;
  }
  if (Object.keys(clues).length) request.clues = clues;
  for (const el of textsForm.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  const button = $('#texts-save');
  button.disabled = true;
  say(textsStatus, 'Saving…');
  try {
    const queued = await api('/crosswords/fills', { method: 'POST', json: request });
    const job = await poll(pollUrl(queued), { isStale: stale });
    if (!job) return;
    if (job.state !== 'succeeded' || job.result?.rows?.join('\n') !== filled.rows.join('\n')) {
      say(textsStatus, `They could not be saved: ${job.error || job.result?.reason || job.state}.`, 'error');
      return;
    }
    for (const [id, link] of [['fill-grid-pdf', 'grid_pdf'], ['fill-solution-pdf', 'solution_pdf'], ['fill-puz', 'puz'], ['fill-ipuz', 'ipuz']]) {
      $(`#${id}`)?.setAttribute('href', job.links[link]);
    }
    say(textsStatus, savedSummary(request, job.result.clues_missing ?? []), 'ok');
  } catch (err) {
    if (stale()) return;
    // The server names the field at fault: `title`, `author`, `copyright` or `clues.1A`.
    const field = err.problem?.field ?? '';
    const id = TEXT_FIELDS[field] ?? (field.startsWith('clues.') ? `clue-${field.slice(6)}` : null);
    const input = id && document.getElementById(id);
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
    say(textsStatus, err.message, 'error');
  } finally {
    if (!stale()) button.disabled = false;
  }
}

/** What the downloads now carry. */
function savedSummary(request, missing) {
  const entries = filled.across.length + filled.down.length;
  const clued = entries - missing.length;
  const parts = [request.title ? `“${request.title}”` : 'the title “Crossword”'];
  if (request.author) parts.push(`by ${request.author}`);
  const clues =
    clued === entries ? `all ${entries} clues` : `${clued} of ${entries} clues (none yet for ${listText(missing)})`;
  return `Saved: the downloads carry ${parts.join(', ')}, and ${clues}.`;
}

textsForm.addEventListener('submit', saveTexts);

// ---- The grid editor --------------------------------------------------------------------

const editor = {
  box: $('#grid-editor'),
  rows: 15,
  cols: 15,
  /** '#' a block, '.' empty, 'A'–'Z' a locked letter. */
  cells: [],
  focus: [0, 0],
  wordlist: null,
};

function blankGrid(rows, cols) {
  editor.rows = rows;
  editor.cols = cols;
  editor.cells = Array.from({ length: rows }, () => Array(cols).fill('.'));
  editor.focus = [0, 0];
}

const gridRows = () => editor.cells.map((r) => r.join(''));

/** The square paired with (r, c) under rotational symmetry. */
const partner = (r, c) => [editor.rows - 1 - r, editor.cols - 1 - c];

function renderEditor() {
  const numbers = numbering(gridRows());
  editor.box.style.setProperty('--cols', editor.cols);
  const squares = [];
  editor.cells.forEach((row, r) =>
    row.forEach((ch, c) => {
      const block = ch === '#';
      const num = numbers.get(`${r},${c}`);
      const what = block ? 'block' : ch === '.' ? 'empty' : `locked ${ch}`;
      const focused = editor.focus[0] === r && editor.focus[1] === c;
      squares.push(
        h(
          'button',
          {
            type: 'button',
            class: `sq${block ? ' block' : ''}${ch !== '.' && !block ? ' locked' : ''}`,
            role: 'gridcell',
            'data-row': r + 1,
            'data-col': c + 1,
            'aria-label': `Row ${r + 1}, column ${c + 1}: ${what}`,
            tabindex: focused ? 0 : -1,
          },
          num ? h('span', { class: 'num' }, num) : null,
          !block && ch !== '.' ? h('span', { class: 'letter' }, ch) : null,
        ),
      );
    }),
  );
  editor.box.replaceChildren(...squares);
  $('#grid-text').value = gridRows().join('\n');
  const blocks = editor.cells.flat().filter((ch) => ch === '#').length;
  const locked = editor.cells.flat().filter((ch) => /[A-Z]/.test(ch)).length;
  $('#grid-summary').textContent =
    `${editor.rows} × ${editor.cols}: ${numbers.size} numbered squares, ${blocks} blocks, ${locked} locked letters.`;
}

function squareAt(r, c) {
  return editor.box.querySelector(`.sq[data-row="${r + 1}"][data-col="${c + 1}"]`);
}

function focusSquare(r, c) {
  editor.focus = [Math.max(0, Math.min(editor.rows - 1, r)), Math.max(0, Math.min(editor.cols - 1, c))];
  renderEditor();
  squareAt(...editor.focus)?.focus();
}

function setCell(r, c, ch) {
  editor.cells[r][c] = ch;
  if ($('#grid-symmetric').checked) {
    const [pr, pc] = partner(r, c);
    // Blocks mirror; a letter's partner only stops being a block.
    if (ch === '#') editor.cells[pr][pc] = '#';
    else if (editor.cells[pr][pc] === '#') editor.cells[pr][pc] = '.';
  }
}

editor.box.addEventListener('click', (event) => {
  const sq = event.target.closest('.sq');
  if (!sq) return;
  const r = Number(sq.dataset.row) - 1;
  const c = Number(sq.dataset.col) - 1;
  setCell(r, c, editor.cells[r][c] === '#' ? '.' : '#');
  $('#grid-error').textContent = '';
  focusSquare(r, c);
});

editor.box.addEventListener('keydown', (event) => {
  const sq = event.target.closest('.sq');
  if (!sq || event.ctrlKey || event.metaKey || event.altKey) return;
  const r = Number(sq.dataset.row) - 1;
  const c = Number(sq.dataset.col) - 1;
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (moves[event.key]) {
    focusSquare(r + moves[event.key][0], c + moves[event.key][1]);
  } else if (/^[a-zA-Z]$/.test(event.key)) {
    setCell(r, c, event.key.toUpperCase());
    focusSquare(r, c + 1 < editor.cols ? c + 1 : c);
  } else if (event.key === 'Backspace' || event.key === 'Delete' || event.key === '.') {
    if (editor.cells[r][c] !== '#') editor.cells[r][c] = '.';
    focusSquare(r, event.key === 'Backspace' && c > 0 ? c - 1 : c);
  } else if (event.key === '#') {
    setCell(r, c, editor.cells[r][c] === '#' ? '.' : '#');
    focusSquare(r, c);
  } else {
    return;
  }
  event.preventDefault();
});

/** Rows of text as a grid, or an error naming the line at fault. */
export function parseGrid(text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length < 3 || lines.length > 31) return { error: `A grid has 3 to 31 rows; this text has ${lines.length}.` };
  const cols = lines[0].length;
  for (const [i, line] of lines.entries()) {
    const bad = line.match(/[^#.a-zA-Z]/);
    if (bad) return { error: `Line ${i + 1}: "${bad[0]}" is not # (a block), . (empty) or a letter.` };
    if (line.length !== cols) return { error: `Line ${i + 1} has ${line.length} squares; line 1 has ${cols}.` };
  }
  if (cols < 3 || cols > 31) return { error: `A grid has 3 to 31 columns; these rows have ${cols}.` };
  return { cells: lines.map((l) => Array.from(l.toUpperCase())) };
}

$('#grid-new').addEventListener('click', () => {
  const rows = Number($('#grid-rows').value);
  const cols = Number($('#grid-cols').value);
  if (![rows, cols].every((n) => Number.isInteger(n) && n >= 3 && n <= 31)) {
    $('#grid-error').textContent = 'Rows and columns must be whole numbers from 3 to 31.';
    return;
  }
  $('#grid-error').textContent = '';
  blankGrid(rows, cols);
  renderEditor();
});

$('#grid-load').addEventListener('click', () => {
  const { cells, error } = parseGrid($('#grid-text').value);
  $('#grid-error').textContent = error || '';
  if (!cells) return;
  loadCells(cells);
});

function loadCells(cells) {
  editor.cells = cells;
  editor.rows = cells.length;
  editor.cols = cells[0].length;
  editor.focus = [0, 0];
  $('#grid-rows').value = editor.rows;
  $('#grid-cols').value = editor.cols;
  renderEditor();
}

$('#wordlist-file').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  const status = $('#wordlist-status');
  editor.wordlist = null;
  if (!file) {
    say(status, '');
    return;
  }
  say(status, `Reading ${file.name}…`);
  try {
    const { body } = await api(`/wordlists?name=${encodeURIComponent(file.name.slice(0, 100))}`, { method: 'POST', text: file });
    editor.wordlist = body.id;
    say(status, `${file.name}: ${body.entries.toLocaleString('en')} entries, ready.`, 'ok');
  } catch (err) {
    const line = err.problem?.line ? ` (line ${err.problem.line})` : '';
    say(status, `${file.name} was not accepted${line}: ${err.message}`, 'error');
  }
});

$('#grid-fill').addEventListener('click', () => {
  const minScore = Number($('#min-score').value);
  if (!Number.isInteger(minScore) || minScore < 0 || minScore > 100) {
    $('#grid-error').textContent = 'The lowest score must be a whole number from 0 to 100.';
    $('#min-score').setAttribute('aria-invalid', 'true');
    return;
  }
  $('#min-score').removeAttribute('aria-invalid');
  $('#grid-error').textContent = '';
  const request = { pattern: gridRows(), min_score: minScore, seed: randomSeed() };
  if (editor.wordlist) request.wordlist = editor.wordlist;
  runFill(request, `Your ${editor.rows} × ${editor.cols} grid`);
});

/** A generated pattern, opened in the editor. */
function editPattern(pattern) {
  loadCells(pattern.rows.map((r) => Array.from(r)));
  $('#editor').scrollIntoView({ behavior: 'smooth', block: 'start' });
}

blankGrid(15, 15);
renderEditor();

$('#patterns-form').addEventListener('submit', makePatterns);
$('#rules').addEventListener('change', () => {
  showRules();
  formError.textContent = '';
  markInvalid(null);
});
$('#symmetry').addEventListener('change', () => {
  if (formError.textContent) formError.textContent = '';
  markInvalid(null);
});
