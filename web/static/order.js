// "/order": order a book, watch it print, then offer its PDFs and viewer.
import { api, apiKey, setApiKey, poll, showProgress, say } from '/static/app.js';
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
const keyField = $('#key-field');
const keyInput = $('#api-key');

// A key given earlier in this tab is shown (and used) again.
if (apiKey()) {
  keyField.hidden = false;
  keyInput.value = apiKey();
}

/** Asks for a key: the service refused the order without one (or the one given). */
function askForKey(message) {
  keyField.hidden = false;
  keyInput.setAttribute('aria-invalid', 'true');
  formError.textContent = message;
  keyInput.focus();
}

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
  if (!keyField.hidden) setApiKey(keyInput.value.trim());
  keyInput.removeAttribute('aria-invalid');
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
    if (err.status === 401) {
      section.hidden = true;
      askForKey(
        apiKey()
          ? 'That API key was not accepted. Check it and try again.'
          : 'This service needs a publisher\'s API key to print a book. Enter yours and print again.',
      );
      return;
    }
    const f = err.problem?.field;
    if (FIELDS.some((x) => x.name === f)) markInvalid(f);
    if (section.hidden) formError.textContent = err.message;
    else say(status, err.message, 'error');
  } finally {
    button.disabled = false;
  }
}

// With a key, the book PDF is the publisher's alone: fetch it with the key.
$('#link-book').addEventListener('click', async (event) => {
  const key = apiKey();
  if (!key) return;
  event.preventDefault();
  const link = event.currentTarget;
  const res = await fetch(link.href, { headers: { Authorization: `Bearer ${key}` } }).catch(() => null);
  if (!res || !res.ok) {
    say(status, 'The book PDF could not be downloaded. Try again in a moment.', 'error');
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = link.href.split('/').slice(-2).join('-');
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
});

form.addEventListener('submit', order);
