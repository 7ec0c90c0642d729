-- The usage logs partitioned by month on "created_at" (unix seconds, UTC months), so that
-- log retention drops whole partitions instead of deleting rows (docs/operations.md, "Logs at
-- scale"). Partitions are named logs_pYYYYMM; logs_default takes any row outside them (rows
-- older than the first month made here, or a clock far ahead). The log maintenance job
-- (lib/logs/partitions.ts) keeps the next months made ahead.
--
-- A partitioned table's primary key must hold the partition key: it is ("id", "created_at").
-- "id" stays unique (one sequence numbers every row) and stays the model's id for Prisma,
-- which does not read the database's constraints at run time. The existing rows are copied
-- once, inside this migration's transaction: on a large table, plan the time of a copy.
ALTER TABLE "logs" RENAME TO "logs_unpartitioned";
ALTER TABLE "logs_unpartitioned" RENAME CONSTRAINT "logs_pkey" TO "logs_unpartitioned_pkey";
CREATE TABLE "logs" (LIKE "logs_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("created_at");
ALTER TABLE "logs" ADD CONSTRAINT "logs_pkey" PRIMARY KEY ("id", "created_at");
CREATE TABLE "logs_default" PARTITION OF "logs" DEFAULT;

DO $$
DECLARE
  now_month timestamptz := date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  oldest bigint;
  m timestamptz;
  r record;
BEGIN
  SELECT MIN("created_at") INTO oldest FROM "logs_unpartitioned";
  -- months from the oldest row's (at most three years back) to two months ahead
  m := GREATEST(
    COALESCE(date_trunc('month', to_timestamp(oldest) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', now_month),
    now_month - interval '36 months'
  );
  WHILE m <= now_month + interval '2 months' LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "logs" FOR VALUES FROM (%s) TO (%s)',
      'logs_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'),
      extract(epoch FROM m)::bigint,
      extract(epoch FROM m + interval '1 month')::bigint
    );
    m := m + interval '1 month';
  END LOOP;

  INSERT INTO "logs" SELECT * FROM "logs_unpartitioned";

  -- the same indexes as before, under the same names (made after the copy: faster)
  FOR r IN SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = 'logs_unpartitioned' AND indexname <> 'logs_unpartitioned_pkey'
  LOOP
    EXECUTE format('DROP INDEX %I', r.indexname);
    EXECUTE regexp_replace(r.indexdef, ' ON \S+ USING ', ' ON "logs" USING ');
  END LOOP;
END $$;

-- the sequence of "id" passes to the new table (dropping the old one would drop it)
ALTER SEQUENCE "logs_id_seq" OWNED BY NONE;
DROP TABLE "logs_unpartitioned";
ALTER SEQUENCE "logs_id_seq" OWNED BY "logs"."id";
ANALYZE "logs";
