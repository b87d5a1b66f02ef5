// Shared helpers: API calls with problem+json errors, job polling, small DOM and SVG builders.

/** An API failure with a sentence fit to show people. */
export class ApiError extends Error {
  constructor(status, message, problem = null) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

/** "the graph must have …, got 50" → "The graph must have …, got 50." */
export function sentence(text) {
  const t = String(text ?? '').trim();
  if (!t) return '';
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

function problemMessage(status, body, statusText) {
  if (body && typeof body === 'object') {
    if (body.detail) return sentence(body.detail);
    if (body.title) return sentence(body.title);
  }
  return `The server answered ${status}${statusText ? ` (${statusText})` : ''}; please try again.`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls the API. `json` or `text` give a body. Resolves to {status, body, location};
 * rejects with ApiError (status 0 when the server could not be reached).
 */
const KEY_STORE = 'puzzlepress-api-key';

/** The publisher's API key this tab was given, if any (kept for the tab's session only). */
export function apiKey() {
  try {
    return sessionStorage.getItem(KEY_STORE) || '';
  } catch {
    return '';
  }
}

export function setApiKey(token) {
  try {
    if (token) sessionStorage.setItem(KEY_STORE, token);
    else sessionStorage.removeItem(KEY_STORE);
  } catch {
    // Storage disabled: the key lasts until the page is left.
  }
}

export async function api(path, { method = 'GET', json, text } = {}) {
  const headers = { Accept: 'application/json, application/problem+json' };
  const key = apiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  const init = { method, headers };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    headers['Content-Type'] = 'application/json';
  } else if (text !== undefined) {
    init.body = text;
    headers['Content-Type'] = 'text/plain';
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'We could not reach the server. Check your connection and try again.');
  }
  const type = res.headers.get('content-type') || '';
  const body = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) throw new ApiError(res.status, problemMessage(res.status, body, res.statusText), body);
  return { status: res.status, body, location: res.headers.get('location') };
}

export const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * GETs `url` every `interval` ms until its `state` is terminal, calling `onUpdate` with each
 * answer. Transient trouble (unreachable server, 503) is retried a few times.
 * Stops early, resolving to null, when `isStale()` turns true (the user started over).
 */
export async function poll(url, { interval = 500, onUpdate = () => {}, isStale = () => false } = {}) {
  let failures = 0;
  for (;;) {
    if (isStale()) return null;
    try {
      const { body } = await api(url);
      failures = 0;
      if (isStale()) return null;
      onUpdate(body);
      if (TERMINAL.has(body.state)) return body;
    } catch (err) {
      const transient = err instanceof ApiError && (err.status === 0 || err.status === 503);
      if (!transient || ++failures > 5) throw err;
    }
    await sleep(interval);
  }
}

/** Where a 202 answer says to poll: the Location header, else the body's own links. */
export function pollUrl(answer) {
  return answer.location || answer.body?.links?.self || answer.body?.job;
}

/** Shows {done, total} on a <progress>; with no total yet it is indeterminate. */
export function showProgress(el, progress, finished = false) {
  const done = Number(progress?.done) || 0;
  const total = Number(progress?.total) || 0;
  if (finished) {
    el.max = total || 1;
    el.value = el.max;
  } else if (total > 0) {
    el.max = total;
    el.value = Math.min(done, total);
  } else {
    el.removeAttribute('value');
  }
  el.textContent = total > 0 ? `${Math.round((100 * el.value) / el.max)}%` : '';
}

/** Creates an HTML element: h('a', {href: '/x', class: 'y'}, 'text', child…). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element, like `h`. */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** Shows a message in a status region; kind 'error' styles it as an error. */
export function say(el, message, kind = 'info') {
  el.textContent = message;
  el.dataset.kind = kind;
  el.hidden = !message;
}

/** A random seed below 2^53, so the server and JavaScript read the same number. */
export function randomSeed() {
  return Math.floor(Math.random() * Number.MAX_SAFE_INTEGER);
}

/** "1, 3 and 5" */
export function listText(items) {
  const a = items.map(String);
  if (a.length <= 1) return a.join('');
  return `${a.slice(0, -1).join(', ')} and ${a[a.length - 1]}`;
}

/**
 * Shows the refusal of line `n` (1-based) of `textarea` under it, in the elements
 * `#PREFIX-error` (shown), `#PREFIX-error-text` (the message) and `#PREFIX-error-lines`
 * (the line and its neighbours, the line marked), and selects the line in the text.
 */
export function showLineError(textarea, prefix, n, message) {
  const lines = textarea.value.split('\n');
  const from = Math.max(1, n - 2);
  const to = Math.min(lines.length, n + 2);
  const width = String(to).length;
  const shown = [];
  for (let i = from; i <= to; i++) {
    const text = `${String(i).padStart(width)} │ ${lines[i - 1] ?? ''}`;
    shown.push(i === n ? h('span', { class: 'at-fault', 'data-line': i }, text) : `${text}\n`);
  }
  document.querySelector(`#${prefix}-error-text`).textContent = message;
  document.querySelector(`#${prefix}-error-lines`).replaceChildren(...shown);
  document.querySelector(`#${prefix}-error`).hidden = false;
  textarea.setAttribute('aria-invalid', 'true');
  const start = lines.slice(0, n - 1).reduce((sum, l) => sum + l.length + 1, 0);
  textarea.focus();
  textarea.setSelectionRange(start, start + (lines[n - 1] ?? '').length);
  const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 20;
  textarea.scrollTop = Math.max(0, (n - 3) * lineHeight);
}

/** The imprint every book takes: each part optional, sent only when filled in. */
export const IMPRINT_FIELDS = [
  { name: 'author', label: 'Author', max: 100, chars: /^[ -~]*$/, hint: 'optional; under the title',
    what: 'letters, digits or punctuation (plain ASCII)' },
  { name: 'copyright', label: 'Copyright line', max: 120, chars: /^[ -~©]*$/, hint: 'optional; on the title page’s back',
    what: 'letters, digits, punctuation (plain ASCII) or ©', placeholder: '© 2026 Example Press' },
  { name: 'isbn', label: 'ISBN', max: 40, chars: /^[0-9Xx -]*$/, hint: 'optional; barcoded on the cover',
    what: 'digits, hyphens and spaces', placeholder: '978-0-306-40615-7', inputmode: 'numeric' },
];

/** Puts the imprint's fields (ids `${prefix}author`, …) in the place of `placeholder`. */
export function placeImprint(placeholder, prefix = '') {
  placeholder.replaceWith(...IMPRINT_FIELDS.map((f) => {
    const id = `${prefix}${f.name}`;
    return h('div', { class: 'field' },
      h('label', { for: id }, f.label),
      h('input', { id, name: f.name, type: 'text', maxlength: f.max, placeholder: f.placeholder,
        inputmode: f.inputmode, 'aria-describedby': `${id}-hint` }),
      h('span', { class: 'hint', id: `${id}-hint` }, f.hint));
  }));
}

/**
 * The imprint's fields as filled in (ids `${prefix}author`, …): `{ imprint }` with the parts
 * given, or `{ field, message }` for the first that cannot be printed.
 */
export function readImprint(prefix = '') {
  const imprint = {};
  for (const f of IMPRINT_FIELDS) {
    const value = document.getElementById(`${prefix}${f.name}`).value.trim();
    if (value.length > f.max || !f.chars.test(value)) {
      return { field: f.name, message: `${f.label} must be at most ${f.max} ${f.what}.` };
    }
    if (value) imprint[f.name] = value;
  }
  return { imprint };
}

/**
 * A preview of a book's cover front, to show beside its links: the SVG at the address of
 * `cover.pdf` (its paper and palette kept) with `cover.svg`, fetched with the API key when
 * there is one (an <img> could not send it). Null when it cannot be had.
 */
export async function coverPreview(coverPdfHref) {
  try {
    const { body } = await api(coverPdfHref.replace('/cover.pdf', '/cover.svg'));
    // A data: address: the pages' Content-Security-Policy lets images come from here or data: only.
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(body)}`;
    return h('img', { class: 'cover-preview', src, alt: 'The front of the book’s cover', width: 180 });
  } catch {
    return null;
  }
}

/** Shows `preview` (or nothing) in a box of its own after `links`, replacing an earlier one. */
export function showCoverPreview(links, preview) {
  document.querySelector('#cover-preview')?.remove();
  if (preview) links.after(h('div', { id: 'cover-preview' }, preview));
}
