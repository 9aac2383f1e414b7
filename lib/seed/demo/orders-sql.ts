/** Each order in its final state; version is the number of transitions, state_at the last one's time. */
export const ORDERS_SQL = `
    INSERT INTO orders (id, tenant_id, order_no, player_id, amount, currency, state, state_at, version, created_at, updated_at)
    SELECT p.id, p.tenant_id, p.order_no,
      p.player_id, p.amount, tn.currency, sc.final_state, p.end_at, sc.steps, p.created_at, p.end_at
    FROM seed_plan p JOIN seed_tenants tn ON tn.t = p.t JOIN seed_scenarios sc ON sc.scenario = p.scenario
    ORDER BY p.id`;

export const LINES_SQL = `
    INSERT INTO order_lines (tenant_id, order_id, sku, kind, quantity)
    SELECT p.tenant_id, p.id, l.sku, l.kind, l.quantity
    FROM seed_plan p JOIN seed_lines l ON l.t = p.t AND l.product = p.product
    ORDER BY p.id, l.line_no`;
