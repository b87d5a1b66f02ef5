-- How a book is printed, chosen at order time: the trim (its JSON form: "letter", "6x9",
-- … or {"width_in": w, "height_in": h}), the title, and the address where readers look
-- the answer up (printed with the serial).
ALTER TABLE books ADD COLUMN trim_size TEXT NOT NULL DEFAULT '"letter"';
ALTER TABLE books ADD COLUMN title TEXT NOT NULL DEFAULT 'Find the Fox';
ALTER TABLE books ADD COLUMN lookup_url TEXT NOT NULL DEFAULT '';
