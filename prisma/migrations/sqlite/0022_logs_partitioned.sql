-- PostgreSQL only: the usage logs partitioned by month (prisma/migrations/postgresql/0022_logs_partitioned.sql).
-- SQLite has no partitions: log retention deletes in bounded batches there (docs/operations.md, "Logs at scale").
SELECT 1;
