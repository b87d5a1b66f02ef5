// "/": look a book's answer up by its serial number.
import { api, poll, showProgress, say } from '/static/app.js';
import { parseSerial } from '/static/serial.js';
import { letterPage } from '/static/letters.js';
import { bookFailure } from '/static/books.js';

const $ = (sel) => document.querySelector(sel);
const form = $('#lookup');
const input = $('#serial');
const fieldError = $('#serial-error');
const result = $('#result');
const status = $('#lookup-status');
const progressRow = $('#lookup-progress');
const bar = $('#lookup-progress-bar');
const barText = $('#lookup-progress-text');
const answer = $('#answer');

// Bumped by every lookup so that a slower, older one stops instead of overwriting it.
let generation = 0;
// What the reveal button shows: the place of the latest lookup's answer.
let revealing = null;

function fieldProblem(message) {
  fieldError.textContent = message;
  input.setAttribute('aria-invalid', message ? 'true' : 'false');
}

function reset() {
  fieldProblem('');
  say(status, '');
  progressRow.hidden = true;
  answer.hidden = true;
  revealing = null;
  $('#answer-page').replaceChildren();
}

function showBookProgress(book) {
  progressRow.hidden = false;
  showProgress(bar, book.progress);
  const { done = 0, total = 0 } = book.progress || {};
  barText.textContent = total > 0 ? `${Math.round((100 * done) / total)}% printed` : 'waiting for the press…';
}

async function lookup(text) {
  const gen = ++generation;
  const stale = () => gen !== generation;
  reset();
  const parsed = parseSerial(text);
  if (!parsed.ok) {
    fieldProblem(parsed.message);
    input.focus();
    return;
  }
  const serial = parsed.serial;
  input.value = parsed.grouped;
  history.replaceState(null, '', `/?serial=${serial}`);
  result.setAttribute('aria-busy', 'true');
  try {
    let book = (await api(`/books/${serial}`)).body;
    if (book.state !== 'succeeded') {
      say(status, `Book ${parsed.grouped} is still being printed; its answer will appear here when it is done.`);
      showBookProgress(book);
      book = await poll(`/books/${serial}`, { onUpdate: showBookProgress, isStale: stale });
      if (!book) return;
      progressRow.hidden = true;
    }
    if (book.state !== 'succeeded') {
      say(status, await bookFailure(book), 'error');
      return;
    }
    const fox = (await api(`/books/${serial}/answer`)).body;
    const page = (await api(`/books/${serial}/pages/${fox.page}`)).body;
    if (stale()) return;
    say(status, '');
    showAnswer(serial, fox, page, book);
  } catch (err) {
    if (stale()) return;
    progressRow.hidden = true;
    if (err.status === 404) {
      fieldProblem("We don't know that serial number.");
    } else {
      say(status, err.message, 'error');
    }
  } finally {
    if (!stale()) result.setAttribute('aria-busy', 'false');
  }
}

/** "The fox" in a Find the Fox book, "The word CAT" in a Find the Cat book. */
const subject = (answer) => (answer.word === 'FOX' ? 'The fox' : `The word ${answer.word}`);

/**
 * The word's page as the printed book numbers it: "page 21 (puzzle 17)" in a book whose
 * puzzles are headed with their own numbers, "page 17" in books footed with them.
 */
const onPage = (answer) =>
  answer.printed_page && answer.printed_page !== answer.page
    ? `page ${answer.printed_page} (puzzle ${answer.page})`
    : `page ${answer.page}`;

/** Step one: only the page, so a reader can still hunt for the word there. */
function showAnswer(serial, fox, page, book) {
  const text = $('#answer-text');
  text.textContent = `${subject(fox)} is on ${onPage(fox)}.`;
  Object.assign(text.dataset, { page: fox.page });
  $('#answer-pdf').href = `/books/${serial}/answer.pdf`;
  $('#answer-viewer').href = `/books/${serial}/view?page=${fox.page}`;
  // Only those who may turn its pages are offered to browse the book (its publisher, or
  // everyone on a service without keys): the server leaves the pages link out for others.
  $('#answer-viewer').hidden = !book.links.pages;
  $('#answer-place').hidden = true;
  $('#answer-page').replaceChildren();
  $('#reveal-row').hidden = false;
  revealing = () => revealPlace(fox, page);
  answer.hidden = false;
  // On a narrow screen, bring the answer into view.
  if (text.getBoundingClientRect().top > window.innerHeight - 80) text.scrollIntoView({ block: 'start' });
}

/** Step two, on request: the place in words, and the page drawn with the word outlined. */
function revealPlace(fox, page) {
  const text = $('#answer-text');
  text.textContent = `${subject(fox)} is on ${onPage(fox)}, row ${fox.row}, column ${fox.col}, reading ${fox.direction}.`;
  Object.assign(text.dataset, { row: fox.row, col: fox.col, direction: fox.direction, word: fox.word });
  const box = $('#answer-page');
  box.replaceChildren(letterPage(page.rows, { page: fox.page, fox: fox.cells, word: fox.word }));
  $('#reveal-row').hidden = true;
  $('#answer-place').hidden = false;
  text.focus?.();
  // Scroll a wide page to the fox.
  const first = box.querySelector('.fox');
  if (first && box.scrollWidth > box.clientWidth) {
    const cell = first.getBoundingClientRect();
    const frame = box.getBoundingClientRect();
    box.scrollLeft += cell.left - frame.left - frame.width / 2;
  }
}

$('#reveal').addEventListener('click', () => revealing?.());

form.addEventListener('submit', (event) => {
  event.preventDefault();
  lookup(input.value);
});

input.addEventListener('input', () => {
  if (fieldError.textContent) fieldProblem('');
});

// /?serial=… (linked from the order page) looks the answer up at once.
const preset = new URLSearchParams(location.search).get('serial');
if (preset) {
  input.value = preset;
  lookup(preset);
}
