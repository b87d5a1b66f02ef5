// "/order": order a book, watch it print, then offer its PDFs and viewer.
import { api, apiKey, setApiKey, poll, showProgress, say, h, coverPreview, IMPRINT_FIELDS, placeImprint, readImprint } from '/static/app.js';
import { groupSerial } from '/static/serial.js';
import { bookFailure, bookLinks, whereIs } from '/static/books.js';

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
  { name: 'copies', label: 'Copies', min: 1, max: 10000 },
];

// Fields the server may name in a refusal, besides the numbers.
const OTHER_FIELDS = ['word', 'letters', 'shape', 'trim', 'title', 'lookup_url', 'paper'];

// Readers reach the server where the publisher does, unless that is this machine: the
// lookup address starts as this site's find page, and a loopback one is pointed out.
const lookupInput = $('#lookup_url');
const LOOPBACK = /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i;
lookupInput.value = `${location.origin}/`;
function checkLookup() {
  let host = '';
  try {
    host = new URL(lookupInput.value.trim()).hostname;
  } catch {
    // Not an address (yet): the order's check says so.
  }
  const local = LOOPBACK.test(host);
  $('#lookup_url-hint').textContent = local
    ? 'this address names this computer: readers of the printed book cannot reach it. Give your public address.'
    : 'where readers look their answer up: printed with the serial and as a QR code (empty: none)';
  $('#lookup_url-hint').classList.toggle('warning', local);
}
lookupInput.addEventListener('input', checkLookup);
checkLookup();

placeImprint($('#imprint'));
OTHER_FIELDS.push(...IMPRINT_FIELDS.map((f) => f.name));

const wordInput = $('#word');
const titleInput = $('#title');
const shapeSelect = $('#shape');
const maskField = $('#mask-field');

/** "Find the Cat" for CAT, as the server titles a book whose order names none. */
const defaultTitle = (word) => `Find the ${word.charAt(0).toUpperCase()}${word.slice(1).toLowerCase()}`;

// The title follows the word until it is edited by hand.
let titleEdited = false;
titleInput.addEventListener('input', () => {
  titleEdited = true;
});
wordInput.addEventListener('input', () => {
  const word = wordInput.value.trim();
  if (!titleEdited && /^[A-Za-z]{2,8}$/.test(word)) titleInput.value = defaultTitle(word);
});

// A shape of one's own is drawn as text; its lines set the page's size.
function showShape() {
  const own = shapeSelect.value === 'mask';
  maskField.hidden = !own;
  for (const name of ['rows', 'cols']) {
    $(`#${name}`).disabled = own;
    $(`#${name}-hint`).textContent = own ? 'from your shape' : '3 to 64';
  }
}
shapeSelect.addEventListener('change', showShape);
showShape();

/** The drawn shape's rows, without trailing blank lines. */
function maskRows() {
  const lines = $('#mask').value.replace(/\r/g, '').split('\n');
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  return lines;
}

function markInvalid(name) {
  const own = shapeSelect.value === 'mask';
  for (const f of [...FIELDS.map((x) => x.name), ...OTHER_FIELDS, 'mask']) {
    // A refused shape of one's own is the drawing's fault.
    const at = f === 'mask' ? own && name === 'shape' : f === name && !(f === 'shape' && own);
    $(`#${f}`).setAttribute('aria-invalid', String(at));
  }
}

/** The element to focus for a refusal of `field`. */
const fieldInput = (field) => (field === 'shape' && shapeSelect.value === 'mask' ? $('#mask') : $(`#${field}`));

/** The order as JSON, or an error message naming the field at fault. */
function readOrder() {
  const order = {};
  order.word = wordInput.value.trim().toUpperCase();
  if (!/^[A-Z]{2,8}$/.test(order.word)) {
    return { field: 'word', message: 'Word must be 2 to 8 letters A to Z.' };
  }
  const letters = $('#letters').value.trim().toUpperCase();
  if (!/^[A-Z]{0,8}$/.test(letters)) {
    return { field: 'letters', message: 'Letters must be up to 8 letters A to Z (or empty for the word’s own).' };
  }
  if (letters) order.letters = letters;
  const own = shapeSelect.value === 'mask';
  order.shape = own ? maskRows() : shapeSelect.value;
  for (const f of FIELDS) {
    if (own && (f.name === 'rows' || f.name === 'cols')) continue;
    const raw = $(`#${f.name}`).value.trim();
    const n = Number(raw);
    if (raw === '' || !Number.isInteger(n) || n < f.min || n > f.max) {
      return { field: f.name, message: `${f.label} must be a whole number from ${f.min} to ${f.max}.` };
    }
    order[f.name] = n;
  }
  order.trim = $('#trim').value;
  order.title = $('#title').value.trim();
  if (order.title === '' || order.title.length > 60 || !/^[ -~]*$/.test(order.title)) {
    return { field: 'title', message: 'Title must be 1 to 60 letters, digits or punctuation (plain ASCII).' };
  }
  order.lookup_url = lookupInput.value.trim();
  if (order.lookup_url !== '' && (!/^https?:\/\/[!-~]+$/.test(order.lookup_url) || order.lookup_url.length > 200)) {
    return { field: 'lookup_url', message: 'Lookup address must be an http:// or https:// address (or empty for none).' };
  }
  order.paper = $('#paper').value;
  const { imprint, field, message } = readImprint();
  if (field) return { field, message };
  return { order: { ...order, ...imprint } };
}

const run = {
  section: $('#run-result'),
  heading: $('#run-heading'),
  status: $('#run-status'),
  bar: $('#run-progress'),
  barText: $('#run-progress-text'),
  done: $('#run-done'),
};

function showRun(r) {
  showProgress(run.bar, { done: r.done, total: r.copies }, r.state === 'succeeded');
  run.barText.textContent = `${r.done} of ${r.copies} copies printed`;
}

/** Several copies: a print run, followed until every copy is printed. */
async function orderRun(body) {
  const answer = await api('/printruns', { method: 'POST', json: body });
  const url = answer.location || answer.body.links.self;
  run.section.hidden = false;
  run.done.hidden = true;
  run.heading.textContent = `Printing ${body.copies} copies…`;
  say(run.status, `${describe(body)}, trim ${body.trim}, ${body.paper} paper; every copy a different book.`);
  showRun(answer.body);
  const r = await poll(url, { onUpdate: showRun });
  if (r.state !== 'succeeded') {
    run.heading.textContent = 'The run was not printed';
    say(run.status, `${r.failed} of ${r.copies} copies failed to print.`, 'error');
    return;
  }
  run.heading.textContent = 'Your print run is ready';
  say(run.status, '');
  $('#link-archive').href = r.links.archive;
  $('#link-manifest').href = r.links.manifest_csv;
  $('#link-manifest-json').href = r.links.manifest_json;
  const list = $('#run-copies');
  list.replaceChildren(
    ...r.books.slice(0, 100).map((b) => {
      const links = bookLinks(b.serial);
      return h('li', {}, h('a', { href: links.find, translate: 'no' }, groupSerial(b.serial)));
    }),
  );
  $('#run-more').textContent = r.copies > 100 ? `The first 100 of ${r.copies} copies; the manifest lists them all.` : '';
  run.done.hidden = false;
}

/** What an order prints, in words: "3 heart-shaped pages of 16 × 16 letters; one CAT". */
function describe(body) {
  const size = Array.isArray(body.shape)
    ? `${body.shape.length} × ${Math.max(...body.shape.map((l) => l.length))}`
    : `${body.rows} × ${body.cols}`;
  const kind = body.shape === 'rectangle' ? '' : Array.isArray(body.shape) ? 'shaped ' : `${body.shape}-shaped `;
  return `${body.pages} ${kind}page${body.pages === 1 ? '' : 's'} of ${size} letters; one ${body.word}`;
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
    fieldInput(field).focus();
    return;
  }
  if (!keyField.hidden) setApiKey(keyInput.value.trim());
  keyInput.removeAttribute('aria-invalid');
  button.disabled = true;
  section.hidden = true;
  run.section.hidden = true;
  try {
    if (body.copies > 1) {
      await orderRun(body);
      return;
    }
    const paper = body.paper;
    delete body.copies;
    delete body.paper;
    const answer = await api('/books', { method: 'POST', json: body });
    const serial = answer.body.serial;
    const url = answer.location || `/books/${serial}`;
    section.hidden = false;
    done.hidden = true;
    heading.textContent = `Printing book ${groupSerial(serial)}…`;
    say(status, `${describe(body)}.`);
    showBook(answer.body);
    const book = await poll(url, { onUpdate: showBook });
    if (book.state === 'succeeded') {
      heading.textContent = 'Your book is ready';
      say(status, '');
      const links = bookLinks(serial, paper);
      $('#order-serial').textContent = groupSerial(serial);
      $('#link-book').href = links.book;
      $('#link-cover').href = links.cover;
      $('#link-answer').href = links.answer;
      $('#link-viewer').href = links.viewer;
      $('#link-find').href = links.find;
      $('#link-find').textContent = whereIs(book.word);
      done.hidden = false;
      $('#cover-preview').replaceChildren(...[await coverPreview(links.cover)].filter(Boolean));
    } else {
      heading.textContent = 'The book was not printed';
      say(status, await bookFailure(book), 'error');
    }
  } catch (err) {
    if (err.status === 401) {
      section.hidden = true;
      run.section.hidden = true;
      askForKey(
        apiKey()
          ? 'That API key was not accepted. Check it and try again.'
          : 'This service needs a publisher\'s API key to print a book. Enter yours and print again.',
      );
      return;
    }
    const f = err.problem?.field;
    if (FIELDS.some((x) => x.name === f) || OTHER_FIELDS.includes(f)) markInvalid(f);
    if (!run.section.hidden) say(run.status, err.message, 'error');
    else if (section.hidden) formError.textContent = err.message;
    else say(status, err.message, 'error');
  } finally {
    button.disabled = false;
  }
}

// With a key, the book PDF and a run's files are the publisher's alone: fetch them with it.
async function keyedDownload(event) {
  const key = apiKey();
  if (!key) return;
  event.preventDefault();
  const link = event.currentTarget;
  const res = await fetch(link.href, { headers: { Authorization: `Bearer ${key}` } }).catch(() => null);
  if (!res || !res.ok) {
    say(link.closest('#run-result') ? run.status : status, 'The file could not be downloaded. Try again in a moment.', 'error');
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = link.href.split('/').slice(-2).join('-');
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
for (const link of [$('#link-book'), $('#link-cover'), ...document.querySelectorAll('a[data-keyed]')]) {
  link.addEventListener('click', keyedDownload);
}

form.addEventListener('submit', order);
