// Helpers shared by the book pages (find, order, view).
import { api } from '/static/app.js';

/** Why a book did not print, as a sentence: its own error, else its job's. */
export async function bookFailure(book) {
  let reason = book.error;
  const job = book.job || book.links?.job;
  if (!reason && job) {
    try {
      reason = (await api(job)).body.error;
    } catch {
      // The book's state is enough to go on.
    }
  }
  const what = book.state === 'cancelled' ? 'The printing of this book was cancelled' : 'This book could not be printed';
  return reason ? `${what}: ${String(reason).trim().replace(/[.\s]+$/, '')}.` : `${what}.`;
}

/** The answer link's words: "Where is the fox?", "Where is the CAT?". */
export const whereIs = (word = 'FOX') => (word === 'FOX' ? 'Where is the fox?' : `Where is the ${word}?`);

/** The links a printed book offers. */
export function bookLinks(serial, paper = 'white') {
  return {
    book: `/books/${serial}/book.pdf`,
    cover: `/books/${serial}/cover.pdf?paper=${paper}`,
    answer: `/books/${serial}/answer.pdf`,
    viewer: `/books/${serial}/view`,
    find: `/?serial=${serial}`,
  };
}
