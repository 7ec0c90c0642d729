// npm run rollups:rebuild: writes the hourly rollups (log_rollups) afresh from the logs of the
// configured database (DATABASE_URL, else DATA_DIR's SQLite file, as the server chooses in
// lib/env.ts), in one transaction: for a database restored from a backup or logs imported
// by hand (docs/dashboard.md). Applies pending migrations first. Exit code 0: rebuilt; 2: failed.
import { migrate } from "@/lib/db/migrate";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { rebuildRollups } from "@/lib/rollups/maintain";

async function main(): Promise<number> {
  await migrate();
  const started = Date.now();
  const r = await rebuildRollups();
  console.log(`rollups rebuilt (${env().databaseKind}): ${r.rows} hourly rows from the logs up to id ${r.last_log_id}, ${Date.now() - started} ms`);
  return 0;
}

main()
  .catch((err: unknown) => {
    console.error("rollups rebuild failed:", err instanceof Error ? err.message : String(err));
    return 2;
  })
  .then(async (code) => {
    await db()
      .$disconnect()
      .catch(() => {});
    const { pgPool } = await import("@/lib/db/raw");
    if (env().databaseKind === "postgresql")
      await pgPool()
        .end()
        .catch(() => {});
    process.exit(code);
  });
