import { DAY_US, HOUR_US, MINUTE_US, SECOND_US, u } from "./sql-helpers";

/** The SQL expressions gapSql reads, so the plan and the history can each pass their own columns. */
export interface GapColumns {
  readonly i: string;
  readonly step: string;
  readonly event: string;
  readonly manualPay: string;
  readonly repaired: string;
  readonly closeVia: string;
  readonly unpaidUs: string;
}

/**
 * The delay before each step, in microseconds: payment within minutes (a manual confirmation
 * hours later), delivery in seconds (a repair hours later), a refund request minutes to days after
 * the last step and the channel's answer within three days. The timeout job closes just after the
 * tenant's unpaid timeout; an agent closes before it.
 *
 * The plan sums it to place the order in time and the history sums it again per step: both must
 * call it with the same salts, or the last transition would not land on the order's state_at.
 */
export function gapSql(c: GapColumns): string {
  const r = u(c.i, `16 + ${c.step}`);
  return `floor(CASE ${c.event}
    WHEN 'pay' THEN CASE WHEN ${c.manualPay} THEN ${10 * MINUTE_US} + ${r} * ${2 * HOUR_US} ELSE ${3 * SECOND_US} + ${r} * ${170 * SECOND_US} END
    WHEN 'begin-delivery' THEN 50000 + ${r} * ${2 * SECOND_US}
    WHEN 'confirm-delivery' THEN CASE WHEN ${c.repaired} THEN ${30 * MINUTE_US} + ${r} * ${4 * HOUR_US} ELSE 300000 + ${r} * ${r} * ${30 * SECOND_US} END
    WHEN 'request-refund' THEN ${10 * MINUTE_US} + ${r} * ${r} * ${10 * DAY_US}
    WHEN 'close' THEN CASE WHEN ${c.closeVia} = 'job' THEN ${c.unpaidUs} + ${5 * SECOND_US} + ${r} * ${2 * MINUTE_US}
                           ELSE ${MINUTE_US} + ${r} * 0.8 * ${c.unpaidUs} END
    ELSE ${30 * MINUTE_US} + ${r} * ${3 * DAY_US}
  END)::bigint`;
}
