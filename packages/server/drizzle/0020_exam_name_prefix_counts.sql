-- Live exams per organization and short name prefix (one or two characters), for the study
-- list's count of a short name search (see exam_name_prefixes below and exams.list.filters.ts).
CREATE TABLE "exam_name_prefix_counts" (
	"bucket_id" text NOT NULL,
	"prefix" text NOT NULL,
	"live" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "exam_name_prefix_counts_bucket_id_prefix_pk" PRIMARY KEY("bucket_id","prefix")
);
--> statement-breakpoint
ALTER TABLE "exam_name_prefix_counts" ADD CONSTRAINT "exam_name_prefix_counts_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The prefixes an exam is counted under: the first one and two characters of its name key (the
-- name as searched: lower case, without ^ and spaces) and, where letters, of its pinyin initials,
-- each once. A search of one or two characters matches an exam exactly when it is one of these
-- (exams.list.filters.ts: a key of letters matches the name key or the initials, any other the
-- name key alone).
CREATE FUNCTION "exam_name_prefixes"(name text, initials text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT p FROM unnest(ARRAY[
    left(lower(replace(replace(name, '^', ''), ' ', '')), 1),
    left(lower(replace(replace(name, '^', ''), ' ', '')), 2),
    CASE WHEN left(initials, 1) ~ '^[a-z]+$' THEN left(initials, 1) END,
    CASE WHEN left(initials, 2) ~ '^[a-z]+$' THEN left(initials, 2) END
  ]) AS p WHERE p <> ''
$$;
--> statement-breakpoint
CREATE FUNCTION "exam_name_prefix_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows in a fixed order, so that two writers lock the counters they share in the same order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO exam_name_prefix_counts (bucket_id, prefix, live)
      SELECT r.bucket_id, p, count(*) FROM new_rows r, exam_name_prefixes(r.patient_name, r.patient_name_pinyin) p
      WHERE r.deleted_time IS NULL GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (bucket_id, prefix) DO UPDATE SET live = exam_name_prefix_counts.live + excluded.live;
  ELSE
    UPDATE exam_name_prefix_counts c SET live = c.live - d.n
      FROM (SELECT r.bucket_id, p AS prefix, count(*) AS n
            FROM old_rows r, exam_name_prefixes(r.patient_name, r.patient_name_pinyin) p
            WHERE r.deleted_time IS NULL GROUP BY 1, 2) d
      WHERE c.bucket_id = d.bucket_id AND c.prefix = d.prefix;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "exam_name_prefix_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.deleted_time IS NULL THEN
    UPDATE exam_name_prefix_counts SET live = live - 1
      WHERE bucket_id = OLD.bucket_id
        AND prefix IN (SELECT exam_name_prefixes(OLD.patient_name, OLD.patient_name_pinyin));
  END IF;
  IF NEW.deleted_time IS NULL THEN
    INSERT INTO exam_name_prefix_counts (bucket_id, prefix, live)
      SELECT NEW.bucket_id, p, 1 FROM exam_name_prefixes(NEW.patient_name, NEW.patient_name_pinyin) p ORDER BY 2
      ON CONFLICT (bucket_id, prefix) DO UPDATE SET live = exam_name_prefix_counts.live + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exams_name_prefix_insert" AFTER INSERT ON "exams" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_name_prefix_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "exams_name_prefix_delete" AFTER DELETE ON "exams" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_name_prefix_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "exams_name_prefix_update" AFTER UPDATE OF "patient_name", "patient_name_pinyin", "deleted_time", "bucket_id" ON "exams"
  FOR EACH ROW
  WHEN (OLD.patient_name IS DISTINCT FROM NEW.patient_name
    OR OLD.patient_name_pinyin IS DISTINCT FROM NEW.patient_name_pinyin
    OR (OLD.deleted_time IS NULL) <> (NEW.deleted_time IS NULL)
    OR OLD.bucket_id IS DISTINCT FROM NEW.bucket_id)
  EXECUTE FUNCTION exam_name_prefix_counts_move();
--> statement-breakpoint
INSERT INTO "exam_name_prefix_counts" ("bucket_id", "prefix", "live")
  SELECT e.bucket_id, p, count(*) FROM "exams" e, exam_name_prefixes(e.patient_name, e.patient_name_pinyin) p
  WHERE e.deleted_time IS NULL GROUP BY 1, 2;
