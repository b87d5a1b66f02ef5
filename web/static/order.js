// "/order": order a book, watch it print, then offer its PDFs and viewer.
import { api, poll, showProgress, say } from '/static/app.js';
import { groupSerial } from '/static/serial.js';
import { bookFailure, bookLinks } from '/static/books.js';

const $ = (sel) => document.querySelector(sel);
const form = $('#order');
const button = $('#print');
const formError = $('#order-error');
const section = $('#order-result');
const heading = $('#order-heading');
const status = $('#order-status');
const bar = $('#book-progress');
const barText = $('#book-progress-text');
const done = $('#order-done');

const FIELDS = [
  { name: 'pages', label: 'Pages', min: 1, max: 1000 },
  { name: 'rows', label: 'Rows per page', min: 3, max: 64 },
  { name: 'cols', label: 'Letters per row', min: 3, max: 64 },
];

function markInvalid(name) {
  for (const f of FIELDS) $(`#${f.name}`).setAttribute('aria-invalid', String(f.name === name));
}

/** The order as JSON, or an error message naming the field at fault. */
function readOrder() {
  const order = {};
  for (const f of FIELDS) {
    const raw = $(`#${f.name}`).value.trim();
    const n = Number(raw);
    if (raw === '' || !Number.isInteger(n) || n < f.min || n > f.max) {
      return { field: f.name, message: `${f.label} must be a whole number from ${f.min} to ${f.max}.` };
    }
    order[f.name] = n;
  }
  return { order };
}

function showBook(book) {
  showProgress(bar, book.progress, book.state === 'succeeded');
  const { done: d = 0, total = 0 } = book.progress || {};
  barText.textContent =
    book.state === 'succeeded' ? 'Done' : total > 0 ? `${Math.round((100 * d) / total)}%` : 'Waiting for the press…';
}

async function order(event) {
  event.preventDefault();
  formError.textContent = '';
  markInvalid(null);
  const { order: body, field, message } = readOrder();
  if (!body) {
    formError.textContent = message;
    markInvalid(field);
    $(`#${field}`).focus();
    return;
  }
  button.disabled = true;
  section.hidden = true;
  try {
    const answer = await api('/books', { method: 'POST', json: body });
    const serial = answer.body.serial;
    const url = answer.location || `/books/${serial}`;
    section.hidden = false;
    done.hidden = true;
    heading.textContent = `Printing book ${groupSerial(serial)}…`;
    say(status, `${body.pages} page${body.pages === 1 ? '' : 's'} of ${body.rows} × ${body.cols} letters.`);
    showBook(answer.body);
    const book = await poll(url, { onUpdate: showBook });
    if (book.state === 'succeeded') {
      heading.textContent = 'Your book is ready';
      say(status, '');
      const links = bookLinks(serial);
      $('#order-serial').textContent = groupSerial(serial);
      $('#link-book').href = links.book;
      $('#link-answer').href = links.answer;
      $('#link-viewer').href = links.viewer;
      $('#link-find').href = links.find;
      done.hidden = false;
    } else {
      heading.textContent = 'The book was not printed';
      say(status, await bookFailure(book), 'error');
    }
  } catch (err) {
    const f = err.problem?.field;
    if (FIELDS.some((x) => x.name === f)) markInvalid(f);
    if (section.hidden) formError.textContent = err.message;
    else say(status, err.message, 'error');
  } finally {
    button.disabled = false;
  }
}

form.addEventListener('submit', order);
