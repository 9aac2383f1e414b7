import "server-only";
import { NextResponse } from "next/server";
import { english } from "@/lib/i18n/translator";
import type { Problem } from "@/lib/problems";
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
