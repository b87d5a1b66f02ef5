-- The renderer a book's interior is printed with (render::foxbook::InteriorVersion). Books
-- printed before version 2 keep version 1, so their PDFs keep their bytes and a print run
-- manifest's interior hash stays the hash of every later download. Books outside a print
-- run no longer store an interior hash (nothing reads it), so it may stay NULL.
ALTER TABLE books ADD COLUMN interior_version BIGINT NOT NULL DEFAULT 1;
