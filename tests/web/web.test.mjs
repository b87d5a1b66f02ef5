// End-to-end browser tests of the puzzlepress pages, against a running server.
//
//   BASE_URL=http://127.0.0.1:8080 node tests/web.test.mjs
//
// BASE_URL (required): the server. SCREENSHOT_DIR (default target/screenshots): where the
// screenshots go. Uses Debian's Chromium at /usr/bin/chromium with a fresh temporary profile.
// Prints `web: N passed, M failed` last and exits non-zero if anything failed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ALPHABET, groupSerial, parseSerial, serialFromData } from '../../web/static/serial.js';

const BASE_URL = (process.env.BASE_URL || '').replace(/\/+$/, '');
// A server with an API key (its token in KEYED_TOKEN): ordering there needs the key.
const KEYED_BASE_URL = (process.env.KEYED_BASE_URL || '').replace(/\/+$/, '');
const KEYED_TOKEN = process.env.KEYED_TOKEN || '';
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR || 'target/screenshots';
const SCENARIO_TIMEOUT_MS = 180_000;

const DIRECTIONS = {
  right: [0, 1], left: [0, -1], down: [1, 0], up: [-1, 0],
  'down-right': [1, 1], 'down-left': [1, -1], 'up-right': [-1, 1], 'up-left': [-1, -1],
};
const TYPO_MESSAGE = 'That serial number looks mistyped — check each character.';
const UNKNOWN_MESSAGE = "We don't know that serial number.";
const ONEUP_SOLUTION = ['43122314', '35241123', '14153267', '21531246', '42615378', '12362451', '31224135', '23416512'];

const scenarios = [];
const scenario = (name, fn) => scenarios.push({ name, fn });
const shared = { serial: null }; // the book ordered by the first scenario, for the viewer screenshot

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function screenshot(page, name) {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Waits until the element's text satisfies `ok`; fails with the last text seen. */
async function waitForText(page, selector, ok, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  let text = null;
  for (;;) {
    const el = await page.$(selector);
    text = el ? ((await el.textContent()) ?? '').trim() : null;
    if (text !== null && ok(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting on ${selector}; its text is ${JSON.stringify(text)}`);
    await sleep(100);
  }
}

function randomSerial() {
  return serialFromData(Array.from({ length: 10 }, () => randomInt(32)));
}

// ---- scenarios ---------------------------------------------------------------------------


/** The cover preview in `container` has loaded: a front, taller than it is wide. */
async function assertCoverPreview(page, container, what) {
  await page.waitForSelector(`${container} img.cover-preview`, { timeout: 30_000 });
  const size = await page.$eval(`${container} img.cover-preview`, async (img) => {
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  assert.ok(size[0] >= 300 && size[1] > size[0], `${what}: the cover's front is shown (${size.join(' x ')} px)`);
}

scenario('order a 3-page book, watch it print, and find its fox by serial', async (page) => {
  await page.goto(`${BASE_URL}/order`);
  // The lookup address starts as this site's find page; on this machine's address the page
  // says readers could not reach it.
  assert.equal(await page.inputValue('#lookup_url'), `${BASE_URL}/`, 'the lookup address is this site');
  assert.match(await page.textContent('#lookup_url-hint'), /readers of the printed book cannot reach it/);
  await page.fill('#lookup_url', 'https://books.example.com/');
  assert.doesNotMatch(await page.textContent('#lookup_url-hint'), /cannot reach/, 'a public address is fine');
  await page.fill('#pages', '3');
  await page.fill('#rows', '8');
  await page.fill('#cols', '8');
  await page.click('#print');
  await page.waitForSelector('#order-result:not([hidden]), #order-error:not(:empty)', { timeout: 30_000 });
  const orderError = (await page.textContent('#order-error')).trim();
  assert.equal(orderError, '', 'the order is accepted');
  // The bar must reach 100% and the links must appear.
  await page.waitForFunction(
    () => {
      const bar = document.querySelector('#book-progress');
      return bar.hasAttribute('value') && bar.max > 0 && bar.value === bar.max && !document.querySelector('#order-done').hidden;
    },
    null,
    { timeout: 120_000, polling: 100 },
  );
  const bar = await page.$eval('#book-progress', (b) => ({ value: b.value, max: b.max }));
  assert.equal(bar.value, bar.max, '#book-progress ends full');
  const shown = (await page.textContent('#order-serial')).trim();
  const parsed = parseSerial(shown);
  assert.ok(parsed.ok, `the serial shown (${shown}) passes the check: ${parsed.message}`);
  const serial = parsed.serial;
  shared.serial = serial;
  const ordered = await (await fetch(`${BASE_URL}/books/${serial}`)).json();
  assert.equal(ordered.lookup_url, 'https://books.example.com/', 'the order sends the lookup address typed');
  const hrefs = await page.$$eval('#order-done a', (as) => as.map((a) => a.getAttribute('href')));
  for (const want of [`/books/${serial}/book.pdf`, `/books/${serial}/answer.pdf`, `/books/${serial}/view`]) {
    assert.ok(hrefs.includes(want), `a link to ${want} (links: ${hrefs.join(', ')})`);
  }
  await assertCoverPreview(page, '#cover-preview', 'the order page');
  await screenshot(page, 'order-printed');

  // Look it up the way a person types it: lower case, with hyphens.
  await page.goto(`${BASE_URL}/`);
  await page.fill('#serial', groupSerial(serial).toLowerCase());
  await page.click('#find');
  const first = await waitForText(page, '#answer-text', (t) => t.length > 0, 60_000).catch(async (err) => {
    const why = [await page.textContent('#serial-error'), await page.textContent('#lookup-status')].join(' ').trim();
    throw new Error(`${err.message}; the page says ${JSON.stringify(why)}`);
  });
  // Step one names the page only; the place waits for the reader to ask.
  assert.match(first, /^The fox is on page \d+ \(puzzle \d+\)\.$/, 'first only the page');
  assert.equal(await page.isVisible('#answer-page'), false, 'the page is not drawn before the reader asks');
  assert.equal(await page.$$eval('#answer-page .fox', (c) => c.length), 0, 'no fox shown yet');
  await screenshot(page, 'index-answer-page-only');
  await page.click('#reveal');
  const sentence = await waitForText(page, '#answer-text', (t) => t.includes('row'), 10_000);
  const m = sentence.match(/^The fox is on page (\d+) \(puzzle (\d+)\), row (\d+), column (\d+), reading ([a-z-]+)\.?$/);
  assert.ok(m, `answer sentence has the documented form: ${JSON.stringify(sentence)}`);
  const [printed, p, row, col] = m.slice(1, 5).map(Number);
  assert.equal(printed, p + 4, 'the printed page: the puzzles start on page 5');
  const direction = m[5];
  assert.ok(DIRECTIONS[direction], `known direction ${direction}`);
  assert.ok(p >= 1 && p <= 3, `page ${p} is in the 3-page book`);
  const drawnPage = await page.$eval('#answer-page svg', (svg) => Number(svg.dataset.page));
  assert.equal(drawnPage, p, 'the drawn page is the stated page');
  const fox = await page.$$eval('#answer-page .fox', (cells) =>
    cells.map((c) => ({ row: Number(c.dataset.row), col: Number(c.dataset.col), letter: c.textContent.trim() })),
  );
  assert.equal(fox.length, 3, `three highlighted cells, found ${JSON.stringify(fox)}`);
  const [dr, dc] = DIRECTIONS[direction];
  for (let k = 0; k < 3; k++) {
    const want = { row: row + k * dr, col: col + k * dc };
    const cell = fox.find((c) => c.row === want.row && c.col === want.col);
    assert.ok(cell, `a highlighted cell at row ${want.row}, column ${want.col} (highlighted: ${JSON.stringify(fox)})`);
    assert.equal(cell.letter, 'FOX'[k], `letter ${k + 1} along ${direction}`);
  }
  // Drawn as printed: the guides on all four sides, the grid's typeface, the word in a loop.
  const guides = await page.$$eval('#answer-page .index', (ts) => ts.map((t) => t.textContent));
  const drawn = await page.$eval('#answer-page svg', (svg) => ({
    rows: new Set([...svg.querySelectorAll('.cell')].map((c) => c.dataset.row)).size,
    cols: new Set([...svg.querySelectorAll('.cell')].map((c) => c.dataset.col)).size,
    loops: svg.querySelectorAll('.fox-loop').length,
    font: getComputedStyle(svg.querySelector('.letter')).fontFamily,
    foxWeight: getComputedStyle(svg.querySelector('.fox .letter')).fontWeight,
  }));
  assert.equal(guides.length, 2 * (drawn.rows + drawn.cols), 'row and column numbers on every side');
  assert.equal(drawn.loops, 1, 'one loop around the word');
  assert.match(drawn.font, /Grid Mono/, 'the printed typeface');
  assert.equal(drawn.foxWeight, '700', 'the word in bold');
  const loaded = await page.evaluate(async () => (await document.fonts.load('bold 16px "Grid Mono"')).map((f) => f.status));
  assert.deepEqual(loaded, ['loaded'], 'the bold grid font is served and loads');
  const pdf = await page.getAttribute('#answer-pdf', 'href');
  assert.equal(pdf, `/books/${serial}/answer.pdf`);
  await screenshot(page, 'index-answer');
});

scenario('order Find the Cat on heart-shaped pages, then find the CAT drawn on its heart', async (page) => {
  await page.goto(`${BASE_URL}/order`);
  // A shape of one's own that the server refuses marks the drawing.
  await page.selectOption('#shape', 'mask');
  assert.equal(await page.isDisabled('#rows'), true, 'a drawn shape sets the rows');
  await page.fill('#mask', '....\n.x..\n....');
  await page.fill('#pages', '2');
  await page.click('#print');
  const refused = await waitForText(page, '#order-error', (t) => t.length > 0, 30_000);
  assert.match(refused, /row 2 of the mask has 'x'/, 'the refusal says what is wrong with the drawing');
  assert.equal(await page.getAttribute('#mask', 'aria-invalid'), 'true', 'the drawing is marked');

  await page.selectOption('#shape', 'heart');
  await page.fill('#word', 'cat');
  assert.equal(await page.inputValue('#title'), 'Find the Cat', 'the title follows the word');
  await page.fill('#letters', 'CATS');
  await page.fill('#rows', '14');
  await page.fill('#cols', '14');
  await page.click('#print');
  await page.waitForFunction(() => !document.querySelector('#order-done').hidden || document.querySelector('#order-error').textContent, null, {
    timeout: 120_000,
  });
  assert.equal((await page.textContent('#order-error')).trim(), '', 'the order is accepted');
  assert.equal((await page.textContent('#link-find')).trim(), 'Where is the CAT?');
  const serial = parseSerial((await page.textContent('#order-serial')).trim()).serial;
  await screenshot(page, 'order-cat-printed');

  await page.goto(`${BASE_URL}/?serial=${serial}`);
  const first = await waitForText(page, '#answer-text', (t) => t.length > 0, 60_000);
  assert.match(first, /^The word CAT is on page [56] \(puzzle [12]\)\.$/, 'the answer names the word');
  await page.click('#reveal');
  const sentence = await waitForText(page, '#answer-text', (t) => t.includes('row'), 10_000);
  const m = sentence.match(/^The word CAT is on page \d+ \(puzzle (\d+)\), row (\d+), column (\d+), reading ([a-z-]+)\.$/);
  assert.ok(m, `answer sentence: ${JSON.stringify(sentence)}`);
  const [p, row, col] = m.slice(1, 4).map(Number);
  const [dr, dc] = DIRECTIONS[m[4]];
  const cells = await page.$$eval('#answer-page .fox', (cs) =>
    cs.map((c) => ({ row: Number(c.dataset.row), col: Number(c.dataset.col), letter: c.textContent.trim() })),
  );
  assert.deepEqual(
    cells.sort((a, b) => (a.row - b.row) * 100 + (a.col - b.col)),
    [0, 1, 2].map((k) => ({ row: row + k * dr, col: col + k * dc, letter: 'CAT'[k] })).sort((a, b) => (a.row - b.row) * 100 + (a.col - b.col)),
    'C, A and T highlighted along the direction',
  );
  // Drawn on its heart: a letter for each cell of the page's shape and none outside it.
  const rows = (await (await fetch(`${BASE_URL}/books/${serial}/pages/${p}`)).json()).rows;
  const letters = rows.join('').replace(/ /g, '').length;
  assert.ok(letters < 14 * 14, 'a heart leaves cells out');
  const drawn = await page.$$eval('#answer-page .cell', (cs) => cs.map((c) => `${c.dataset.row},${c.dataset.col}`));
  assert.equal(drawn.length, letters, 'one drawn letter a cell of the heart');
  for (const at of drawn) {
    const [r, c] = at.split(',').map(Number);
    assert.notEqual(rows[r - 1][c - 1], ' ', `row ${r}, column ${c} is inside the heart`);
  }
  await screenshot(page, 'index-answer-cat');
});

scenario('order a print run of 3 copies with an imprint, watch it print, and download its manifest', async (page) => {
  await page.goto(`${BASE_URL}/order`);
  await page.fill('#pages', '24');
  await page.fill('#rows', '10');
  await page.fill('#cols', '10');
  await page.fill('#copies', '3');
  await page.selectOption('#trim', '6x9');
  await page.fill('#title', 'Run of Foxes');
  await page.selectOption('#paper', 'cream');
  await page.fill('#author', 'Ada Fox');
  await page.fill('#copyright', '© 2026 Example Press');
  // A mistyped ISBN: the server's refusal names the field and the page marks it.
  await page.fill('#isbn', '978-0-306-40615-8');
  await page.click('#print');
  const refused = await waitForText(page, '#order-error', (t) => t.length > 0, 30_000);
  assert.match(refused, /check digit should be 7/, 'the refusal says what is wrong with the ISBN');
  assert.equal(await page.getAttribute('#isbn', 'aria-invalid'), 'true', 'the ISBN field is marked');
  await page.fill('#isbn', '978-0-306-40615-7');
  await page.click('#print');
  await page.waitForFunction(() => !document.querySelector('#run-done').hidden || document.querySelector('#order-error').textContent, null, {
    timeout: 120_000,
  });
  assert.equal((await page.textContent('#order-error')).trim(), '', 'the run is accepted');
  const text = (await page.textContent('#run-progress-text')).trim();
  assert.equal(text, '3 of 3 copies printed');
  const serials = await page.$$eval('#run-copies a', (as) => as.map((a) => a.textContent.trim()));
  assert.equal(serials.length, 3, 'three copies listed');
  assert.equal(new Set(serials).size, 3, 'three different books');
  for (const s of serials) assert.ok(parseSerial(s).ok, `a valid serial: ${s}`);
  const manifest = await page.getAttribute('#link-manifest', 'href');
  const csv = await (await fetch(`${BASE_URL}${manifest}`)).text();
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'serial,puzzle_pages,interior_pages,trim,word,page,row,col,direction,interior_sha256');
  assert.deepEqual(
    lines.slice(1).map((l) => l.split(',')[0]).sort(),
    serials.map((s) => parseSerial(s).serial).sort(),
    'the manifest lists the copies shown',
  );
  for (const line of lines.slice(1)) assert.deepEqual(line.split(',').slice(1, 5), ['24', '28', '6x9', 'FOX'], `printed on 6x9: ${line}`);
  for (const s of serials) {
    const book = await (await fetch(`${BASE_URL}/books/${parseSerial(s).serial}`)).json();
    assert.deepEqual(
      [book.author, book.copyright, book.isbn],
      ['Ada Fox', '© 2026 Example Press', '9780306406157'],
      `copy ${s} carries the imprint sent from the page`,
    );
  }
  await screenshot(page, 'order-print-run');
});

scenario('with keys in use, /order asks for a publisher key, refuses a wrong one, and prints with the right one', async (page) => {
  assert.ok(KEYED_BASE_URL && KEYED_TOKEN.startsWith('pp_'), 'KEYED_BASE_URL and KEYED_TOKEN are set (tests/web/run.sh)');
  await page.goto(`${KEYED_BASE_URL}/order`);
  assert.equal(await page.isVisible('#api-key'), false, 'no key field until one is needed');
  await page.fill('#pages', '2');
  await page.fill('#rows', '6');
  await page.fill('#cols', '6');
  await page.click('#print');
  await page.waitForSelector('#api-key', { state: 'visible' });
  const asked = await waitForText(page, '#order-error', (t) => t.length > 0);
  assert.match(asked, /API key/, 'the page says a key is needed');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'api-key', 'the key field has the focus');
  await page.fill('#api-key', 'pp_not-a-real-key');
  await page.click('#print');
  await waitForText(page, '#order-error', (t) => /not accepted/.test(t));
  await page.fill('#api-key', KEYED_TOKEN);
  await page.click('#print');
  await page.waitForFunction(() => !document.querySelector('#order-done').hidden, null, { timeout: 120_000 });
  const serial = parseSerial((await page.textContent('#order-serial')).trim()).serial;
  // The book PDF is the publisher's: the page fetches it with the key.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#link-book')]);
  const file = await download.path();
  const head = (await fs.readFile(file)).subarray(0, 5).toString();
  assert.equal(head, '%PDF-', `the downloaded book ${serial} is a PDF`);
  await screenshot(page, 'order-with-key');
  // The publisher may browse the book from the answer page; a reader without the key gets
  // the answer, but no offer to browse the book (its pages are the publisher's).
  await page.goto(`${KEYED_BASE_URL}/?serial=${serial}`);
  await waitForText(page, '#answer-text', (t) => t.length > 0, 60_000);
  await page.click('#reveal');
  await waitForText(page, '#answer-text', (t) => t.includes('row'), 10_000);
  assert.equal(await page.isVisible('#answer-viewer'), true, 'the publisher is offered to browse the book');
  const readerContext = await page.context().browser().newContext();
  const reader = await readerContext.newPage();
  await reader.goto(`${KEYED_BASE_URL}/?serial=${serial}`);
  await waitForText(reader, '#answer-text', (t) => /^The fox is on page \d+ \(puzzle \d+\)\.$/.test(t), 60_000);
  await reader.click('#reveal');
  await waitForText(reader, '#answer-text', (t) => t.includes('row'), 10_000);
  assert.equal(await reader.isVisible('#answer-page svg'), true, 'the reader sees the answer drawn');
  assert.equal(await reader.isVisible('#answer-viewer'), false, 'no offer to browse the publisher\'s book');
  await reader.goto(`${KEYED_BASE_URL}/books/${serial}/view`);
  const said = await waitForText(reader, '#view-status', (t) => t.length > 0);
  assert.match(said, /Only this book's publisher can browse its pages/);
  assert.equal(await reader.isVisible('#viewer'), false, 'no pages shown');
  await readerContext.close();
});

scenario('a mistyped serial is caught before any request; an unknown one is reported', async (page) => {
  const valid = randomSerial();
  const pos = randomInt(11);
  const other = ALPHABET[(ALPHABET.indexOf(valid[pos]) + 1 + randomInt(31)) % 32];
  const typo = valid.slice(0, pos) + other + valid.slice(pos + 1);
  const bookRequests = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/books')) bookRequests.push(r.url());
  });
  await page.goto(`${BASE_URL}/`);

  await page.fill('#serial', typo);
  await page.click('#find');
  await waitForText(page, '#serial-error', (t) => t === TYPO_MESSAGE, 5_000);
  await sleep(500); // time for a request to show up, were one made
  assert.deepEqual(bookRequests, [], 'no request for a mistyped serial');
  assert.equal(await page.getAttribute('#serial', 'aria-invalid'), 'true');
  await screenshot(page, 'index-typo');

  await page.fill('#serial', groupSerial(valid));
  await page.click('#find');
  await waitForText(page, '#serial-error', (t) => t === UNKNOWN_MESSAGE, 15_000);
  assert.ok(bookRequests.some((u) => u.includes(`/books/${valid}`)), `asked the server about ${valid}: ${bookRequests.join(', ')}`);
});

scenario('fox in a hole: holes 2,3,4,2,3,4 catch the fox on day 6', async (page) => {
  await page.goto(`${BASE_URL}/foxhole`);
  assert.equal(await page.inputValue('#holes'), '5', 'five holes by default');
  assert.equal(await page.locator('#board button[data-hole]').count(), 5);
  const clicks = [2, 3, 4, 2, 3, 4];
  for (const [i, hole] of clicks.entries()) {
    const button = page.getByRole('button', { name: `Hole ${hole}`, exact: true });
    assert.equal(await button.getAttribute('data-hole'), String(hole));
    await button.click();
    const text = (await page.textContent('#foxhole-status')).trim();
    if (i < clicks.length - 1) assert.ok(!/caught/i.test(text), `not caught after day ${i + 1}: ${text}`);
  }
  const text = await waitForText(page, '#foxhole-status', (t) => t.includes('You caught it!'), 5_000);
  assert.match(text, /\bday 6\b/i, `states day 6: ${text}`);
  await screenshot(page, 'foxhole-caught');
});

scenario('fox in a hole: giving up after hole 1 four times draws a valid escape', async (page) => {
  await page.goto(`${BASE_URL}/foxhole`);
  const hole1 = page.getByRole('button', { name: 'Hole 1', exact: true });
  await hole1.click();
  // The rest from the keyboard: the holes are real buttons.
  await hole1.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press(' ');
  await page.keyboard.press('Enter');
  assert.match(await page.textContent('#day'), /Day 5/, 'four days played');
  await page.getByRole('button', { name: /give up/i }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-escape-day]').length >= 4, null, { timeout: 15_000 });
  const steps = await page.$$eval('[data-escape-day]', (els) =>
    els.map((e) => ({ day: Number(e.dataset.escapeDay), hole: Number(e.dataset.hole) })),
  );
  assert.equal(steps.length, 4, `four escape steps: ${JSON.stringify(steps)}`);
  steps.sort((a, b) => a.day - b.day);
  assert.deepEqual(steps.map((x) => x.day), [1, 2, 3, 4]);
  const holes = steps.map((x) => x.hole);
  for (const [d, hole] of holes.entries()) {
    assert.ok(Number.isInteger(hole) && hole >= 1 && hole <= 5, `day ${d + 1}: hole ${hole} exists`);
    assert.notEqual(hole, 1, `day ${d + 1}: the fox is not in the inspected hole 1`);
    if (d > 0) assert.equal(Math.abs(hole - holes[d - 1]), 1, `day ${d + 1}: moved to a neighbour (${holes.join(' → ')})`);
  }
  await screenshot(page, 'foxhole-escape');
});

scenario('One Up: solves the 7 July 2024 example', async (page) => {
  await page.goto(`${BASE_URL}/oneup`);
  await page.click('#load-example');
  // The example arrives by fetch: solve it once it is in the box, not the empty box before.
  await page.waitForFunction(() => document.querySelector('#puzzle-text').value.includes('Row regions'), null, {
    timeout: 30_000,
  });
  await page.click('#solve');
  await page.waitForSelector('#oneup-status:not(:empty), #puzzle-error:not(:empty)', { timeout: 90_000 });
  assert.equal((await page.textContent('#puzzle-error')).trim(), '', 'the example parses');
  const verdict = (await page.textContent('#oneup-status')).trim();
  assert.match(verdict, /solved/i, `solved: ${verdict}`);
  assert.match(verdict, /\bunique\b/i, `says whether unique: ${verdict}`);
  assert.doesNotMatch(verdict, /not unique/i, `the example's solution is unique: ${verdict}`);
  const cells = await page.$$eval('#oneup-board .cell', (els) =>
    els.map((e) => ({ row: Number(e.dataset.row), col: Number(e.dataset.col), digit: e.textContent.trim() })),
  );
  assert.equal(cells.length, 64, 'an 8 × 8 grid');
  const grid = Array.from({ length: 8 }, () => Array(8).fill('?'));
  for (const c of cells) grid[c.row - 1][c.col - 1] = c.digit;
  assert.deepEqual(grid.map((r) => r.join('')), ONEUP_SOLUTION);
  await screenshot(page, 'oneup-solved');
});

/** Fetches `href` (relative to the server) and checks that it is a PDF. */
async function assertPdf(page, href) {
  const res = await page.request.get(`${BASE_URL}${href}`);
  assert.equal(res.status(), 200, `${href} answers 200`);
  assert.match(res.headers()['content-type'] || '', /^application\/pdf/, `${href} is served as a PDF`);
  const head = (await res.body()).subarray(0, 4).toString('latin1');
  assert.equal(head, '%PDF', `${href} starts like a PDF`);
}

scenario('One Up: generates a medium 8 × 8 puzzle with symmetric clues and names its techniques', async (page) => {
  await page.goto(`${BASE_URL}/oneup`);
  await page.selectOption('#level', 'medium');
  await page.selectOption('#clue-symmetry', 'rotational');
  await page.click('#generate');
  const made = await waitForText(page, '#oneup-status', (t) => t.length > 0, 120_000);
  assert.match(made, /^A new medium 8 × 8 puzzle with \d+ clues\.$/, `generated: ${made}`);
  const stats = await page.$$eval('#oneup-extra dl.stats dt, #oneup-extra dl.stats dd', (els) => els.map((e) => e.textContent));
  const techniques = stats[stats.indexOf('techniques') + 1] || '';
  assert.match(techniques, /subset/, `the techniques are listed: ${JSON.stringify(stats)}`);
  const text = await page.inputValue('#puzzle-text');
  const clues = text.split('\n\n')[2].trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/).slice(0, 2).map(Number));
  for (const [r, c] of clues) {
    assert.ok(clues.some(([r2, c2]) => r2 === 9 - r && c2 === 9 - c), `clue (${r}, ${c}) has its mirror image`);
  }
  await screenshot(page, 'oneup-medium');
});

scenario('One Up: generates a 6 × 6 puzzle, prints it, and solves its text uniquely', async (page) => {
  await page.goto(`${BASE_URL}/oneup`);
  await page.selectOption('#size', '6');
  await page.click('#generate');
  const made = await waitForText(page, '#oneup-status', (t) => t.length > 0, 120_000);
  assert.match(made, /^A new (easy|medium|hard|expert) 6 × 6 puzzle with \d+ clues\.$/, `generated: ${made}`);
  const hrefs = await page.$$eval('#oneup-extra a', (as) => as.map((a) => a.getAttribute('href')));
  const m = (hrefs[0] || '').match(/^\/oneup\/puzzles\/([^/]+)\/puzzle\.pdf$/);
  assert.ok(m, `a puzzle PDF link first (links: ${hrefs.join(', ')})`);
  const base = `/oneup/puzzles/${m[1]}`;
  assert.deepEqual(hrefs, [`${base}/puzzle.pdf`, `${base}/solution.pdf`]);
  const generated = await (await page.request.get(`${BASE_URL}${base}`)).json();
  assert.equal(generated.state, 'succeeded');
  assert.equal((await page.inputValue('#puzzle-text')).trim(), generated.result.puzzle.text.trim(), 'the puzzle text is in the textarea');
  const clues = await page.$$eval('#oneup-board .cell.clue', (els) =>
    els.map((e) => `${e.dataset.row} ${e.dataset.col} ${e.textContent.trim()}`).sort(),
  );
  assert.equal(await page.locator('#oneup-board .cell').count(), 36, 'a 6 × 6 grid is drawn');
  assert.deepEqual(clues, generated.result.puzzle.json.clues.map((k) => `${k.row} ${k.col} ${k.digit}`).sort(), 'the clues are drawn');
  for (const href of hrefs) await assertPdf(page, href);
  await screenshot(page, 'oneup-generated');

  await page.click('#solve');
  const verdict = await waitForText(page, '#oneup-status', (t) => /solved|solution|stopped/i.test(t) && !/^A new/.test(t), 120_000);
  assert.equal((await page.textContent('#puzzle-error')).trim(), '', 'the generated text parses');
  assert.match(verdict, /\bunique\b/i, `says unique: ${verdict}`);
  assert.doesNotMatch(verdict, /not unique/i, `a generated puzzle has one solution: ${verdict}`);
  const digits = await page.$$eval('#oneup-board .cell', (els) =>
    els.map((e) => ({ row: Number(e.dataset.row), col: Number(e.dataset.col), digit: e.textContent.trim() })),
  );
  const grid = Array.from({ length: 6 }, () => Array(6).fill('?'));
  for (const c of digits) grid[c.row - 1][c.col - 1] = c.digit;
  assert.deepEqual(grid.map((r) => r.join('')), generated.result.solution, 'the solver finds the generated solution');
});

/** The board's digits as rows ('.' for an empty cell). */
async function boardRows(page, n) {
  const cells = await page.$$eval('#oneup-board .cell', (els) =>
    els.map((e) => ({ row: Number(e.dataset.row), col: Number(e.dataset.col), digit: e.textContent.trim() })),
  );
  const grid = Array.from({ length: n }, () => Array(n).fill('.'));
  for (const c of cells) grid[c.row - 1][c.col - 1] = c.digit || '.';
  return grid.map((r) => r.join(''));
}

scenario('One Up: plays the 7 July 2024 puzzle with hints, and a wrong digit is named', async (page) => {
  await page.goto(`${BASE_URL}/oneup`);
  await page.click('#load-example');
  await page.waitForFunction(() => document.querySelector('#puzzle-text').value.includes('Row regions'), null, {
    timeout: 30_000,
  });
  await page.waitForSelector('#hint:not([disabled])');
  const text = await page.inputValue('#puzzle-text');
  // The hint shown is the server's hint for the empty grid, its cells marked on the board.
  await page.click('#hint');
  const said = await waitForText(page, '#oneup-hint', (t) => t.length > 0);
  const empty = Array(8).fill('........');
  const expected = await (
    await page.request.post(`${BASE_URL}/oneup/hints`, { data: { puzzle: text, grid: empty } })
  ).json();
  assert.match(said, /^row \d, column \d is \d: the only place for \d in /i, `a hint in words: ${said}`);
  assert.ok(said.toLowerCase().includes(expected.text.toLowerCase()), `the server's hint: ${said} / ${expected.text}`);
  const hinted = await page.$$eval('#oneup-board .cell.hinted, #oneup-board .cell.placed', (els) => els.length);
  assert.equal(hinted, new Set(expected.cells.map((c) => `${c.row},${c.col}`)).size, 'the hint\'s cells are marked');
  await screenshot(page, 'oneup-hint');
  // "Fill it in" puts the solution's digit in the cell.
  await page.click('#use-hint');
  const { row, col, digit } = expected.place;
  assert.equal(String(digit), ONEUP_SOLUTION[row - 1][col - 1], 'the hinted digit is the solution\'s');
  assert.equal((await boardRows(page, 8))[row - 1][col - 1], String(digit), 'filled in on the board');

  // Type digits by keyboard: the next hint builds on them.
  const clues = new Set(
    text.split('\n\n')[2].trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/).slice(0, 2).join(',')),
  );
  const free = [];
  for (let r = 1; r <= 8; r++) for (let c = 1; c <= 8; c++) if (!clues.has(`${r},${c}`) && !(r === row && c === col)) free.push([r, c]);
  const [[r1, c1], [r2, c2]] = free;
  await page.click(`#oneup-board .cell[data-row="${r1}"][data-col="${c1}"]`);
  await page.keyboard.press(ONEUP_SOLUTION[r1 - 1][c1 - 1]);
  const rows = await boardRows(page, 8);
  assert.equal(rows[r1 - 1][c1 - 1], ONEUP_SOLUTION[r1 - 1][c1 - 1], 'a typed digit shows');
  await page.click('#hint');
  await waitForText(page, '#oneup-hint', (t) => t.length > 0);
  assert.equal(await page.$eval('#oneup-hint', (e) => e.classList.contains('error')), false, 'right digits get a hint');
  // A wrong digit: the hint says which cell is wrong.
  await page.click(`#oneup-board .cell[data-row="${r2}"][data-col="${c2}"]`);
  const right = Number(ONEUP_SOLUTION[r2 - 1][c2 - 1]);
  const wrong = right === 1 ? 2 : 1;
  await page.keyboard.press(String(wrong));
  await page.click('#hint');
  const problem = await waitForText(page, '#oneup-hint', (t) => t.length > 0);
  assert.equal(await page.$eval('#oneup-hint', (e) => e.classList.contains('error')), true, 'shown as a problem');
  assert.match(problem, new RegExp(`row ${r2}, column ${c2}`, 'i'), `names the wrong cell: ${problem}`);
  await screenshot(page, 'oneup-wrong-digit');
  // Backspace clears it, and the hints come back.
  await page.click(`#oneup-board .cell[data-row="${r2}"][data-col="${c2}"]`);
  await page.keyboard.press('Backspace');
  assert.equal((await boardRows(page, 8))[r2 - 1][c2 - 1], '.', 'cleared');
  await page.click('#hint');
  await waitForText(page, '#oneup-hint', (t) => t.length > 0);
  assert.equal(await page.$eval('#oneup-hint', (e) => e.classList.contains('error')), false, 'a hint again');
});

scenario('One Up: makes a 6 × 9 book of 6 puzzles at chosen levels and downloads it', async (page) => {
  await page.goto(`${BASE_URL}/oneup`);
  await page.fill('#book-easy', '2');
  await page.fill('#book-medium', '2');
  await page.fill('#book-hard', '1');
  await page.fill('#book-expert', '1');
  await page.selectOption('#book-trim', '6x9');
  await page.fill('#book-title', 'Train Puzzles');
  await page.fill('#book-author', 'Ada Fox');
  await page.fill('#book-isbn', '978-0-306-40615-7');
  await page.click('#make-book');
  const ready = await waitForText(page, '#book-status', (t) => t.length > 0, 120_000);
  assert.equal((await page.textContent('#book-error')).trim(), '', 'the book is accepted');
  assert.equal(ready, 'Your book of 6 puzzles is ready.');
  const href = await page.getAttribute('#book-pdf', 'href');
  const m = (href || '').match(/^\/oneup\/books\/([^/]+)\/book\.pdf$/);
  assert.ok(m, `a link to the book's PDF: ${href}`);
  await assertPdf(page, href);
  assert.equal(await page.getAttribute('#cover-pdf', 'href'), `/oneup/books/${m[1]}/cover.pdf`, 'a link to its cover');
  await assertPdf(page, await page.getAttribute('#cover-pdf', 'href'));
  await assertCoverPreview(page, '#cover-preview', 'the One Up book');
  const book = await (await page.request.get(`${BASE_URL}/oneup/books/${m[1]}`)).json();
  assert.deepEqual(book.request.levels, { easy: 2, medium: 2, hard: 1, expert: 1 });
  assert.equal(book.request.trim, '6x9');
  assert.equal(book.request.title, 'Train Puzzles');
  assert.equal(book.request.author, 'Ada Fox', 'the imprint as ordered');
  assert.equal(book.request.isbn, '9780306406157');
  assert.deepEqual(book.result.puzzles.map((p) => p.difficulty.level), ['easy', 'easy', 'medium', 'medium', 'hard', 'expert']);
  await screenshot(page, 'oneup-book');

  // A book of no puzzles is refused, saying why.
  await page.fill('#book-easy', '0');
  await page.fill('#book-medium', '0');
  await page.fill('#book-hard', '0');
  await page.fill('#book-expert', '0');
  await page.click('#make-book');
  const refused = await waitForText(page, '#book-error', (t) => t.length > 0);
  assert.match(refused, /1 to 500 puzzles/, `an empty book is refused: ${refused}`);
});

scenario('crosswords: 15 × 15 patterns, a fill whose letters and entries agree, printable', async (page) => {
  await page.goto(`${BASE_URL}/crosswords`);
  await page.fill('#size', '15');
  await page.selectOption('#symmetry', 'mirror');
  await page.fill('#max-len', '9');
  await page.fill('#count', '3');
  await page.click('#make-patterns');
  const found = await waitForText(page, '#patterns-status', (t) => t.length > 0, 120_000);
  assert.match(found, /^\d+ patterns? of 15 × 15\./, `patterns: ${found}`);
  const figures = page.locator('#patterns figure');
  const count = await figures.count();
  assert.ok(count >= 1, 'at least one pattern is drawn');
  for (let i = 0; i < count; i++) {
    assert.equal(await figures.nth(i).locator('.square').count(), 225, `pattern ${i + 1} has 225 squares`);
  }
  await screenshot(page, 'crosswords-patterns');

  // Random seeds: a pattern may (rarely) have no fill; that must read as a sentence, and the next is tried.
  let filled = false;
  for (let i = 0; i < count && !filled; i++) {
    await figures.nth(i).getByRole('button', { name: `Fill pattern ${i + 1}` }).click();
    const said = await waitForText(page, '#fill-status', (t) => t.length > 0, 120_000);
    filled = (await page.getAttribute('#fill-status', 'data-kind')) === 'ok';
    if (!filled) assert.match(said, /^[A-Z].*\.$/, `a missing fill is explained in a sentence: ${said}`);
    else assert.match(said, /^Filled with \d+ words(; lowest score \d+, mean \d+\.\d|, all scoring \d+)\.$/, said);
  }
  assert.ok(filled, `one of the ${count} patterns is filled`);
  const squares = await page.$$eval('#fill-view .square', (gs) =>
    gs.map((g) => ({
      row: Number(g.dataset.row),
      col: Number(g.dataset.col),
      white: !!g.querySelector('rect.white'),
      letter: g.querySelector('.fill-letter')?.textContent.trim() ?? '',
    })),
  );
  assert.equal(squares.length, 225, 'the filled grid has 225 squares');
  const blanks = squares.filter((q) => q.white && !/^[A-Z]$/.test(q.letter));
  assert.deepEqual(blanks, [], 'every white square holds a letter');
  const at = new Map(squares.map((q) => [`${q.row},${q.col}`, q]));
  const first = await page.$eval('#fill-view ol[data-direction="across"] li', (li) => ({
    row: Number(li.dataset.row),
    col: Number(li.dataset.col),
    word: li.textContent.replace(/^\s*\d+\.\s*/, '').replace(/\s+\d+$/, '').trim(), // number, word, score
  }));
  let read = '';
  for (let c = first.col; at.get(`${first.row},${c}`)?.white; c++) read += at.get(`${first.row},${c}`).letter;
  assert.ok(first.word.length >= 3, `the first across entry is a word: ${JSON.stringify(first)}`);
  assert.equal(read, first.word, `the grid reads the first across word from row ${first.row}, column ${first.col}`);
  for (const id of ['#fill-grid-pdf', '#fill-solution-pdf']) {
    const href = await page.getAttribute(id, 'href');
    assert.match(href, /^\/crosswords\/fills\/[^/]+\/(grid|solution)\.pdf$/, `${id}: ${href}`);
    await assertPdf(page, href);
  }
  await screenshot(page, 'crosswords-filled');
});

scenario('crosswords: draw a grid, lock a letter, upload a scored list, fill, see the weakest entry, download', async (page) => {
  await page.goto(`${BASE_URL}/crosswords`);
  // Drawing: a click makes a block, and its rotational partner too.
  await page.fill('#grid-rows', '5');
  await page.fill('#grid-cols', '7');
  await page.click('#grid-new');
  assert.equal(await page.locator('#grid-editor .sq').count(), 35, 'a 5 x 7 grid of squares');
  await page.click('#grid-editor .sq[data-row="1"][data-col="1"]');
  const blocks = await page.$$eval('#grid-editor .sq.block', (b) => b.map((x) => `${x.dataset.row},${x.dataset.col}`));
  assert.deepEqual(blocks.sort(), ['1,1', '5,7'], 'the block and its partner');
  assert.equal((await page.inputValue('#grid-text')).split('\n')[4], '......#', 'the text form follows the drawing');
  await screenshot(page, 'crosswords-editor');

  // Pasting: a bad line is named.
  await page.click('#grid-text-box summary');
  await page.fill('#grid-text', '...\n.x.\n..');
  await page.click('#grid-load');
  assert.match(await page.textContent('#grid-error'), /^Line 3 has 2 squares; line 1 has 3\./);

  // A 3 x 3 grid with AB locked at the top left (typed), filled from the constructor's list.
  await page.fill('#grid-rows', '3');
  await page.fill('#grid-cols', '3');
  await page.click('#grid-new');
  await page.click('#grid-editor .sq[data-row="1"][data-col="1"]'); // a block…
  await page.click('#grid-editor .sq[data-row="1"][data-col="1"]'); // …and white again
  await page.keyboard.press('a');
  await page.keyboard.press('b'); // typing moves on across
  assert.equal(await page.textContent('#grid-editor .sq[data-row="1"][data-col="1"] .letter'), 'A', 'typing locks a letter');
  assert.equal(await page.textContent('#grid-editor .sq[data-row="1"][data-col="2"] .letter'), 'B', 'and the next');
  const list = 'ABC;80\nDEF;60\nGHI;70\nADG;90\nBEH;55\nCFI;65\nXYZ;99\n';
  await page.setInputFiles('#wordlist-file', { name: 'mine.dict', mimeType: 'text/plain', buffer: Buffer.from(list) });
  const listed = await waitForText(page, '#wordlist-status', (t) => /ready|not accepted/.test(t), 30_000);
  assert.equal(listed, 'mine.dict: 7 entries, ready.');
  await page.click('#grid-fill');
  const said = await waitForText(page, '#fill-status', (t) => t.length > 0 && !t.startsWith('Filling'), 60_000);
  assert.equal(said, 'Filled with 6 words; lowest score 55, mean 70.0.');
  const letters = await page.$$eval('#fill-view .square .fill-letter', (ts) => ts.map((t) => t.textContent).join(''));
  assert.equal(letters, 'ABCDEFGHI', 'the only fill of the list');
  const weakest = await page.$$eval('#fill-view li.weakest', (ls) => ls.map((l) => l.textContent.trim()));
  assert.deepEqual(weakest, ['2. BEH 55'], 'the weakest entry is highlighted');
  const shaded = await page.$$eval('#fill-view .square.weak', (gs) => gs.map((g) => `${g.dataset.row},${g.dataset.col}`));
  assert.deepEqual(shaded, ['1,2', '2,2', '3,2'], "the weakest entry's squares are shaded");
  for (const [id, pattern] of [
    ['#fill-puz', /\/puzzle\.puz$/],
    ['#fill-ipuz', /\/puzzle\.ipuz$/],
    ['#fill-grid-pdf', /\/grid\.pdf$/],
    ['#fill-solution-pdf', /\/solution\.pdf$/],
  ]) {
    const href = await page.getAttribute(id, 'href');
    assert.match(href ?? '', pattern, `${id}: ${href}`);
    const res = await fetch(`${BASE_URL}${href}`);
    assert.equal(res.status, 200, `${id} downloads`);
  }
  await screenshot(page, 'crosswords-own-grid');
});

/** A .puz file's title, author, copyright, clues (by number, across before down) and notes. */
function readPuz(bytes) {
  assert.equal(bytes.subarray(2, 14).toString('latin1'), 'ACROSS&DOWN\0', 'a .puz file');
  const [w, h] = [bytes[0x2c], bytes[0x2d]];
  const count = bytes.readUInt16LE(0x2e);
  const strings = bytes.subarray(0x34 + 2 * w * h).toString('latin1').split('\0');
  return { title: strings[0], author: strings[1], copyright: strings[2], clues: strings.slice(3, 3 + count), notes: strings[3 + count] };
}

/** The text of a PDF, by pdftotext. */
async function pdfText(page, href) {
  const res = await page.request.get(`${BASE_URL}${href}`);
  assert.equal(res.status(), 200, `${href} answers 200`);
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'xw-')), 'x.pdf');
  await fs.writeFile(file, await res.body());
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

scenario('crosswords: title, byline and clues typed after a fill go into the .puz, .ipuz and PDFs; a tie marks no entry weakest', async (page) => {
  await page.goto(`${BASE_URL}/crosswords`);
  // The page's own rule, in the page: the lowest score is the weakest only if some entry scores more.
  const cases = await page.evaluate(async () => {
    const { weakestScore } = await import('/static/crosswords.js');
    return [[], [{ score: 50 }, { score: 50 }], [{ score: 50 }, { score: 60 }, { score: 50 }], [{}, { score: 40 }], [{ score: 40 }, {}, { score: 70 }]].map(weakestScore);
  });
  assert.deepEqual(cases, [null, null, 50, null, 40], 'weakestScore');
  // The result's place: right under the editor's "Fill my grid", above the pattern generator.
  const order = await page.evaluate(() => {
    const all = [...document.querySelectorAll('#editor, #fill, #patterns-form')];
    return all.map((el) => el.id);
  });
  assert.deepEqual(order, ['editor', 'fill', 'patterns-form'], 'the fill section follows the editor');

  // A 3 x 3 grid, AB locked, from a list whose entries all score 50: its only fill is ABC/DEF/GHI.
  await page.fill('#grid-rows', '3');
  await page.fill('#grid-cols', '3');
  await page.click('#grid-new');
  await page.click('#grid-editor .sq[data-row="1"][data-col="1"]');
  await page.click('#grid-editor .sq[data-row="1"][data-col="1"]');
  await page.keyboard.press('a');
  await page.keyboard.press('b');
  const list = 'ABC;50\nDEF;50\nGHI;50\nADG;50\nBEH;50\nCFI;50\n';
  await page.setInputFiles('#wordlist-file', { name: 'flat.dict', mimeType: 'text/plain', buffer: Buffer.from(list) });
  assert.equal(await waitForText(page, '#wordlist-status', (t) => /ready|not accepted/.test(t)), 'flat.dict: 6 entries, ready.');
  assert.equal(await page.isHidden('#texts-form'), true, 'no clue editor before a fill');
  await page.click('#grid-fill');
  const said = await waitForText(page, '#fill-status', (t) => t.length > 0 && !t.startsWith('Filling'), 60_000);
  assert.equal(said, 'Filled with 6 words, all scoring 50.');
  assert.equal(await page.locator('#fill-view li.weakest').count(), 0, 'no entry is marked weakest when all tie');
  assert.equal(await page.locator('#fill-view .square.weak').count(), 0, 'no square is shaded when all tie');
  const fillTop = await page.$eval('#fill', (el) => el.getBoundingClientRect().top);
  const patternsTop = await page.$eval('#patterns-form', (el) => el.getBoundingClientRect().top);
  assert.ok(fillTop < patternsTop, `the result (${fillTop}) is above the pattern generator (${patternsTop})`);

  // One labelled input per entry, under Across and Down.
  const fields = await page.$$eval('#clue-editor fieldset', (sets) =>
    sets.map((f) => [f.querySelector('legend').textContent, [...f.querySelectorAll('input')].map((i) => `${i.id}:${i.labels[0].textContent}`)]),
  );
  assert.deepEqual(fields, [
    ['Across', ['clue-1A:1 Across, ABC', 'clue-4A:4 Across, DEF', 'clue-5A:5 Across, GHI']],
    ['Down', ['clue-1D:1 Down, ADG', 'clue-2D:2 Down, BEH', 'clue-3D:3 Down, CFI']],
  ]);
  const before = await page.getAttribute('#fill-puz', 'href');
  await page.fill('#xw-title', 'Mini Café');
  await page.fill('#xw-author', 'Ann Author');
  await page.fill('#xw-copyright', '© 2026 Ann Author');
  await page.fill('#clue-1A', 'Start of the alphabet');
  await page.fill('#clue-4A', '“Def” jam');
  await page.fill('#clue-1D', 'Add, oddly');
  assert.match(await page.textContent('#texts-status'), /not in the downloads yet/i);
  await page.click('#texts-save');
  const saved = await waitForText(page, '#texts-status', (t) => /^Saved|could not|must/.test(t), 30_000);
  assert.equal(saved, 'Saved: the downloads carry “Mini Café”, by Ann Author, and 3 of 6 clues (none yet for 5A, 2D and 3D).');
  const puzHref = await page.getAttribute('#fill-puz', 'href');
  assert.notEqual(puzHref, before, 'the downloads are the saved ones');
  await screenshot(page, 'crosswords-clues');

  const puzRes = await page.request.get(`${BASE_URL}${puzHref}`);
  assert.equal(puzRes.status(), 200);
  const puz = readPuz(await puzRes.body());
  assert.deepEqual(puz, {
    title: 'Mini Café',
    author: 'Ann Author',
    copyright: '© 2026 Ann Author',
    clues: ['Start of the alphabet', 'Add, oddly', '', '', '"Def" jam', ''], // 1A 1D 2D 3D 4A 5A
    notes: '',
  });
  const ipuz = await (await page.request.get(`${BASE_URL}${await page.getAttribute('#fill-ipuz', 'href')}`)).json();
  assert.deepEqual(
    [ipuz.title, ipuz.author, ipuz.copyright, ipuz.solution.map((r) => r.join('')), ipuz.clues],
    ['Mini Café', 'Ann Author', '© 2026 Ann Author', ['ABC', 'DEF', 'GHI'], {
      Across: [[1, 'Start of the alphabet'], [4, '“Def” jam'], [5, '']],
      Down: [[1, 'Add, oddly'], [2, ''], [3, '']],
    }],
  );
  const grid = await pdfText(page, await page.getAttribute('#fill-grid-pdf', 'href'));
  for (const line of ['Mini Cafe', 'by Ann Author', '1 Start of the alphabet', '4 "Def" jam', '5 (3 letters)', '2 (3 letters)']) {
    assert.ok(grid.includes(line), `the grid PDF prints ${JSON.stringify(line)}:\n${grid}`);
  }
  const solution = await pdfText(page, await page.getAttribute('#fill-solution-pdf', 'href'));
  assert.ok(solution.includes('Solution - by Ann Author'), `the solution PDF has the byline:\n${solution}`);

  // A fill again: the texts stay and each word gets its clue back.
  await page.click('#grid-fill');
  await waitForText(page, '#fill-status', (t) => t.startsWith('Filled'), 60_000);
  assert.equal(await page.inputValue('#clue-1A'), 'Start of the alphabet');
  assert.equal(await page.inputValue('#clue-5A'), '');
  assert.equal(await page.inputValue('#xw-author'), 'Ann Author');
});

scenario('crosswords: American patterns of rows × columns, every square checked, filled', async (page) => {
  await page.goto(`${BASE_URL}/crosswords`);
  assert.equal(await page.isVisible('#pattern-rows'), false, 'rows and columns are for American rules');
  await page.selectOption('#rules', 'american');
  assert.equal(await page.isVisible('#size'), false, 'American rules take rows and columns, not a size');
  assert.equal(await page.inputValue('#symmetry'), 'rotational', 'American grids default to rotational symmetry');
  await page.selectOption('#symmetry', 'none');
  await page.selectOption('#symmetry', 'rotational');
  await page.fill('#pattern-rows', '32');
  await page.click('#make-patterns');
  assert.match(await page.textContent('#patterns-error'), /Rows must be a whole number from 3 to 31/);
  assert.equal(await page.getAttribute('#pattern-rows', 'aria-invalid'), 'true');
  await page.fill('#pattern-rows', '5');
  await page.fill('#pattern-cols', '7');
  await page.fill('#count', '3');
  await page.click('#make-patterns');
  const found = await waitForText(page, '#patterns-status', (t) => t.length > 0, 120_000);
  assert.match(found, /^\d+ patterns? of 5 × 7, American rules\./, `patterns: ${found}`);
  const figures = page.locator('#patterns figure');
  const count = await figures.count();
  assert.ok(count >= 1, 'at least one pattern is drawn');
  for (let i = 0; i < count; i++) {
    const rows = await figures.nth(i).locator('.square').evaluateAll((gs) => {
      const out = Array.from({ length: 5 }, () => Array(7).fill('?'));
      for (const g of gs) out[g.dataset.row - 1][g.dataset.col - 1] = g.querySelector('rect.black') ? '#' : '.';
      return out.map((r) => r.join(''));
    });
    // Every white square is in an across and a down run of 3 or more (checked independently of the server).
    const run = (r, c, dr, dc) => {
      let n = 1;
      for (const s of [1, -1]) for (let k = 1; rows[r + s * k * dr]?.[c + s * k * dc] === '.'; k++) n++;
      return n;
    };
    for (let r = 0; r < 5; r++) {
      for (let c = 0; c < 7; c++) {
        if (rows[r][c] !== '.') continue;
        assert.ok(run(r, c, 0, 1) >= 3 && run(r, c, 1, 0) >= 3, `pattern ${i + 1}: square ${r + 1},${c + 1} is checked both ways: ${rows}`);
      }
    }
  }
  await screenshot(page, 'crosswords-american');
  let filled = false;
  for (let i = 0; i < count && !filled; i++) {
    await figures.nth(i).getByRole('button', { name: `Fill pattern ${i + 1}` }).click();
    await waitForText(page, '#fill-status', (t) => t.length > 0, 120_000);
    filled = (await page.getAttribute('#fill-status', 'data-kind')) === 'ok';
  }
  assert.ok(filled, `one of the ${count} American patterns is filled`);
  assert.equal(await page.locator('#fill-view .square').count(), 35, 'the 5 x 7 fill is drawn');
});

scenario('dictionaries: paste entries, see a bad line refused beside it, typeset, download; upload a file', async (page) => {
  await page.goto(`${BASE_URL}/dictionaries`);
  await page.click('#load-example');
  const example = await page.inputValue('#entries');
  assert.equal((await page.textContent('#entries-count')).trim(), '10 entries');
  // A line without its definition, and one with a character the font lacks: each is
  // refused with its line number, shown beside its neighbours and selected in the text.
  const lines = example.split('\n');
  for (const [bad, why] of [['quokka;n.', /expected headword;pos;definition/], ['tokyo;n.;東京, a city', /no glyph for '東'/]]) {
    const text = [...lines.slice(0, 4), bad, ...lines.slice(4)].join('\n');
    await page.fill('#entries', text);
    await page.click('#typeset');
    await page.waitForSelector('#entries-error:not([hidden])');
    const message = (await page.textContent('#entries-error-text')).trim();
    assert.match(message, /^Line 5: /, `the refusal names the line: ${message}`);
    assert.match(message, why);
    assert.equal(await page.getAttribute('#entries-error-lines .at-fault', 'data-line'), '5');
    assert.match(await page.textContent('#entries-error-lines .at-fault'), new RegExp(bad.slice(0, 5)));
    assert.equal(await page.getAttribute('#entries', 'aria-invalid'), 'true');
    const selected = await page.$eval('#entries', (t) => t.value.slice(t.selectionStart, t.selectionEnd));
    assert.equal(selected, bad, 'the line at fault is selected');
    await screenshot(page, 'dictionaries-refused');
  }
  // Fixed, the error goes away as soon as the text changes, and the book is set.
  await page.fill('#entries', example);
  assert.ok(await page.$('#entries-error[hidden]'), 'editing clears the refusal');
  await page.fill('#title', 'Words of the Den');
  await page.fill('#author', 'A. Fox');
  await page.fill('#preface', 'Words our puzzles use.\n\nEach with its senses.');
  await page.selectOption('#trim', '6x9');
  await page.selectOption('#heads', 'both');
  await page.click('#typeset');
  const ready = await waitForText(page, '#status', (t) => t.length > 0, 60_000);
  assert.match(ready, /^Your dictionary is ready: 10 entries on \d+ pages\.$/, ready);
  const href = await page.getAttribute('#book-pdf', 'href');
  const m = (href || '').match(/^\/dictionaries\/([^/]+)\/book\.pdf$/);
  assert.ok(m, `a link to the PDF: ${href}`);
  await assertPdf(page, href);
  const pdf = await (await page.request.get(`${BASE_URL}${href}`)).body();
  const file = path.join(os.tmpdir(), `dictionary-${m[1]}.pdf`);
  await fs.writeFile(file, pdf);
  // In drawing order: the columns' entries, then the page's guide words.
  const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
  await fs.rm(file);
  for (const word of ['Words of the Den', 'A. Fox', 'Preface', 'Each with its senses.', 'abandon', 'Éclair', 'zephyr']) {
    assert.ok(text.includes(word), `the PDF holds ${word}`);
  }
  assert.ok(text.indexOf('abbey') < text.indexOf('Éclair') && text.indexOf('Éclair') < text.indexOf('zephyr'), 'in order');
  const made = await (await page.request.get(`${BASE_URL}/dictionaries/${m[1]}`)).json();
  assert.equal(made.request.title, 'Words of the Den');
  assert.equal(made.request.trim, '6x9');
  assert.equal(made.request.heads, 'both');
  assert.deepEqual(made.request.preface, ['Words our puzzles use.', 'Each with its senses.']);
  await screenshot(page, 'dictionaries-ready');

  // An uploaded file replaces the text.
  await page.setInputFiles('#entries-file', {
    name: 'words.txt', mimeType: 'text/plain', buffer: Buffer.from('den;n.;a wild animal\'s lair\nvixen;n.;a female fox\n'),
  });
  await page.waitForFunction(() => document.querySelector('#entries').value.startsWith('den;n.'));
  assert.equal((await page.textContent('#entries-count')).trim(), '2 entries');
});

// ---- word search ---------------------------------------------------------------------------

/** Clicks Play and resolves to the puzzle the page asked for (its job's result), once drawn. */
async function playPuzzle(page) {
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/wordsearches');
  await page.click('#play');
  const answer = await posted;
  assert.equal(answer.status(), 202, 'the puzzle is queued');
  await page.waitForSelector('#game:not([hidden]) .ws-board svg', { timeout: 60_000 });
  const job = await (await page.request.get(`${BASE_URL}${answer.headers().location}`)).json();
  assert.equal(job.state, 'succeeded');
  return job.result;
}

/** The page's coordinates of a cell's centre. */
async function cellCentre(page, [r, c]) {
  return page.$eval('.ws-board svg', (svg, [row, col]) => {
    const box = svg.getBoundingClientRect();
    const w = box.width / Number(svg.dataset.cols);
    const h = box.height / Number(svg.dataset.rows);
    return { x: box.left + (col + 0.5) * w, y: box.top + (row + 0.5) * h };
  }, [r, c]);
}

/** Drags across the grid from one cell's centre to another's, with the mouse. */
async function mouseDrag(page, from, to) {
  const a = await cellCentre(page, from);
  const b = await cellCentre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
}

/** Drags with a finger: touch events as a phone sends them (the context has touch). */
async function touchDrag(page, cdp, from, to) {
  const a = await cellCentre(page, from);
  const b = await cellCentre(page, to);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: a.x, y: a.y }] });
  for (let k = 1; k <= 6; k++) {
    const t = k / 6;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y) }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** What the page shows: the struck words, the found count, the bands drawn. */
async function gameState(page) {
  return page.evaluate(() => ({
    struck: [...document.querySelectorAll('#ws-words li.found')].map((li) => li.dataset.word).sort(),
    words: [...document.querySelectorAll('#ws-words li')].map((li) => li.dataset.word),
    bands: document.querySelectorAll('.ws-board .found-band').length,
    count: document.querySelector('#found-count').textContent.trim(),
    status: document.querySelector('#play-status').textContent.trim(),
  }));
}

/**
 * Plays a puzzle to the end with `drag`: first a wrong drag (a word's cells but its last),
 * which strikes nothing; then every word, every other one from its last letter back.
 */
async function playToTheEnd(page, puzzle, drag) {
  // The grid drawn is the puzzle made: each letter where the job says.
  const drawn = await page.$$eval('.ws-board .cell', (cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.col), c.textContent]));
  const want = puzzle.rows.flatMap((row, r) => [...row].map((ch, c) => [r, c, ch]).filter(([, , ch]) => ch !== ' '));
  assert.deepEqual(drawn, want, 'the grid shows the letters of the puzzle made');
  const words = puzzle.words.map((w) => w.word);
  assert.deepEqual((await gameState(page)).words, [...words].sort((a, b) => a.localeCompare(b)), 'the list beside the grid, sorted');

  const first = puzzle.words[0];
  await drag(first.cells[0], first.cells[first.cells.length - 2]);
  let state = await gameState(page);
  assert.deepEqual(state.struck, [], 'a wrong drag strikes nothing');
  assert.equal(state.bands, 0, 'a wrong drag leaves no mark');
  assert.equal(state.count, `0 of ${words.length} found`);
  // A drag off the grid's straight lines (a knight's move) snaps to a line and finds nothing either.
  const [r0, c0] = first.cells[0];
  await drag([r0, c0], [Math.min(r0 + 2, puzzle.rows.length - 1), Math.min(c0 + 1, puzzle.rows[0].length - 1)]);
  assert.deepEqual((await gameState(page)).struck, [], 'nor does a crooked one');

  for (const [i, w] of puzzle.words.entries()) {
    const ends = [w.cells[0], w.cells[w.cells.length - 1]];
    await drag(...(i % 2 ? ends.reverse() : ends));
    state = await gameState(page);
    assert.ok(state.struck.includes(w.word), `${w.word} is struck after the drag (${i % 2 ? 'backwards' : 'forwards'})`);
    assert.equal(state.struck.length, i + 1, `only ${w.word} is struck by its drag`);
    assert.equal(state.bands, i + 1, 'a band over each word found');
    if (i + 1 < words.length) assert.equal(state.status, '', 'no final message before the end');
  }
  // Dragging a found word again counts nothing twice.
  await drag(first.cells[0], first.cells[first.cells.length - 1]);
  state = await gameState(page);
  assert.equal(state.bands, words.length);
  assert.equal(state.count, `${words.length} of ${words.length} found`);
  assert.match(state.status, /^All found/, `the final message: ${state.status}`);
  assert.equal(await page.$eval('#play-status', (el) => el.dataset.kind), 'ok');
  const bold = await page.$$eval('.ws-board .cell.found', (cells) => cells.length);
  assert.equal(bold, new Set(puzzle.words.flatMap((w) => w.cells.map(String))).size, 'every word letter marked');
}

scenario('word search: play a puzzle to the end by dragging, a wrong drag strikes nothing; play from a pool', async (page) => {
  await page.goto(`${BASE_URL}/wordsearch`);
  await page.click('#load-example');
  assert.equal((await page.textContent('#lists-count')).trim(), '4 lists');
  await page.selectOption('#level', 'hard');
  await page.fill('#rows', '12');
  await page.fill('#cols', '12');
  const puzzle = await playPuzzle(page);
  assert.equal(puzzle.rows.length, 12);
  assert.deepEqual(puzzle.words.map((w) => w.word),
    ['robin', 'sparrow', 'blue tit', 'wren', 'magpie', 'starling', 'crow', 'owl', 'thrush', 'finch'], 'the first list');
  assert.equal((await page.textContent('#play-heading')).trim(), 'Play: Garden birds');
  await screenshot(page, 'wordsearch-play');
  await playToTheEnd(page, puzzle, (from, to) => mouseDrag(page, from, to));
  await screenshot(page, 'wordsearch-all-found');

  // A pool: a puzzle of the chosen number of its words.
  await page.check('input[name="source"][value="pool"]');
  assert.equal(await page.isVisible('#lists'), false, 'the pool replaces the lists');
  await page.click('#load-example');
  await page.fill('#words_per_puzzle', '8');
  await page.selectOption('#shape', 'heart');
  const pooled = await playPuzzle(page);
  const pool = (await page.inputValue('#pool')).split(/[,\n]/).map((w) => w.trim()).filter(Boolean);
  assert.equal(pooled.words.length, 8, 'eight words drawn');
  for (const w of pooled.words) assert.ok(pool.includes(w.word), `${w.word} is from the pool`);
  assert.ok(pooled.rows.some((r) => r.includes(' ')), 'a heart leaves cells out');
  assert.deepEqual((await gameState(page)).struck, [], 'a new puzzle starts with nothing found');
  await screenshot(page, 'wordsearch-pool-heart');

  // A word of the pool refused (too short): named, and selected in the pool.
  const goodPool = await page.inputValue('#pool');
  await page.fill('#pool', 'heron, egret\nox, stork');
  await page.fill('#words_per_puzzle', '4');
  await page.click('#play');
  const poolError = await waitForText(page, '#pool-error', (t) => t.length > 0);
  assert.match(poolError, /"ox" has 2 letters/, poolError);
  assert.equal(await page.getAttribute('#pool', 'aria-invalid'), 'true');
  assert.equal(await page.$eval('#pool', (t) => t.value.slice(t.selectionStart, t.selectionEnd)), 'ox', 'the word at fault is selected');
  await page.fill('#pool', goodPool);
  assert.equal((await page.textContent('#pool-error')).trim(), '', 'editing clears the refusal');
  await page.fill('#words_per_puzzle', '8');
  const keyed = await playPuzzle(page);

  // With keys only: the arrows move the cursor from the top left, Enter takes each end.
  const target = keyed.words[keyed.words.length - 1];
  const walk = async ([r0, c0], [r1, c1]) => {
    for (let k = 0; k < Math.abs(r1 - r0); k++) await page.keyboard.press(r1 > r0 ? 'ArrowDown' : 'ArrowUp');
    for (let k = 0; k < Math.abs(c1 - c0); k++) await page.keyboard.press(c1 > c0 ? 'ArrowRight' : 'ArrowLeft');
  };
  await page.focus('.ws-board svg');
  const [head, tail] = [target.cells[0], target.cells[target.cells.length - 1]];
  await walk([0, 0], tail);
  await page.keyboard.press('Enter');
  await walk(tail, head);
  await page.keyboard.press('Enter');
  assert.deepEqual((await gameState(page)).struck, [target.word], `${target.word} found with the keys, last letter first`);
});

scenario('word search on a phone: the grid fits the width and is played to the end by touch', async (page) => {
  // A context of its own: a phone's width, with a touch screen.
  const context = await page.context().browser().newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const errors = [];
  try {
    const phone = await context.newPage();
    phone.on('pageerror', (err) => errors.push(err.message));
    phone.setDefaultTimeout(30_000);
    await phone.goto(`${BASE_URL}/wordsearch`);
    await phone.click('#load-example');
    await phone.selectOption('#level', 'expert');
    const puzzle = await playPuzzle(phone);
    await phone.$eval('.ws-board svg', (svg) => svg.scrollIntoView({ block: 'start' }));
    const fit = await phone.evaluate(() => ({
      grid: document.querySelector('.ws-board svg').getBoundingClientRect().width,
      page: document.documentElement.scrollWidth,
      touchAction: getComputedStyle(document.querySelector('.ws-board svg')).touchAction,
    }));
    assert.ok(fit.grid > 300 && fit.grid <= 390, `the grid fills the phone's width (${fit.grid} px)`);
    assert.ok(fit.page <= 390, `nothing wider than the screen (${fit.page} px)`);
    assert.equal(fit.touchAction, 'none', 'dragging on the grid does not scroll the page');
    await screenshot(phone, 'wordsearch-play-phone');
    const cdp = await context.newCDPSession(phone);
    const before = await phone.evaluate(() => window.scrollY);
    await playToTheEnd(phone, puzzle, (from, to) => touchDrag(phone, cdp, from, to));
    assert.equal(await phone.evaluate(() => window.scrollY), before, 'the page did not move under the finger');
    await phone.$eval('#play-status', (el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(phone, 'wordsearch-all-found-phone');
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, [], 'no uncaught errors in the phone page');
});

scenario('word search: a refused list (CAT and CATS, a word too long) is shown next to its line', async (page) => {
  await page.goto(`${BASE_URL}/wordsearch`);
  for (const [line, why] of [['Pets: cat, dog, cats, mouse', /CAT is part of CATS/], ['Big: cat, dog, hippopotamuses', /did not fit.*hippopotamuses/]]) {
    await page.fill('#lists', `${line}\nBirds: robin, wren, owl`);
    await page.fill('#rows', '10');
    await page.fill('#cols', '10');
    await page.click('#play');
    await page.waitForSelector('#lists-error:not([hidden])', { timeout: 30_000 });
    const message = (await page.textContent('#lists-error-text')).trim();
    assert.match(message, /^Line 1: /, `the refusal names the line: ${message}`);
    assert.match(message, why);
    assert.equal(await page.getAttribute('#lists-error-lines .at-fault', 'data-line'), '1');
    assert.equal(await page.getAttribute('#lists', 'aria-invalid'), 'true');
    const selected = await page.$eval('#lists', (t) => t.value.slice(t.selectionStart, t.selectionEnd));
    assert.equal(selected, line, 'the line at fault is selected');
    assert.equal(await page.isVisible('#game'), false, 'no grid for a refused list');
    await screenshot(page, 'wordsearch-refused');
  }
  await page.type('#lists', ' ');
  assert.ok(await page.$('#lists-error[hidden]'), 'editing clears the refusal');
  // A grid out of bounds is marked on its field.
  await page.fill('#lists', 'Birds: robin, wren, owl');
  await page.fill('#rows', '50');
  await page.click('#play');
  await waitForText(page, '#form-error', (t) => /^Rows: 50/.test(t));
  assert.equal(await page.getAttribute('#rows', 'aria-invalid'), 'true');
});

scenario('word search: make a book of three lists, a refused line first, then download the book and its cover', async (page) => {
  await page.goto(`${BASE_URL}/wordsearch`);
  const good = ['Garden birds: robin, sparrow, wren, magpie, starling, crow', '', 'oak, ash, birch, willow, maple, cedar'];
  await page.fill('#lists', [...good, 'Sea: whale, dolphin, seahorse, hippopotamuses'].join('\n'));
  await page.fill('#rows', '10');
  await page.fill('#cols', '10');
  await page.selectOption('#level', 'spread:easy,medium,hard');
  await page.fill('#title', 'Garden Words');
  await page.selectOption('#trim', '6x9');
  await page.click('#make-book');
  await page.waitForSelector('#lists-error:not([hidden])', { timeout: 30_000 });
  assert.equal(await page.getAttribute('#lists-error-lines .at-fault', 'data-line'), '4', 'puzzles[2] is line 4 (a blank line between)');
  assert.match((await page.textContent('#lists-error-text')).trim(), /^Line 4: .*hippopotamuses/);
  await screenshot(page, 'wordsearch-book-refused');

  const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/wordsearches/books');
  await page.fill('#lists', [...good, 'Sea: whale, dolphin, seal, crab, shark'].join('\n'));
  await page.fill('#author', 'Ada Fox');
  await page.fill('#copyright', '© 2026 Example Press');
  await page.fill('#isbn', 'ISBN?');
  await page.click('#make-book');
  assert.match((await page.textContent('#book-error')).trim(), /^ISBN must be at most 40 digits/, 'an ISBN refused before it is sent');
  assert.equal(await page.getAttribute('#isbn', 'aria-invalid'), 'true', 'the ISBN field is marked');
  await page.fill('#isbn', '');
  await page.click('#make-book');
  const sent = (await posted).postDataJSON();
  assert.deepEqual(sent.puzzles, [
    { title: 'Garden birds', words: ['robin', 'sparrow', 'wren', 'magpie', 'starling', 'crow'] },
    { words: ['oak', 'ash', 'birch', 'willow', 'maple', 'cedar'] },
    { title: 'Sea', words: ['whale', 'dolphin', 'seal', 'crab', 'shark'] },
  ]);
  assert.deepEqual(sent.spread, ['easy', 'medium', 'hard']);
  assert.equal(sent.title, 'Garden Words');
  assert.equal(sent.trim, '6x9');
  assert.equal(sent.large_print, false);
  assert.equal(sent.author, 'Ada Fox', 'the imprint is sent');
  assert.equal(sent.copyright, '© 2026 Example Press');
  assert.ok(!('isbn' in sent), 'an empty ISBN is not sent');
  const ready = await waitForText(page, '#book-status', (t) => t.length > 0, 120_000);
  assert.match(ready, /^Your book is ready: 3 puzzles on \d+ pages\.$/, ready);
  await assertPdf(page, await page.getAttribute('#book-pdf', 'href'));
  await assertPdf(page, await page.getAttribute('#cover-pdf', 'href'));
  await assertCoverPreview(page, '#cover-preview', 'the word-search book');
  await screenshot(page, 'wordsearch-book-ready');
});

scenario('screenshots of every page', async (page) => {
  const serial = shared.serial || randomSerial();
  const pages = [
    ['index', '/', 'form#lookup'],
    ['order', '/order', 'form#order'],
    ['view', `/books/${serial}/view`, '#viewer:not([hidden]) svg, #view-status:not([hidden])'],
    ['foxhole', '/foxhole', '#board button'],
    ['oneup', '/oneup', '#puzzle-text'],
    ['crosswords', '/crosswords', 'form#patterns-form'],
    ['dictionaries', '/dictionaries', 'form#dictionary-form'],
    ['wordsearch', '/wordsearch', 'form#wordsearch-form'],
  ];
  for (const [name, route, ready] of pages) {
    for (const [suffix, viewport] of [['', { width: 1280, height: 900 }], ['-phone', { width: 390, height: 844 }]]) {
      await page.setViewportSize(viewport);
      const res = await page.goto(`${BASE_URL}${route}`);
      assert.equal(res.status(), 200, `${route} answers 200`);
      await page.waitForSelector(ready, { timeout: 30_000 });
      assert.ok(await page.$('header nav a[href="/foxhole"]'), `${route} has the site navigation`);
      assert.ok(await page.$('header nav a[href="/wordsearch"]'), `${route} links to the word search page`);
      const file = await screenshot(page, `${name}${suffix}`);
      const { size } = await fs.stat(file);
      assert.ok(size > 1000, `${file} is a real image (${size} bytes)`);
    }
  }
});

// ---- runner ------------------------------------------------------------------------------

async function main() {
  if (!BASE_URL) {
    console.error('set BASE_URL to the server, e.g. BASE_URL=http://127.0.0.1:8080');
    console.log('web: 0 passed, 1 failed');
    process.exit(2);
  }
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
  let passed = 0;
  let failed = 0;
  // ONLY=regex runs the scenarios whose names match (while working on one page).
  const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
  try {
    for (const { name, fn } of scenarios.filter((sc) => !only || only.test(sc.name))) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const pageErrors = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      // A page that needs what the Content-Security-Policy forbids is broken in production.
      page.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) pageErrors.push(msg.text());
      });
      const started = Date.now();
      try {
        let timer;
        await Promise.race([
          fn(page),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`took over ${SCENARIO_TIMEOUT_MS / 1000} s`)), SCENARIO_TIMEOUT_MS);
          }),
        ]).finally(() => clearTimeout(timer));
        assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
        passed++;
        console.log(`ok   ${name} (${Date.now() - started} ms)`);
      } catch (err) {
        failed++;
        console.log(`FAIL ${name}\n     ${String(err.message).split('\n').join('\n     ')}`);
        await screenshot(page, `failed-${scenarios.findIndex((s) => s.name === name) + 1}`).catch(() => {});
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`web: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log('web: 0 passed, 1 failed');
  process.exit(1);
});
