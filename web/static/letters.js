// Drawing one page of a Find-the-Fox book as an SVG grid of letters.
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
const MARGIN = 24; // room for the row and column numbers

/**
 * An SVG of `rows` (strings of letters). `fox` lists the 1-based [row, col] cells to
 * highlight, in reading order; they get class `fox`.
 */
export function letterPage(rows, { page, fox = [] } = {}) {
  const height = rows.length;
  const width = Math.max(0, ...rows.map((r) => r.length));
  const foxAt = new Map(fox.map(([r, c], i) => [`${r},${c}`, i]));
  const w = MARGIN + width * CELL + 4;
  const hgt = MARGIN + height * CELL + 4;
  const label = fox.length
    ? `Page ${page}: ${height} rows of ${width} letters, with the fox highlighted`
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
  svg.style.minWidth = `${Math.min(w, MARGIN + width * 15)}px`;
  const center = (r, c) => [MARGIN + (c - 0.5) * CELL, MARGIN + (r - 0.5) * CELL];

  for (let c = 1; c <= width; c++) {
    const [x] = center(1, c);
    svg.append(s('text', { class: 'index', x, y: MARGIN - 8, 'text-anchor': 'middle' }, c));
  }
  for (let r = 1; r <= height; r++) {
    const [, y] = center(r, 1);
    svg.append(s('text', { class: 'index', x: MARGIN - 6, y: y + 4, 'text-anchor': 'end' }, r));
  }
  rows.forEach((line, i) => {
    const r = i + 1;
    Array.from(line).forEach((letter, j) => {
      const c = j + 1;
      const [x, y] = center(r, c);
      const order = foxAt.get(`${r},${c}`);
      const isFox = order !== undefined;
      svg.append(
        s(
          'g',
          { class: isFox ? 'cell fox' : 'cell', 'data-row': r, 'data-col': c, 'data-order': isFox ? order + 1 : null },
          isFox ? s('rect', { x: x - CELL / 2 + 1, y: y - CELL / 2 + 1, width: CELL - 2, height: CELL - 2, rx: 5 }) : null,
          s('text', { class: 'letter', x, y: y + 6, 'text-anchor': 'middle' }, letter),
        ),
      );
    });
  });
  // A translucent band over the three letters, like a pencil ring in a word search.
  if (fox.length > 1) {
    const [x1, y1] = center(...fox[0]);
    const [x2, y2] = center(...fox[fox.length - 1]);
    svg.append(s('line', { class: 'fox-line', x1, y1, x2, y2 }));
  }
  return svg;
}
