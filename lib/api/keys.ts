import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";

// API keys: `oo_<id>_<secret>`. The id part finds the row; only a SHA-256 of the secret is stored.
// The secret has 256 bits of entropy, so a fast hash is enough (a slow one would only slow every
// API call): nobody can guess their way back from the hash.

const KEY_PATTERN = /^oo_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export interface ApiKeySummary {
  readonly id: number;
  readonly tenantId: string;
  readonly name: string;
  readonly prefix: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

/** Creates a key and returns it: the only time the full key is ever seen. */
export async function createApiKey(input: { tenantId: string; name: string; actor: string }): Promise<{ key: string; summary: ApiKeySummary }> {
  const prefix = randomBytes(6).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const tenant = await getPool().query(`SELECT 1 FROM tenants WHERE id = $1`, [input.tenantId]);
  if (tenant.rowCount === 0) throw new AppError("not-found", `unknown tenant ${input.tenantId}`);
  let summary: ApiKeySummary;
  try {
    const { rows } = await getPool().query<ApiKeySummary>(
      `INSERT INTO api_keys (tenant_id, name, prefix, secret_hash, created_by) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, tenant_id AS "tenantId", name, prefix, created_by AS "createdBy", created_at AS "createdAt",
                 last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`,
      [input.tenantId, input.name, prefix, hashSecret(secret), input.actor],
    );
    summary = rows[0]!;
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw new AppError("conflict", `tenant ${input.tenantId} already has a key named "${input.name}"`);
    }
    throw error;
  }
  await audit({ actor: input.actor, action: "apikey.created", target: `apikey:${prefix}`, tenantId: input.tenantId, detail: { name: input.name } });
  return { key: `oo_${prefix}_${secret}`, summary };
}

export async function listApiKeys(tenantIds: readonly string[]): Promise<ApiKeySummary[]> {
  const { rows } = await getPool().query<ApiKeySummary>(
    `SELECT id, tenant_id AS "tenantId", name, prefix, created_by AS "createdBy", created_at AS "createdAt",
            last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
     FROM api_keys WHERE tenant_id = ANY($1) ORDER BY tenant_id, created_at DESC`,
    [tenantIds],
  );
  return rows;
}

export async function revokeApiKey(input: { tenantIds: readonly string[]; prefix: string; actor: string }): Promise<void> {
  const { rows } = await getPool().query<{ tenantId: string }>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE prefix = $1 AND tenant_id = ANY($2) RETURNING tenant_id AS "tenantId"`,
    [input.prefix, input.tenantIds],
  );
  if (!rows[0]) throw new AppError("not-found", "No such API key.");
  await audit({ actor: input.actor, action: "apikey.revoked", target: `apikey:${input.prefix}`, tenantId: rows[0].tenantId });
}

export interface ApiCaller {
  readonly tenantId: string;
  readonly keyName: string;
  readonly prefix: string;
}

/** The caller behind `Authorization: Bearer <key>`, or null for a missing, malformed, unknown or revoked key. */
export async function authenticateApiKey(authorization: string | null): Promise<ApiCaller | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  const parts = match ? KEY_PATTERN.exec(match[1]!) : null;
  if (!parts) return null;
  const [, prefix, secret] = parts;
  // One round trip: look the key up and note its use. last_used_at is only written once a minute
  // per key, so a busy key does not turn every call into a write.
  const { rows } = await getPool().query<{ tenantId: string; name: string; secretHash: string }>(
    `WITH k AS (SELECT id, tenant_id, name, secret_hash, last_used_at FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL),
          touch AS (UPDATE api_keys SET last_used_at = now() WHERE id = (SELECT id FROM k)
                    AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute'))
     SELECT tenant_id AS "tenantId", name, secret_hash AS "secretHash" FROM k`,
    [prefix],
  );
  const row = rows[0];
  if (!row) return null;
  const given = Buffer.from(hashSecret(secret!), "hex");
  const stored = Buffer.from(row.secretHash, "hex");
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  return { tenantId: row.tenantId, keyName: row.name, prefix: prefix! };
}
