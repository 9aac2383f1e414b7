import "server-only";
import { z } from "zod";
import { rows, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";

// Verifying the audit chains (prisma/migrations/20261203150000_audit_facts_chain): every fact of the
// four logs carries chain_seq, prev_hash and hash, set by the database as it is written. Verifying
// recomputes each hash from the fact's content with the same SQL function and checks each link,
// each chain's head, and the sealed checkpoints. Runs with timezone UTC: a fact's content renders
// its timestamps in the session's zone, and the trigger hashed them in UTC.

/** The four append-only logs whose rows are audit facts, and how each names its chain. */
const FACT_LOGS = [
  { log: "order_transitions", chainTenant: "f.tenant_id", chainOrder: "f.order_id" },
  { log: "grants", chainTenant: "f.tenant_id", chainOrder: "f.order_id" },
  { log: "order_notes", chainTenant: "f.tenant_id", chainOrder: "f.order_id" },
  { log: "audit_events", chainTenant: "coalesce(f.tenant_id, '')", chainOrder: "coalesce(f.order_id, 0)" },
] as const;

export type BrokenLink =
  /** The fact's content (or its stored hash) was changed after it was written. */
  | "content-changed"
  /** The fact does not point at the fact before it: one was removed, inserted or edited. */
  | "link-broken"
  /** A chain position is missing or doubled. */
  | "sequence-gap"
  /** The chain's head does not match its last fact: facts were cut off its end. */
  | "head-mismatch"
  /** A sealed checkpoint's head is no longer in its chain, or the checkpoints' own chain is broken. */
  | "checkpoint-mismatch";

export interface Broken {
  readonly why: BrokenLink;
  readonly log: string;
  readonly id: number;
  readonly tenantId: string;
  readonly orderId: number;
  readonly seq: number;
  readonly at: string | null;
}

const brokenRow = z.object({
  why: z.enum(["content-changed", "link-broken", "sequence-gap", "head-mismatch", "checkpoint-mismatch"]),
  log: z.string(),
  id: z.number(),
  tenantId: z.string(),
  orderId: z.number(),
  seq: z.number(),
  at: z.string().nullable(),
});

/**
 * Which facts to check: every chain (of one tenant), or given chains from a given position on. The
 * fact at `from_seq` anchors the range: its own link points outside it and is not checked again.
 */
type Span = { readonly kind: "all"; readonly tenant: string | null } | { readonly kind: "chains" };

/** The SQL of the first broken link within `span`. Parameters: $1 = tenant (all) or the chains' arrays. */
function firstBrokenSql(span: Span): string {
  const facts = FACT_LOGS.map(({ log, chainTenant, chainOrder }) =>
    span.kind === "chains"
      ? `SELECT '${log}'::text AS log, f.id, r.t AS chain_t, r.o AS chain_o, r.from_seq, f.chain_seq, f.prev_hash, f.hash,
                audit_fact_hash(f.prev_hash, to_jsonb(f)) AS recomputed, f.created_at
         FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[]) AS r(t, o, from_seq, to_seq)
         JOIN ${log} f ON ${chainTenant} = r.t AND ${chainOrder} = r.o AND f.chain_seq BETWEEN r.from_seq AND r.to_seq`
      : `SELECT '${log}'::text AS log, f.id, ${chainTenant} AS chain_t, ${chainOrder} AS chain_o, 1::bigint AS from_seq, f.chain_seq,
                f.prev_hash, f.hash, audit_fact_hash(f.prev_hash, to_jsonb(f)) AS recomputed, f.created_at
         FROM ${log} f WHERE f.chain_seq IS NOT NULL${span.tenant ? ` AND ${chainTenant} = $1` : ""}`,
  ).join("\nUNION ALL\n");
  const tails =
    span.kind === "chains"
      ? ""
      : `UNION ALL
         SELECT 'head-mismatch', 'audit_chain_tips', 0, h.tenant_id, h.order_id, h.seq, NULL
         FROM audit_chain_tips h
         LEFT JOIN LATERAL (SELECT chain_seq, hash FROM facts f WHERE f.chain_t = h.tenant_id AND f.chain_o = h.order_id
                            ORDER BY chain_seq DESC LIMIT 1) last ON true
         WHERE ${span.tenant ? "h.tenant_id = $1 AND " : ""}(last.chain_seq IS DISTINCT FROM h.seq OR last.hash IS DISTINCT FROM h.hash)
         UNION ALL
         SELECT 'head-mismatch', 'audit_chain_tips', 0, f.chain_t, f.chain_o, max(f.chain_seq), NULL
         FROM facts f WHERE NOT EXISTS (SELECT 1 FROM audit_chain_tips h WHERE h.tenant_id = f.chain_t AND h.order_id = f.chain_o)
         GROUP BY f.chain_t, f.chain_o
         UNION ALL
         SELECT 'checkpoint-mismatch', 'audit_checkpoints', c.id, s.t, s.o, s.seq, c.created_at
         FROM audit_checkpoints c CROSS JOIN LATERAL jsonb_to_recordset(c.heads) AS s(t text, o bigint, seq bigint, hash text)
         WHERE ${span.tenant ? "s.t = $1 AND " : ""}NOT EXISTS (SELECT 1 FROM facts f
           WHERE f.chain_t = s.t AND f.chain_o = s.o AND f.chain_seq = s.seq AND encode(f.hash, 'hex') = s.hash)`;
  return `WITH facts AS (${facts}),
     linked AS (
       SELECT *, lag(hash) OVER w AS expected_prev, lag(chain_seq) OVER w AS previous_seq
       FROM facts WINDOW w AS (PARTITION BY chain_t, chain_o ORDER BY chain_seq, log, id)
     ),
     problems AS (
       SELECT CASE WHEN hash IS DISTINCT FROM recomputed THEN 'content-changed'
                   WHEN chain_seq <> coalesce(previous_seq, from_seq - 1) + 1 THEN 'sequence-gap'
                   ELSE 'link-broken' END AS why,
              log, id, chain_t, chain_o, chain_seq, created_at
       FROM linked
       WHERE hash IS DISTINCT FROM recomputed
          OR chain_seq <> coalesce(previous_seq, from_seq - 1) + 1
          OR (previous_seq IS NOT NULL OR from_seq = 1) AND prev_hash IS DISTINCT FROM expected_prev
       ${tails}
     )
     SELECT why, log, id, chain_t AS "tenantId", chain_o AS "orderId", chain_seq AS seq,
            to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
     FROM problems ORDER BY created_at NULLS LAST, chain_t, chain_o, chain_seq LIMIT 1`;
}

export type Verification =
  | { readonly ok: true; readonly facts: number; readonly chains: number }
  | { readonly ok: false; readonly broken: Broken; readonly facts: number };

const countRow = z.object({ facts: z.number(), chains: z.number() });
const UTC = "SET LOCAL timezone = 'UTC'";

/**
 * Recomputes every chain (of one tenant, or all) and reports the first broken link: the earliest
 * fact whose hash, link or position is wrong, a head that no longer matches its chain's last fact,
 * or a sealed checkpoint whose head is gone. Reads everything: an operator's command, not a page.
 */
export async function verifyChains(options: { tenant?: string } = {}): Promise<Verification> {
  return transaction(
    async ({ client }) => {
      const params = options.tenant === undefined ? [] : [options.tenant];
      const [counts] = await rows(
        client,
        countRow,
        `SELECT coalesce(sum(seq), 0)::bigint AS facts, count(*)::bigint AS chains FROM audit_chain_tips${params.length ? " WHERE tenant_id = $1" : ""}`,
        params,
      );
      const facts = counts?.facts ?? 0;
      const [broken] = await rows(client, brokenRow, firstBrokenSql({ kind: "all", tenant: options.tenant ?? null }), params);
      if (broken) return { ok: false, broken, facts };
      const sealed = await brokenCheckpoint(client);
      if (sealed) return { ok: false, broken: sealed, facts };
      return { ok: true, facts, chains: counts?.chains ?? 0 };
    },
    { setLocal: [UTC] },
  );
}

/** The first broken link among the given chains' facts from each chain's `fromSeq` on. */
export async function firstBrokenIn(
  db: Queryable,
  chains: readonly { readonly tenantId: string; readonly orderId: number; readonly fromSeq: number; readonly toSeq: number }[],
): Promise<Broken | null> {
  if (chains.length === 0) return null;
  const [broken] = await rows(db, brokenRow, firstBrokenSql({ kind: "chains" }), [
    chains.map((c) => c.tenantId),
    chains.map((c) => c.orderId),
    chains.map((c) => c.fromSeq),
    chains.map((c) => c.toSeq),
  ]);
  return broken ?? null;
}

/** A checkpoint's hash: over the previous checkpoint's hash, its fact count and its sealed heads. */
export const CHECKPOINT_HASH_SQL = `sha256(coalesce(c.prev_hash, ''::bytea) || convert_to(c.facts::text || c.heads::text, 'UTF8'))`;

const checkpointRow = z.object({ id: z.number(), intact: z.boolean(), at: z.string() });

/** The checkpoints' own chain: each hash over its content and the previous checkpoint's hash. */
async function brokenCheckpoint(db: Queryable): Promise<Broken | null> {
  const all = await rows(
    db,
    checkpointRow,
    `SELECT id, to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
            coalesce(hash = ${CHECKPOINT_HASH_SQL} AND prev_hash IS NOT DISTINCT FROM lag(hash) OVER (ORDER BY id), false) AS intact
     FROM audit_checkpoints c ORDER BY id`,
  );
  const bad = all.find((c) => !c.intact);
  return bad ? { why: "checkpoint-mismatch", log: "audit_checkpoints", id: bad.id, tenantId: "", orderId: 0, seq: 0, at: bad.at } : null;
}

export { UTC as UTC_SESSION };
