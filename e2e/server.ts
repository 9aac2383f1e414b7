// The browser tests' server: a fresh database with demo data and the demo staff, then `npm start`.
import { spawn } from "node:child_process";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import { closePool, getPool } from "@/lib/db/pool";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { seedDemoStaff } from "@/lib/seed/staff";
import { E2E_DATABASE_NAME, E2E_DATABASE_URL, E2E_SERVER_URL } from "./env";

const admin = new pg.Client({ connectionString: E2E_SERVER_URL });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${E2E_DATABASE_NAME}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${E2E_DATABASE_NAME}"`);
await admin.end();

process.env.DATABASE_URL = E2E_DATABASE_URL;
const client = await getPool().connect();
await migrate(client);
client.release();
await seedDemo(getPool(), { orders: 600, seed: 7 });
await seedDemoStaff(getPool());
await closePool();

const server = spawn("npm", ["start"], { stdio: "inherit", env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL } });
const stop = () => server.kill("SIGTERM");
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
server.once("exit", (code) => process.exit(code ?? 0));
