// Each worker connection's session: the catalogue and scenarios as small temp tables, the per-chunk
// work tables (emptied at every commit) and seed_u, the seeded random function.
import type pg from "pg";
import { z } from "zod";
import { execute, rows } from "@/lib/db/sql";
import type { OrderState } from "@/lib/orders/machine";
import { DEMO_CATALOG, type DemoTenantId } from "../demo-catalog";
import type { TenantSpec } from "../tenants";
import { catalogRows, scenarioRows } from "./catalog-rows";
import { COORDINATOR } from "./delivery-keys";
import { SECOND_US } from "./sql-helpers";

export interface TenantRow {
  t: number;
  tenant_id: DemoTenantId;
  order_prefix: string;
  player_prefix: string;
  players: number;
  currency: string;
  refund_approval_amount: number;
  unpaid_us: number;
  dwell_created_us: number;
  dwell_paid_us: number;
  dwell_delivering_us: number;
  dwell_refunding_us: number;
  /** Delivered by the coordinator (delivery-keys.ts), not by the game server through the API. */
  managed: boolean;
  delivery_actor: string;
  delivery_source: string;
  /** The game server's keys (external delivery only). */
  delivery_key_prefix: string | null;
  grant_prefix: string | null;
}

const settingsRow = z.object({
  tenant_id: z.string(),
  unpaid_timeout_seconds: z.number(),
  max_dwell_seconds: z.record(z.string(), z.number()),
  refund_approval_amount: z.number(),
});

/** Reads the thresholds from tenant_settings (they may have been edited), falling back to the spec. */
export async function tenantRows(client: pg.PoolClient, specs: readonly TenantSpec[], total: number): Promise<TenantRow[]> {
  const settings = await rows(
    client,
    settingsRow,
    `SELECT tenant_id, unpaid_timeout_seconds, max_dwell_seconds, refund_approval_amount FROM tenant_settings
     WHERE tenant_id = ANY($1)`,
    [specs.map((s) => s.id)],
  );
  return specs.map((spec, index) => {
    const id = spec.id as DemoTenantId;
    const catalog = DEMO_CATALOG[id];
    const own = settings.find((r) => r.tenant_id === id);
    const unpaid = own?.unpaid_timeout_seconds ?? spec.unpaidTimeoutSeconds;
    const dwell = (state: OrderState, fallback: number): number =>
      (own?.max_dwell_seconds[state] ?? spec.maxDwellSeconds[state] ?? fallback) * SECOND_US;
    const delivery = catalog.delivery;
    return {
      t: index + 1,
      tenant_id: id,
      order_prefix: catalog.orderPrefix,
      player_prefix: catalog.playerPrefix,
      players: Math.max(10, Math.ceil((total * catalog.share) / catalog.ordersPerPlayer)),
      currency: spec.currency,
      refund_approval_amount: own?.refund_approval_amount ?? spec.refundApprovalAmount,
      unpaid_us: unpaid * SECOND_US,
      dwell_created_us: dwell("created", unpaid),
      dwell_paid_us: dwell("paid", 300),
      dwell_delivering_us: dwell("delivering", 600),
      dwell_refunding_us: dwell("refunding", 3 * 86_400),
      ...(delivery.mode === "managed"
        ? { managed: true, delivery_actor: COORDINATOR.actor, delivery_source: COORDINATOR.source, delivery_key_prefix: null, grant_prefix: null }
        : { managed: false, delivery_actor: delivery.actor, delivery_source: "api", delivery_key_prefix: delivery.bizKeyPrefix, grant_prefix: delivery.grantPrefix }),
    };
  });
}

/** Schema-qualified: an unqualified name could resolve to a real table of the same name. */
export const DROP_SESSION_OBJECTS = `DROP TABLE IF EXISTS pg_temp.seed_tenants, pg_temp.seed_products, pg_temp.seed_lines,
  pg_temp.seed_scenarios, pg_temp.seed_steps_def, pg_temp.seed_plan, pg_temp.seed_steps, pg_temp.seed_ev;
  DROP FUNCTION IF EXISTS pg_temp.seed_u(bigint, int)`;

export async function prepareSession(client: pg.PoolClient, seed: number, tenants: readonly TenantRow[]): Promise<void> {
  // Only settable before the session touches a temp table; the default 8MB would spill each chunk to disk.
  await execute(client, "SET temp_buffers = '128MB'").catch(() => undefined);
  await execute(client, DROP_SESSION_OBJECTS);
  await execute(
    client,
    `
    CREATE TEMP TABLE seed_tenants (t int PRIMARY KEY, tenant_id text, order_prefix text, player_prefix text,
      players int, currency text, refund_approval_amount int, unpaid_us bigint, dwell_created_us bigint, dwell_paid_us bigint,
      dwell_delivering_us bigint, dwell_refunding_us bigint, managed boolean, delivery_actor text, delivery_source text,
      delivery_key_prefix text, grant_prefix text);
    CREATE TEMP TABLE seed_products (t int, product int, code text, price int, stall_sku text, stall_refusal jsonb,
      PRIMARY KEY (t, product));
    CREATE TEMP TABLE seed_lines (t int, product int, line_no int, sku text, kind text, quantity int, disposition text,
      before_stall boolean, first_off float8, last_off float8, pos_scale float8);
    CREATE TEMP TABLE seed_scenarios (scenario int PRIMARY KEY, code text, final_state text, tail text, close_via text,
      delivery text, steps int, events text[]);
    CREATE TEMP TABLE seed_steps_def (scenario int, step int, event text, from_state text, to_state text, cycle int);
    CREATE TEMP TABLE seed_plan (i bigint, id bigint, t int, tenant_id text, order_no text, scenario int, product int, amount int,
      player_id text, channel text, manual_pay boolean, repaired boolean, split boolean, showcase boolean,
      created_at timestamptz, end_at timestamptz) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE seed_steps (id bigint, i bigint, step int, event text, from_state text, to_state text,
      at timestamptz, prev_at timestamptz, next_at timestamptz, biz_key text, actor text, source text, reason text)
      ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE seed_ev (id bigint, pay_at timestamptz, pay_next_at timestamptz, begin_at timestamptz,
      begin_next_at timestamptz, confirm_at timestamptz, confirm_prev_at timestamptz, refund_at timestamptz,
      refund_key text, refund_actor text, refund_source text, refund_reason text, close_at timestamptz)
      ON COMMIT DELETE ROWS;
    -- Uniform in [0, 1) from (order index, salt): a pure function of the seed, so runs repeat exactly.
    CREATE OR REPLACE FUNCTION pg_temp.seed_u(i bigint, salt int) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS 'SELECT (hashint8extended(i * 128 + salt, ${seed}) & 9007199254740991)::float8 / 9007199254740992';`,
  );

  const currency = Object.fromEntries(tenants.map((t) => [t.tenant_id, t.currency])) as Record<DemoTenantId, string>;
  const { products, lines } = catalogRows(currency);
  const { scenarios, steps } = scenarioRows();
  for (const [table, data] of [
    ["seed_tenants", tenants],
    ["seed_products", products],
    ["seed_lines", lines],
    ["seed_scenarios", scenarios],
    ["seed_steps_def", steps],
  ] as const) {
    await execute(client, `INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1::json)`, [JSON.stringify(data)]);
  }
}
