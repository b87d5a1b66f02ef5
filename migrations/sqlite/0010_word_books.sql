-- Books of any word: the word, the letters its pages are made of, and the pages' shape (JSON:
-- a built-in shape's name, "heart", or the mask's rows). Earlier rows are FOX books. The
-- packed pages move to `packed`, so that `letters` means what it means in the API.
ALTER TABLE books RENAME COLUMN letters TO packed;
ALTER TABLE books ADD COLUMN word TEXT NOT NULL DEFAULT 'FOX';
ALTER TABLE books ADD COLUMN letters TEXT NOT NULL DEFAULT 'FOX';
ALTER TABLE books ADD COLUMN shape TEXT NOT NULL DEFAULT '"rectangle"';
