// Who may do what: the one permission table. Pages, server actions and route handlers name a
// permission; nothing checks a role by hand. Pure data.
import type { OrderEvent } from "@/lib/orders/machine";

export const ROLES = ["agent", "ops", "manager", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "profile:edit",
  "orders:view",
  "orders:event",
  "orders:grant",
  "orders:bulk",
  "audit:view",
  "audit:export",
  "refunds:approve",
  "settings:edit",
  "users:manage",
  "apikeys:manage",
  /** Cases (issue 13): take, assign and resolve exceptions; dismiss the ones about goods. */
  "cases:work",
  /** Dismiss a case about money (nothing is refunded or applied): a manager's call. */
  "cases:dismiss-money",
  /** Work a case someone else has taken (reassigning is open to everyone who works cases). */
  "cases:override",
  /** Shares a saved view of the orders list with a product's staff. */
  "views:share",
  /** Renames or deletes a shared view someone else saved. */
  "views:manage",
  /** Takes a filtered orders list out of the system as CSV. */
  "orders:export",
  /** The webhook deliveries page (issue 27): what was sent to a tenant's endpoints and what they answered. */
  "deliveries:view",
  /** Sends a delivered or dead webhook message again, and test pings to a tenant's endpoints. */
  "deliveries:send",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const AGENT: readonly Permission[] = ["profile:edit", "orders:view", "orders:event"];
// A shared view appears in every colleague's navigation, so whoever shares one sets what a team
// looks at: ops and up, who run the queues (an agent's own views stay personal). An export takes
// players' ids and payments out in bulk: ops reconcile with a channel after an incident; an agent
// works one order at a time.
// The deliveries page answers a game server's "we never got the webhook": ops retry deliveries
// (DESIGN.md), managers oversee them, and admins, who hand out the API keys, set integrations up.
const DELIVERIES: readonly Permission[] = ["deliveries:view", "deliveries:send"];
const OPS: readonly Permission[] = [...AGENT, "orders:grant", "orders:bulk", "cases:work", "views:share", "orders:export", ...DELIVERIES];
const MANAGER: readonly Permission[] = [...OPS, "audit:view", "audit:export", "refunds:approve", "settings:edit", "cases:dismiss-money", "cases:override", "views:manage"];

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  agent: AGENT,
  ops: OPS,
  manager: MANAGER,
  // Admins run the staff and the keys; by default they do not touch orders (DESIGN.md).
  admin: ["profile:edit", "users:manage", "apikeys:manage", ...DELIVERIES],
};

/** The console event whitelist: which order events each role may trigger from the console. */
const AGENT_EVENTS: readonly OrderEvent[] = ["request-refund", "close"];
const OPS_EVENTS: readonly OrderEvent[] = [
  ...AGENT_EVENTS,
  "pay",
  "begin-delivery",
  "confirm-delivery",
  "confirm-refund",
  "reject-refund",
];

export const CONSOLE_EVENTS: Readonly<Record<Role, readonly OrderEvent[]>> = {
  agent: AGENT_EVENTS,
  ops: OPS_EVENTS,
  manager: OPS_EVENTS,
  admin: [],
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function canTrigger(role: Role, event: OrderEvent): boolean {
  return CONSOLE_EVENTS[role].includes(event);
}

/** The roles that may trigger an event from the console: "ops or manager can". */
export function rolesTriggering(event: OrderEvent): Role[] {
  return ROLES.filter((role) => canTrigger(role, event));
}

/** The least role that holds a permission, for "ask a manager" style messages. */
export function leastRoleWith(permission: Permission): Role | undefined {
  return ROLES.find((role) => can(role, permission));
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && (PERMISSIONS as readonly string[]).includes(value);
}
