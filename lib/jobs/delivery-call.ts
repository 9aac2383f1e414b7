import { postSigned, type SignedPostResult } from "./signed-post";

// The delivery coordinator's call to a tenant's grant endpoint: what it sends, and how.

/** The body POSTed to a tenant's grant endpoint. A 2xx means: granted (or already granted) in full. */
export interface GrantRequest {
  readonly tenantId: string;
  readonly orderNo: string;
  readonly playerId: string;
  readonly sku: string;
  readonly kind: string;
  readonly quantity: number;
  /** Stable across retries: the game server grants each grantId once and answers 2xx to repeats. */
  readonly grantId: string;
}

/**
 * Asks for everything the line still owes. The grantId `deliver:<orderNo>:<sku>:<granted so far>`
 * stays the same until the ledger records that grant, so a worker that dies after the game server
 * granted but before grant() ran sends the same grantId again, the game server answers "already
 * done", and the ledger catches up: nothing is granted twice on either side.
 */
export function grantRequest(
  tenantId: string,
  order: { readonly orderNo: string; readonly playerId: string },
  line: { readonly sku: string; readonly kind: string; readonly granted: number; readonly pending: number },
): GrantRequest {
  return {
    tenantId,
    orderNo: order.orderNo,
    playerId: order.playerId,
    sku: line.sku,
    kind: line.kind,
    quantity: line.pending,
    grantId: `deliver:${order.orderNo}:${line.sku}:${line.granted}`,
  };
}

export interface GrantEndpoint {
  readonly url: string;
  /** The tenant's signing secret. */
  readonly secret: string;
}

export interface CallOptions {
  readonly fetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
}

/** The signed POST. Never throws: a refused, failed or timed-out call is a result to record. */
export function callGrantEndpoint(endpoint: GrantEndpoint, request: GrantRequest, options: CallOptions): Promise<SignedPostResult> {
  return postSigned({
    fetch: options.fetch,
    url: endpoint.url,
    secret: endpoint.secret,
    body: JSON.stringify(request),
    timeoutMs: options.timeoutMs,
  });
}
