// Generates the two Prisma clients (SQLite and PostgreSQL) from the one schema source.
// Runs on `npm install`/`npm ci` (postinstall) and needs no network.
import { execFileSync } from "node:child_process";
import { writePostgresSchema } from "./prisma-variants.mjs";

const env = { ...process.env, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" };
const prisma = ["node_modules/prisma/build/index.js", "generate"];
writePostgresSchema();
execFileSync(process.execPath, prisma, { stdio: "inherit", env: { ...env, PRISMA_PROVIDER: "sqlite" } });
execFileSync(process.execPath, prisma, { stdio: "inherit", env: { ...env, PRISMA_PROVIDER: "postgresql" } });
