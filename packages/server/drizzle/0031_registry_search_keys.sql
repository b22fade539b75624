-- The registry search box's keys (issue 22, registry-search.store.ts): each character and each two
-- adjacent characters of the lower-cased name, and 'p:' + each prefix of the pinyin initials (3
-- characters or more, so never equal to a name's key). Immutable: the generated column below keeps it.
CREATE FUNCTION registry_search_keys(name text, pinyin text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT k), '{}'::text[]) FROM (
    SELECT substr(lower(name), i, 1) AS k FROM generate_series(1, char_length(name)) AS i
    UNION ALL
    SELECT substr(lower(name), i, 2) FROM generate_series(1, char_length(name) - 1) AS i
    UNION ALL
    SELECT 'p:' || substr(lower(pinyin), 1, i) FROM generate_series(1, char_length(pinyin)) AS i
  ) AS keys
$$;--> statement-breakpoint
ALTER TABLE "registry_patients" ADD COLUMN "search_keys" text[] GENERATED ALWAYS AS (registry_search_keys(name, name_pinyin)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "registry_patients_search_keys_idx" ON "registry_patients" USING gin ("search_keys");