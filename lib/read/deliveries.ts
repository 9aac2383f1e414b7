import "server-only";
import { tenantChoices, type TenantChoice } from "@/lib/audit/queries/tenant-choices";
import { tenantsToRead } from "@/lib/audit/queries/filters";
import { can } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import { snapshot } from "@/lib/db/transaction";
import { resendRefusal, type ResendRefusal } from "@/lib/outbox/delivery-status";
import { DELIVERIES_PAGE_SIZE, parseDeliverySearch, type DeliveryCursor, type DeliveryField, type DeliveryFilters, type ParsedDeliverySearch } from "@/lib/deliveries/delivery-filters";
import { endpointHealth, type EndpointHealth } from "@/lib/deliveries/endpoint-health";
import { findDelivery, type DeliveryRecord } from "@/lib/deliveries/find-delivery";
import { listDeliveries, type DeliveryListRow } from "@/lib/deliveries/list-deliveries";
import type { FieldProblem } from "@/lib/problems";

// The deliveries pages' read models (issue 27): every outbox message of the caller's products, and
// one message with its attempts. What a delivery is now (queued, retrying, delivered, dead, not sent
// for want of a webhook) is derived once, by lib/outbox/delivery-status.ts; the page only words it.

export interface DeliveriesModel {
  readonly filters: DeliveryFilters;
  readonly raw: ParsedDeliverySearch["raw"];
  readonly invalid: readonly { readonly field: DeliveryField; readonly problem: FieldProblem }[];
  /** The products in the viewer's scope (none: the page says so and reads nothing else). */
  readonly tenants: readonly TenantChoice[];
  readonly rows: readonly DeliveryListRow[];
  /** The next, older page's position (null on the last page). */
  readonly older: DeliveryCursor | null;
  readonly firstPage: boolean;
  /** Per product and endpoint, from the attempts log: success rates, p95 latencies, failing since. */
  readonly health: readonly EndpointHealth[];
  /** The viewer may send test pings (the action checks again). */
  readonly mayTestSend: boolean;
}

/** The list at `query` (the page's own query string), in the viewer's products only. */
export async function readDeliveries(staff: Staff, query: string): Promise<DeliveriesModel> {
  const parsed = parseDeliverySearch(query);
  const tenants = await tenantChoices(staff.tenantIds);
  const read = tenantsToRead(staff.tenantIds, parsed.filters.tenant);
  const [page, health] = await snapshot(async ({ client }) => [
    await listDeliveries(client, { tenants: read, filters: parsed.filters, after: parsed.after, limit: DELIVERIES_PAGE_SIZE }),
    await endpointHealth(client, read, new Date()),
  ] as const);
  return { filters: parsed.filters, raw: parsed.raw, invalid: parsed.invalid, tenants, rows: page.rows, older: page.older, firstPage: parsed.after === null, health, mayTestSend: can(staff.role, "deliveries:send") && tenants.length > 0 };
}

export interface DeliveryModel {
  readonly message: DeliveryRecord;
  /** The viewer's role may send messages again (the action checks this and the message again). */
  readonly maySend: boolean;
  /** Why this message cannot be sent again now: on its way already, or a store's answer; null when it can. */
  readonly resendBlocked: ResendRefusal | null;
}

/** One message the scope rule (outboxMessageScope) found in the caller's products; null when gone since. */
export async function readDelivery(staff: Staff, message: { readonly id: number; readonly tenantId: string }): Promise<DeliveryModel | null> {
  const found = await snapshot(({ client }) => findDelivery(client, message.tenantId, message.id));
  if (!found) return null;
  return { message: found, maySend: can(staff.role, "deliveries:send"), resendBlocked: resendRefusal(found.topic, found.delivery) };
}
