// "/crosswords": generate crossword patterns and fill one with words.
import { api, h, poll, pollUrl, randomSeed, s, say, sentence, showProgress } from '/static/app.js';

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
  const size = Number($('#size').value);
  const maxLen = Number($('#max-len').value);
  const count = Number($('#count').value);
  const symmetry = $('#symmetry').value;
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

function markInvalid(field) {
  for (const id of ['size', 'max-len', 'count']) $(`#${id}`).setAttribute('aria-invalid', String(id === field));
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
    const f = { size: 'size', max_len: 'max-len', count: 'count' }[err.problem?.field];
    if (f) markInvalid(f);
    say(patternsStatus, err.message, 'error');
  } finally {
    if (!stale()) button.disabled = false;
  }
}

function showPatterns({ patterns = [], total, note, reason }, request) {
  const parts = [
    patterns.length === 0
      ? sentence(reason) || 'No pattern fits these rules.'
      : `${patterns.length} ${patterns.length === 1 ? 'pattern' : 'patterns'} of ${request.size} × ${request.size}.`,
  ];
  if (total !== undefined && total !== null) parts.push(`${total} exist in all.`);
  if (note) parts.push(sentence(note));
  say(patternsStatus, parts.join(' '), patterns.length ? 'ok' : 'info');
  patternsBox.replaceChildren(
    ...patterns.map((p, i) => {
      const fill = h('button', { type: 'button', class: 'secondary', 'aria-label': `Fill pattern ${i + 1}` }, 'Fill');
      fill.addEventListener('click', () => fillPattern(p, i + 1));
      return h(
        'figure',
        { class: 'pattern', 'data-hex': p.hex },
        h('figcaption', {}, `Pattern ${i + 1}: ${p.words} words, ${p.black} black squares`),
        drawGrid(p.rows, { label: `Pattern ${i + 1}, ${p.rows.length} by ${p.rows.length}, ${p.black} black squares` }),
        h('div', { class: 'actions' }, fill),
      );
    }),
  );
}

async function fillPattern(pattern, number) {
  const gen = ++fillGen;
  const stale = () => gen !== fillGen;
  fillSection.hidden = false;
  $('#fill-heading').textContent = `Pattern ${number}`;
  $('#fill-view').replaceChildren();
  say(fillStatus, '');
  const progress = $('#fill-progress');
  progress.hidden = false;
  fillSection.scrollIntoView({ behavior: 'smooth', block: 'start' });
  try {
    const queued = await api('/crosswords/fills', { method: 'POST', json: { pattern: pattern.hex, seed: randomSeed() } });
    const url = pollUrl(queued);
    const bar = $('#fill-progress-bar');
    const job = await poll(url, { isStale: stale, onUpdate: (j) => showProgress(bar, j.progress) });
    if (!job) return;
    progress.hidden = true;
    if (job.state !== 'succeeded') {
      say(fillStatus, `No fill was found: ${job.error || job.state}.`, 'error');
      return;
    }
    showFill(job.result, number, job.links);
  } catch (err) {
    if (stale()) return;
    progress.hidden = true;
    say(fillStatus, err.message, 'error');
  }
}

function clueList(title, entries) {
  return h(
    'div',
    {},
    h('h3', {}, title),
    h(
      'ol',
      { 'data-direction': title.toLowerCase() },
      ...entries.map((e) =>
        h('li', { 'data-number': e.number, 'data-row': e.row, 'data-col': e.col }, h('b', {}, `${e.number}.`), ' ', e.word),
      ),
    ),
  );
}

/** A fill, or (rows null) the reason none was found: no such fill exists, or the search ran out of budget. */
function showFill({ rows, across = [], down = [], reason }, number, links) {
  if (!rows) {
    say(fillStatus, sentence(reason) || 'No fill was found for this pattern.', 'error');
    return;
  }
  $('#fill-heading').textContent = `Pattern ${number}, filled`;
  say(fillStatus, `Filled with ${across.length + down.length} words.`, 'ok');
  $('#fill-view').replaceChildren(
    drawGrid(rows, { letters: true, label: `Pattern ${number} filled with words` }),
    h(
      'div',
      {},
      h(
        'div',
        { class: 'links' },
        h('a', { class: 'button secondary', href: links.grid_pdf, id: 'fill-grid-pdf' }, 'Print grid (PDF)'),
        h('a', { class: 'button secondary', href: links.solution_pdf, id: 'fill-solution-pdf' }, 'Print solution (PDF)'),
      ),
      h('div', { class: 'clues' }, clueList('Across', across), clueList('Down', down)),
    ),
  );
}

$('#patterns-form').addEventListener('submit', makePatterns);
$('#symmetry').addEventListener('change', () => {
  if (formError.textContent) formError.textContent = '';
  markInvalid(null);
});
