-- What a publisher prints about a book besides its title, chosen at order time and each
-- optional (NULL: not printed): the author, the copyright line and the ISBN (normalised:
-- 10 or 13 characters without hyphens).
ALTER TABLE books ADD COLUMN author TEXT;
ALTER TABLE books ADD COLUMN copyright TEXT;
ALTER TABLE books ADD COLUMN isbn TEXT;
