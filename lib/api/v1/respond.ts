import "server-only";
import { NextResponse } from "next/server";
import type { OrderView } from "./schemas";

/** A domain result that is not a success: `{ error: { code, message }, result, ...fields }`. */
export function outcome(status: number, result: string, message: string, fields: { order?: OrderView | null; guard?: string } = {}): Response {
  return NextResponse.json({ error: { code: result, message }, result, ...fields }, { status });
}

export function notFound(orderNo: string): Response {
  return NextResponse.json({ error: { code: "not-found", message: `No order ${orderNo} for this API key's tenant.` } }, { status: 404 });
}
