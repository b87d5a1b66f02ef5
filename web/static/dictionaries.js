// Dictionaries: entries pasted or uploaded as lines, typeset by POST /dictionaries (text
// lines, the other members in the query), progress followed, the PDF offered. A refused
// line is shown under the entries with its neighbours, and selected in the text.
import { api, h, poll, pollUrl, say, sentence, showLineError, showProgress } from '/static/app.js';

const $ = (selector) => document.querySelector(selector);
const entries = $('#entries');

const EXAMPLE = `abandon;v.;to give up completely;n.;freedom from inhibition
abbey;n.;a building occupied by monks or nuns
abide;v.;to accept or act in accordance with a rule
Éclair;n.;a small, long cake of choux pastry filled with cream
eclipse;n.;an obscuring of the light from the sun or moon;v.;to deprive of significance
fox;n.;a small wild dog with a bushy tail and a pointed snout;v.;to baffle or deceive
fox;n.;a member of a people formerly living in Wisconsin
glossary;n.;an alphabetical list of words relating to a subject, with explanations
lexicon;n.;the vocabulary of a person, language or branch of knowledge
zephyr;n.;a soft, gentle breeze`;

/** Lines holding an entry (not blank). */
const entryCount = (text) => text.split('\n').filter((l) => l.trim()).length;

function countEntries() {
  const n = entryCount(entries.value);
  $('#entries-count').textContent = n ? `${n} ${n === 1 ? 'entry' : 'entries'}` : '';
}

function clearLineError() {
  $('#entries-error').hidden = true;
  $('#entries-error-text').textContent = '';
  $('#entries-error-lines').replaceChildren();
  entries.removeAttribute('aria-invalid');
}


function query() {
  const params = new URLSearchParams();
  for (const name of ['title', 'author', 'trim', 'heads', 'language', 'preface']) {
    const value = $(`#${name}`).value.trim();
    if (value) params.set(name, value);
  }
  return params.toString();
}

async function typeset(event) {
  event.preventDefault();
  clearLineError();
  const formError = $('#form-error');
  const status = $('#status');
  const links = $('#links');
  const bar = $('#progress');
  formError.textContent = '';
  say(status, '');
  links.replaceChildren();
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  if (!entryCount(entries.value)) {
    formError.textContent = 'Give at least one entry, one a line.';
    entries.setAttribute('aria-invalid', 'true');
    entries.focus();
    return;
  }
  $('#typeset').disabled = true;
  const show = (body) => {
    bar.hidden = false;
    showProgress($('#progress-bar'), body?.progress);
    const p = body?.progress;
    $('#progress-text').textContent = p?.total ? `Setting: ${p.done} of ${p.total} entries` : 'Queued…';
  };
  try {
    const queued = await api(`/dictionaries?${query()}`, { method: 'POST', text: entries.value });
    show(queued.body);
    const done = await poll(pollUrl(queued), { onUpdate: show });
    bar.hidden = true;
    if (done.state !== 'succeeded') {
      say(status, `No dictionary was made: ${done.error || done.state}.`, 'error');
      return;
    }
    const r = done.result || {};
    const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    say(status, `Your dictionary is ready: ${plural(r.entries, 'entry', 'entries')} on ${plural(r.pages, 'page', 'pages')}.`, 'ok');
    links.replaceChildren(
      h('a', { class: 'button', href: done.links.book_pdf, id: 'book-pdf' }, 'Download the dictionary (PDF)'),
      h('span', { class: 'hint', id: 'report' },
        `${plural(r.lines, 'line', 'lines')}, ${plural(r.hyphens, 'hyphenated', 'hyphenated')}, ${r.overfull} too wide.`),
    );
  } catch (err) {
    bar.hidden = true;
    const field = err.problem?.field || '';
    const line = field === 'line' && /^line (\d+)/.exec(err.problem?.detail || '');
    if (line) {
      showLineError(entries, 'entries', Number(line[1]), sentence(err.problem.detail));
      return;
    }
    formError.textContent = err.message;
    const target = { title: '#title', author: '#author', trim: '#trim', language: '#language', heads: '#heads',
      preface: '#preface', entries: '#entries' }[field.replace(/^query$/, '')];
    if (target) {
      $(target).setAttribute('aria-invalid', 'true');
      $(target).focus();
    }
  } finally {
    $('#typeset').disabled = false;
  }
}

$('#dictionary-form').addEventListener('submit', typeset);
entries.addEventListener('input', () => {
  clearLineError();
  countEntries();
});
$('#load-example').addEventListener('click', () => {
  entries.value = EXAMPLE;
  clearLineError();
  countEntries();
});
$('#upload').addEventListener('click', () => $('#entries-file').click());
$('#entries-file').addEventListener('change', async (event) => {
  const file = event.target.files?.[0];
  if (!file) return;
  entries.value = await file.text();
  event.target.value = '';
  clearLineError();
  countEntries();
});
countEntries();
