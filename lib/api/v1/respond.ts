import "server-only";
import { NextResponse } from "next/server";
import { AppError } from "@/lib/errors";
import { english } from "@/lib/i18n/translator";
import type { Problem } from "@/lib/problems";
import type { Refused } from "@/lib/stores/notifications";
import type { OrderView, RefundView } from "./schemas";

/**
 * A domain result that is not a success: `{ error: { code, message }, result, refusal, ...fields }`
 * — the refusal's facts as data beside their English wording.
 */
export function outcome(
  status: number,
  result: string,
  refusal: Problem,
  fields: { order?: OrderView | null; guard?: string; refund?: RefundView } = {},
): Response {
  return NextResponse.json({ error: { code: result, message: sentence(english(refusal)) }, result, refusal, ...fields }, { status });
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * A store's notification route's answer (App Store, Google Play): 200 with what was stored — also
 * for a notification stored before, so the store's retries are safe — the refusal as its 4xx, 404
 * for a tenant we do not have.
 */
export function storeNotificationAnswer(received: { readonly result: "stored" | "duplicate" } | Refused | { readonly result: "unknown-tenant" }): Response {
  if (received.result === "unknown-tenant") throw new AppError("not-found");
  if (received.result === "refused") throw new AppError(received.code, received.problem);
  return NextResponse.json(received);
}
