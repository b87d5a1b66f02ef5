-- The layout a job's files are printed with (`render::print::LayoutVersion`): a product is
-- always served with the layout it was made under, so its bytes never change. Jobs queued
-- before layouts were versioned printed with the first.
ALTER TABLE jobs ADD COLUMN layout_version BIGINT NOT NULL DEFAULT 1;
