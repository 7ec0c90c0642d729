// A process that takes one cluster lease (lib/db/lease.ts) with the environment it is given
// (REDIS_URL and REDIS_PREFIX, or a PostgreSQL DATABASE_URL), prints "held" and keeps it
// until it is killed: the leader of tests/integration/lease-takeover.test.ts, which kills it
// with SIGKILL. Run with `TSX_TSCONFIG_PATH=tsconfig.server.json node --import tsx`.
import { withClusterLease } from "@/lib/db/lease";

async function main(): Promise<void> {
  const ttlMs = Number(process.env.LEASE_TTL_MS ?? "1000");
  const ran = await withClusterLease("rollups", ttlMs, async (lease) => {
    console.log("held");
    // renew well within the TTL, as a long round does, until killed
    for (;;) {
      await new Promise((r) => setTimeout(r, ttlMs / 4));
      if (!(await lease.renew())) break;
    }
  });
  console.log(ran ? "released" : "not held");
  process.exit(0);
}
void main();
