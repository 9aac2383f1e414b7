import { mkdtemp, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deriveSecrets, resolveSecrets } from "@/scripts/build.mjs";

// The secrets every node must share (scripts/build.mjs): required with a real database, derived
// from one ORDEROPS_SECRET, made once by the embedded demo.

const SECRET = "a-long-enough-secret-for-the-tests-0123456789";
const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

describe("resolveSecrets", () => {
  it("derives the session secret and a 32-byte server-actions key from ORDEROPS_SECRET, the same on every node", async () => {
    const keys = await resolveSecrets({ DATABASE_URL: "postgresql://db/x", ORDEROPS_SECRET: SECRET });
    expect(keys).toEqual(deriveSecrets(SECRET));
    expect(Buffer.from(keys.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, "base64")).toHaveLength(32);
    expect(keys.NEXTAUTH_SECRET).not.toBe(keys.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY);
    expect(deriveSecrets(`${SECRET}!`).NEXTAUTH_SECRET).not.toBe(keys.NEXTAUTH_SECRET);
  });

  it("refuses a real database without them, naming what is missing and how to make it", async () => {
    await expect(resolveSecrets({ DATABASE_URL: "postgresql://db/x" })).rejects.toThrow(
      /NEXTAUTH_SECRET and NEXT_SERVER_ACTIONS_ENCRYPTION_KEY are not set, and DATABASE_URL is: set ORDEROPS_SECRET .*openssl rand -base64 32/,
    );
    await expect(resolveSecrets({ DATABASE_URL: "postgresql://db/x", NEXTAUTH_SECRET: "given" })).rejects.toThrow(/^NEXT_SERVER_ACTIONS_ENCRYPTION_KEY is not set/);
    await expect(resolveSecrets({ DATABASE_URL: "postgresql://db/x", ORDEROPS_SECRET: "short" })).rejects.toThrow(/ORDEROPS_SECRET is too short/);
    await expect(resolveSecrets({ DATABASE_URL: "postgresql://db/x", NEXTAUTH_SECRET: "given", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "c2hvcnQ=" })).rejects.toThrow(/16, 24 or 32 bytes/);
  });

  it("takes variables given explicitly over derived ones", async () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(await resolveSecrets({ DATABASE_URL: "postgresql://db/x", NEXTAUTH_SECRET: "given", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key })).toEqual({
      NEXTAUTH_SECRET: "given",
      NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key,
    });
  });

  it("makes the embedded demo's secret once, readable by its owner only, and keeps it", async () => {
    process.chdir(await mkdtemp(path.join(os.tmpdir(), "orderops-secrets-")));
    const first = await resolveSecrets({});
    const file = path.join(".data", "secret");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(first).toEqual(deriveSecrets((await readFile(file, "utf8")).trim()));
    expect(await resolveSecrets({})).toEqual(first);
  });
});
