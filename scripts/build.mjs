// `npm run build`: everything production runs, built once into the build directory (NEXT_DIST_DIR,
// default .next): the console (`next build`), then the entry points of the processes `npm start`
// runs — the supervisor, the web process, the worker and the CLI — bundled by esbuild into
// <build directory>/orderops/, so that nothing is compiled when they run. scripts/run.mjs calls
// ensureBuilt() before it starts any of them: the demo's one command still builds when the sources
// changed, and a deployment builds once and starts many times.
import { spawn } from "node:child_process";
import { createHash, hkdfSync, randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

export const BUILD_DIR = process.env.NEXT_DIST_DIR || ".next";
export const ENTRIES_DIR = path.join(BUILD_DIR, "orderops");
const RECORD = path.join(ENTRIES_DIR, "build.json");

/** The compiled entry points, by name (<build directory>/orderops/<name>.mjs), and their sources. */
const ENTRIES = {
  start: "scripts/start.ts",
  web: "lib/process/web-process.ts",
  worker: "lib/jobs/worker-main.ts",
  cli: "lib/cli/main.ts",
};

/**
 * What the web process's own bundle may hold besides its entry: the listener and its pure helpers.
 * Everything else of lib/ reaches it through Next's build (lib/api/serve.ts), so it is loaded once.
 */
const WEB_BUNDLE_MAY_HOLD = ["lib/process/web-process.ts", "lib/process/listener.ts", "lib/api/serve.ts", "lib/http/", "lib/auth/client-address.ts", "lib/log.ts"];

// ---------------------------------------------------------------------------------------------
// Secrets. Sessions are signed with NEXTAUTH_SECRET; server actions' ids are salted, and the values
// they close over encrypted, with NEXT_SERVER_ACTIONS_ENCRYPTION_KEY — at build time as well as at
// run time, so nodes built apart agree only when they were built with the same key. Both may be
// derived from one ORDEROPS_SECRET. A real database (DATABASE_URL) needs them set; the embedded
// demo makes its own secret once and keeps it in .data/.

const DEMO_SECRET_FILE = path.join(".data", "secret");
const SECRET_HINT = "set ORDEROPS_SECRET to the same random value on every node (make one with `openssl rand -base64 32`); both keys are derived from it";

/**
 * The session secret and the server-actions key this process must run (and build) with.
 * @param {Readonly<Record<string, string | undefined>>} env
 * @returns {Promise<{ NEXTAUTH_SECRET: string, NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: string }>}
 */
export async function resolveSecrets(env = process.env) {
  let secret = env.ORDEROPS_SECRET?.trim() || null;
  if (secret !== null && secret.length < 32) throw new Error(`ORDEROPS_SECRET is too short (${secret.length} characters): ${SECRET_HINT}`);
  if (secret === null && !env.DATABASE_URL) secret = await demoSecret();
  const derived = secret === null ? {} : deriveSecrets(secret);
  const keys = {
    NEXTAUTH_SECRET: env.NEXTAUTH_SECRET || derived.NEXTAUTH_SECRET,
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY || derived.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY,
  };
  const missing = Object.keys(keys).filter((name) => !keys[name]);
  if (missing.length > 0) throw new Error(`${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set, and DATABASE_URL is: ${SECRET_HINT}`);
  const bytes = Buffer.from(keys.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, "base64").length;
  if (![16, 24, 32].includes(bytes)) throw new Error("NEXT_SERVER_ACTIONS_ENCRYPTION_KEY must be 16, 24 or 32 bytes in base64 (`openssl rand -base64 32`)");
  return keys;
}

/**
 * Two independent keys from one secret (HKDF-SHA256, one label each).
 * @param {string} secret
 */
export function deriveSecrets(secret) {
  const key = (label) => Buffer.from(hkdfSync("sha256", secret, "", `orderops ${label}`, 32));
  return { NEXTAUTH_SECRET: key("session").toString("base64url"), NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key("server-actions").toString("base64") };
}

async function demoSecret() {
  const existing = (await readFile(DEMO_SECRET_FILE, "utf8").catch(() => "")).trim();
  if (existing) return existing;
  await mkdir(path.dirname(DEMO_SECRET_FILE), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  await writeFile(DEMO_SECRET_FILE, secret, { mode: 0o600 });
  return secret;
}

// ---------------------------------------------------------------------------------------------
// Is the build current? A build is reused while the sources' contents are those it was built from
// (contents, not times: two machines' clones of one commit get one build id) and, for the console,
// its server-actions key is the one this process runs with.

const SOURCES = ["app", "components", "lib", "messages", "public", "scripts", "prisma/schema.prisma", "proxy.ts", "next.config.mjs", "postcss.config.mjs", "tsconfig.json", "global.d.ts", "package-lock.json"];
const SKIP = /(^|\/)(generated|node_modules)(\/|$)|\.test\.ts$/;

async function sourceHash() {
  const hash = createHash("sha256");
  const visit = async (entry) => {
    if (SKIP.test(entry)) return;
    const children = await readdir(entry).catch((error) => (error.code === "ENOTDIR" ? null : Promise.reject(error)));
    if (children === null) {
      hash.update(`${entry}\0`).update(await readFile(entry)).update("\0");
      return;
    }
    for (const child of children.sort()) await visit(path.posix.join(entry, child));
  };
  for (const source of SOURCES) await visit(source).catch((error) => (error.code === "ENOENT" ? undefined : Promise.reject(error)));
  return hash.digest("hex");
}

const fingerprint = (key) => createHash("sha256").update(`orderops actions key\0${key}`).digest("hex").slice(0, 16);

async function readRecord() {
  try {
    return JSON.parse(await readFile(RECORD, "utf8"));
  } catch {
    return null;
  }
}

/**
 * Makes the build current for `target`: "console" needs Next's build and the entries, anything else
 * the entries alone (esbuild, about a second).
 */
export async function ensureBuilt(target, { actionsKey, log = () => {} }) {
  const sources = await sourceHash();
  const record = await readRecord();
  const entriesCurrent = record?.sources === sources;
  if (target === "console" && !(entriesCurrent && record.console?.actionsKey === fingerprint(actionsKey))) {
    log(record === null ? "building the console (first start)" : "sources or keys changed: building the console");
    await buildConsole({ sources, actionsKey });
  } else if (!entriesCurrent) {
    await buildEntries();
    await writeRecord({ sources, console: null });
  }
}

async function buildConsole({ sources, actionsKey }) {
  const started = performance.now();
  await run(process.execPath, [nextBin(), "build"], {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: BUILD_DIR,
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: actionsKey,
    ORDEROPS_BUILD_ID: sources.slice(0, 20),
  });
  // After `next build`, which empties its directory first.
  await buildEntries();
  await writeRecord({ sources, console: { actionsKey: fingerprint(actionsKey) } });
  process.stdout.write(`built in ${((performance.now() - started) / 1000).toFixed(1)} s into ${BUILD_DIR}\n`);
}

/** Bundles the entry points: our sources in, packages from node_modules left to Node. */
async function buildEntries() {
  const result = await esbuild.build({
    entryPoints: ENTRIES,
    outdir: ENTRIES_DIR,
    // .mjs: Next marks its build directory CommonJS (.next/package.json).
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    // Where a bundled module ends up, relative paths it computes from import.meta.url change: none
    // of ours do (the Prisma client only sets __dirname, which it does not use with its wasm inlined).
  });
  // The web entry and the shared chunks it imports: every source file in them must be allowed.
  const { outputs } = result.metafile;
  const web = Object.values(outputs).find((output) => output.entryPoint === ENTRIES.web);
  const chunks = [web, ...(web?.imports ?? []).filter((i) => i.kind === "import-statement").map((i) => outputs[i.path])];
  const strays = chunks.flatMap((chunk) => Object.keys(chunk?.inputs ?? {})).filter((input) => !WEB_BUNDLE_MAY_HOLD.some((allowed) => input.startsWith(allowed)));
  if (strays.length > 0) throw new Error(`the web process's bundle must take lib/ from Next's build, but it holds ${[...new Set(strays)].join(", ")}`);
}

async function writeRecord(record) {
  await mkdir(ENTRIES_DIR, { recursive: true });
  await writeFile(RECORD, JSON.stringify(record, null, 2));
}

function nextBin() {
  return path.join("node_modules", "next", "dist", "bin", "next");
}

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.once("error", reject);
    child.once("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${path.basename(args[0] ?? command)} ${args[1] ?? ""} failed (${signal ?? `exit code ${code}`})`))));
  });
}

// `npm run build`
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const keys = await resolveSecrets();
    await ensureBuilt("console", { actionsKey: keys.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, log: (line) => process.stdout.write(`${line}\n`) });
    process.stdout.write(`${BUILD_DIR} is current\n`);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
