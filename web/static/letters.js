// Drawing one page of a Find-the-Fox book (or Find the Cat, on a heart…) as an SVG grid of
// letters.
import { s } from '/static/app.js';

/** Row and column steps of each reading direction. */
export const DIRECTIONS = {
  right: [0, 1],
  left: [0, -1],
  down: [1, 0],
  up: [-1, 0],
  'down-right': [1, 1],
  'down-left': [1, -1],
  'up-right': [-1, 1],
  'up-left': [-1, -1],
};

const CELL = 26;
const MARGIN = 24; // room for the guide numbers on every side, as in the printed book

/**
 * An SVG of `rows` (strings of letters), drawn as the book prints it: the grid's typeface
 * (DejaVu Sans Mono), row and column numbers on all four sides; a space is a cell outside
 * the page's shape, left blank. `fox` lists the 1-based [row, col] cells of the word in
 * reading order: they are bold and outlined by a loop, as in the answer key, and get class
 * `fox`; `word` names it for screen readers.
 */
export function letterPage(rows, { page, fox = [], word = 'FOX' } = {}) {
  const height = rows.length;
  const width = Math.max(0, ...rows.map((r) => r.length));
  const foxAt = new Map(fox.map(([r, c], i) => [`${r},${c}`, i]));
  const w = 2 * MARGIN + width * CELL;
  const hgt = 2 * MARGIN + height * CELL;
  const label = fox.length
    ? `Page ${page}: ${height} rows of ${width} letters, with ${word === 'FOX' ? 'the fox' : word} outlined`
    : `Page ${page}: ${height} rows of ${width} letters`;
  const svg = s('svg', {
    viewBox: `0 0 ${w} ${hgt}`,
    width: w,
    role: 'img',
    'aria-label': label,
    'data-page': page,
  });
  // Shrink to fit a phone, but not below 15 px a letter: wider pages scroll sideways.
  svg.style.maxWidth = `${w}px`;
  svg.style.minWidth = `${Math.min(w, 2 * MARGIN + width * 15)}px`;
  const center = (r, c) => [MARGIN + (c - 0.5) * CELL, MARGIN + (r - 0.5) * CELL];
  const guide = (x, y, text) => s('text', { class: 'index', x, y: y + 3.5, 'text-anchor': 'middle' }, text);

  for (let c = 1; c <= width; c++) {
    const [x] = center(1, c);
    svg.append(guide(x, MARGIN / 2, c), guide(x, hgt - MARGIN / 2, c));
  }
  for (let r = 1; r <= height; r++) {
    const [, y] = center(r, 1);
    svg.append(guide(MARGIN / 2, y, r), guide(w - MARGIN / 2, y, r));
  }
  rows.forEach((line, i) => {
    const r = i + 1;
    Array.from(line).forEach((letter, j) => {
      if (letter === ' ') return;
      const c = j + 1;
      const [x, y] = center(r, c);
      const order = foxAt.get(`${r},${c}`);
      const isFox = order !== undefined;
      svg.append(
        s(
          'g',
          { class: isFox ? 'cell fox' : 'cell', 'data-row': r, 'data-col': c, 'data-order': isFox ? order + 1 : null },
          s('text', { class: 'letter', x, y: y + 6, 'text-anchor': 'middle' }, letter),
        ),
      );
    });
  });
  // The loop around the word, as the answer key draws it: a stadium from the first letter
  // to the last, so it reads in black and white.
  if (fox.length > 1) {
    const [x1, y1] = center(...fox[0]);
    const [x2, y2] = center(...fox[fox.length - 1]);
    const length = Math.hypot(x2 - x1, y2 - y1);
    const angle = (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI;
    const r = CELL * 0.46;
    svg.append(
      s('rect', {
        class: 'fox-loop',
        x: -length / 2 - r,
        y: -r,
        width: length + 2 * r,
        height: 2 * r,
        rx: r,
        transform: `translate(${(x1 + x2) / 2} ${(y1 + y2) / 2}) rotate(${angle})`,
      }),
    );
  }
  return svg;
}
