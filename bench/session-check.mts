// The console session check's cost (docs/accounts-api.md, "Sessions"): N sequential
// GET /api/user/self with the session cookie (unseal, the in-memory session check, the user
// read) against N with the user's system access token (the user read by the token's hash, no
// session), interleaved in rounds, on the built server (dist/, SQLite). Loopback only.
//   npx tsx --tsconfig tsconfig.server.json bench/session-check.mts --n=1000 --rounds=3
import { ApiClient } from "../tests/support/client";
import { setupRoot } from "../tests/support/accounts";
import { startServer } from "../tests/support/server";

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const N = arg("n", 1000);
const ROUNDS = arg("rounds", 3);

async function loop(call: () => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const r = await call();
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`status ${r.status}`);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
const fmt = (s: number[]) => `mean ${(s.reduce((a, b) => a + b, 0) / s.length).toFixed(3)} ms, p50 ${pct(s, 50).toFixed(3)}, p95 ${pct(s, 95).toFixed(3)}`;

const server = await startServer();
try {
  const root: ApiClient = await setupRoot(server);
  const token = (await root.get<string>("/api/user/token")).data;
  const withSession = () => root.raw("GET", "/api/user/self");
  const withToken = () => fetch(`${server.url}/api/user/self`, { headers: { authorization: `Bearer ${token}`, "new-api-user": String(root.userId) } });
  await loop(withSession); // warm-up
  await loop(withToken);
  for (let round = 1; round <= ROUNDS; round++) {
    const order =
      round % 2
        ? ([
            ["session", withSession],
            ["token", withToken],
          ] as const)
        : ([
            ["token", withToken],
            ["session", withSession],
          ] as const);
    for (const [name, call] of order) console.log(`round ${round} ${name.padEnd(7)} ${N} calls: ${fmt(await loop(call))}`);
  }
} finally {
  await server.stop();
}
