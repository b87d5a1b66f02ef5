// Book serial numbers: 10 Crockford base-32 data symbols plus a Damm check symbol.
// Mirrors src/puzzles/foxbook/serial.rs exactly; the algebra's constants are all here.
// No DOM use, so node can import this module too (the browser test does).

/** Crockford's base-32 alphabet: digits and letters without I, L, O, U. */
export const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const DATA_SYMBOLS = 10;
export const SERIAL_LEN = DATA_SYMBOLS + 1;

// The quasigroup is x∘y = α·x + y in GF(32), with the field built modulo x⁵ + x² + 1 and
// α = x. Addition is XOR; multiplying by x is a shift, reduced by the polynomial on overflow.
const FIELD_POLY = 0b100101; // x⁵ + x² + 1
const FIELD_SIZE = 32;

/** α·v in GF(32), with α = x. */
function timesAlpha(v) {
  const w = v << 1;
  return w & FIELD_SIZE ? w ^ FIELD_POLY : w;
}

/** The Damm state after reading `symbols` (values 0..31) from state 0. */
function damm(symbols) {
  return symbols.reduce((s, d) => timesAlpha(s) ^ d, 0);
}

// Typed look-alikes: I and L are read as 1, O as 0.
const LOOK_ALIKES = { I: '1', L: '1', O: '0' };

/**
 * Parses a serial typed by a person. Case, spaces and hyphens are ignored.
 * Returns {ok: true, serial, grouped} or {ok: false, kind, message} where kind is
 * 'empty', 'length', 'character' (malformed) or 'check' (well-formed but mistyped).
 */
export function parseSerial(input) {
  const symbols = [];
  const chars = Array.from(String(input));
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === '-' || /\s/.test(ch)) continue;
    // ASCII-only upper-casing, like Rust's to_ascii_uppercase.
    const upper = ch >= 'a' && ch <= 'z' ? ch.toUpperCase() : ch;
    const value = ALPHABET.indexOf(LOOK_ALIKES[upper] ?? upper);
    if (value < 0) {
      return {
        ok: false,
        kind: 'character',
        message: `Character ${i + 1} (“${ch}”) can’t be part of a serial number, which uses digits and the letters A–Z except U.`,
      };
    }
    symbols.push(value);
  }
  if (symbols.length === 0) {
    return { ok: false, kind: 'empty', message: 'Type the 11-character serial number printed on the book’s cover.' };
  }
  if (symbols.length !== SERIAL_LEN) {
    return {
      ok: false,
      kind: 'length',
      message: `A serial number has ${SERIAL_LEN} characters (spaces and hyphens aside); you typed ${symbols.length}.`,
    };
  }
  if (damm(symbols) !== 0) {
    return { ok: false, kind: 'check', message: 'That serial number looks mistyped — check each character.' };
  }
  const serial = symbols.map((v) => ALPHABET[v]).join('');
  return { ok: true, serial, grouped: groupSerial(serial) };
}

/** The canonical serial for 10 data symbol values (0..31): appends the check symbol. */
export function serialFromData(values) {
  if (values.length !== DATA_SYMBOLS || values.some((v) => !(v >= 0 && v < FIELD_SIZE))) {
    throw new RangeError(`expected ${DATA_SYMBOLS} symbol values in 0..31`);
  }
  // The check symbol c brings the state back to 0: α·s + c = 0 means c = α·s.
  const check = timesAlpha(damm(values));
  return [...values, check].map((v) => ALPHABET[v]).join('');
}

/** The printed form `ABCD-EFGH-JKM` of a canonical serial. */
export function groupSerial(serial) {
  return `${serial.slice(0, 4)}-${serial.slice(4, 8)}-${serial.slice(8)}`;
}
