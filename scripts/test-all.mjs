// `npm test`: everything the project checks, in order. Lints and checks the format, then builds the production server
// (integration and browser tests run against dist/server.mjs), makes sure the browser and
// the local PostgreSQL and Redis are there, then runs every vitest project.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const run = (cmd) => execSync(cmd, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" } });
const quiet = (cmd) => spawnSync("bash", ["-c", cmd], { stdio: "ignore" }).status === 0;

// Debian's Chromium and a CJK font for the browser tests (never a downloaded browser).
if (!existsSync("/usr/bin/chromium") || !quiet("fc-list | grep -qi wenquanyi")) {
  if (process.getuid?.() === 0) run("apt-get update && apt-get install -y chromium fonts-wqy-microhei");
  else console.warn("chromium or fonts-wqy-microhei missing: apt-get install -y chromium fonts-wqy-microhei");
}
// The integration suite runs on PostgreSQL too, and the multi-node tests use Redis.
if (!quiet("pg_isready -q -h 127.0.0.1 -p 5432")) quiet("pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start");
if (!quiet("redis-cli -h 127.0.0.1 ping")) {
  quiet('redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no');
}

run("npm run lint");
run("npm run format:check");
run("npm run build");
run("npx vitest run");
