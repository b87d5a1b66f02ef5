// "/books/{serial}/view": one page of a printed book at a time.
import { api, poll, showProgress, say } from '/static/app.js';
import { parseSerial, groupSerial } from '/static/serial.js';
import { letterPage } from '/static/letters.js';
import { bookFailure, bookLinks, whereIs } from '/static/books.js';

const $ = (sel) => document.querySelector(sel);
const status = $('#view-status');
const progressRow = $('#view-progress');
const viewer = $('#viewer');
const pageInput = $('#page-number');

let serial = null;
let pages = 0;
let current = 0;
let loading = 0; // bumped per page load so a slow answer cannot replace a newer page

const STILL_PRINTING = 'This book is still printing; its pages will appear here when it is done.';

function showBookProgress(book) {
  progressRow.hidden = false;
  showProgress($('#view-progress-bar'), book.progress);
  const { done = 0, total = 0 } = book.progress || {};
  $('#view-progress-text').textContent = total > 0 ? `${Math.round((100 * done) / total)}% printed` : '';
}

/** Waits until the book is printed; false (with a message shown) if it never will be. */
async function untilPrinted(book) {
  if (book.state !== 'succeeded') {
    say(status, STILL_PRINTING);
    showBookProgress(book);
    book = await poll(`/books/${serial}`, { onUpdate: showBookProgress });
    progressRow.hidden = true;
  }
  if (book.state !== 'succeeded') {
    say(status, await bookFailure(book), 'error');
    return null;
  }
  say(status, '');
  return book;
}

async function showPage(n) {
  const token = ++loading;
  n = Math.min(Math.max(1, n), pages);
  try {
    const page = (await api(`/books/${serial}/pages/${n}`)).body;
    if (token !== loading) return;
    current = n;
    $('#page').replaceChildren(letterPage(page.rows, { page: n }));
    pageInput.value = n;
    $('#prev').disabled = n <= 1;
    $('#next').disabled = n >= pages;
    $('#page-label').textContent = `Page ${n} of ${pages}`;
    history.replaceState(null, '', `/books/${serial}/view?page=${n}`);
    say(status, '');
  } catch (err) {
    if (token !== loading) return;
    say(status, err.status === 409 ? STILL_PRINTING : err.message, 'error');
  }
}

async function start() {
  const match = location.pathname.match(/^\/books\/([^/]+)\/view\/?$/);
  const parsed = parseSerial(match ? decodeURIComponent(match[1]) : '');
  if (!parsed.ok) {
    $('#view-title').textContent = 'Book not found';
    say(status, `This address does not name a book. ${parsed.message}`, 'error');
    return;
  }
  serial = parsed.serial;
  document.title = `Book ${parsed.grouped} · puzzlepress`;
  $('#view-title').textContent = `Book ${groupSerial(serial)}`;
  let book;
  try {
    book = await untilPrinted((await api(`/books/${serial}`)).body);
  } catch (err) {
    progressRow.hidden = true;
    say(status, err.status === 404 ? "We don't know that serial number." : err.message, 'error');
    return;
  }
  if (!book) return;
  if (!book.links.pages) {
    say(status, `Only this book's publisher can browse its pages. ${whereIs(book.word)} Look its serial up on the home page.`, 'error');
    return;
  }
  pages = book.pages;
  $('#page-count').textContent = `of ${pages}`;
  pageInput.max = pages;
  const links = bookLinks(serial);
  $('#link-book').href = links.book;
  $('#link-answer').href = links.answer;
  $('#link-find').href = links.find;
  $('#link-find').textContent = whereIs(book.word);
  viewer.hidden = false;
  const wanted = Number(new URLSearchParams(location.search).get('page')) || 1;
  await showPage(wanted);
}

$('#prev').addEventListener('click', () => showPage(current - 1));
$('#next').addEventListener('click', () => showPage(current + 1));
$('#goto').addEventListener('submit', (event) => {
  event.preventDefault();
  const n = Number(pageInput.value);
  if (Number.isInteger(n) && n >= 1 && n <= pages) showPage(n);
  else say(status, `Pages are numbered 1 to ${pages}.`, 'error');
});
document.addEventListener('keydown', (event) => {
  if (!pages || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest('input, textarea, select')) return;
  if (event.key === 'ArrowLeft' && current > 1) showPage(current - 1);
  if (event.key === 'ArrowRight' && current < pages) showPage(current + 1);
});

start();
