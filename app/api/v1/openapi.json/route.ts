import { NextResponse } from "next/server";
import { z } from "zod";
import { apiKeyOrStaffRoute } from "@/lib/api/route";
import { openApiDocument } from "@/lib/api/v1/openapi";

// The API's OpenAPI 3.1 document: for integrators, with any valid API key (the contract they code
// against), and for the admins who onboard them (the console's API page links it).
export const GET = apiKeyOrStaffRoute({ name: "v1.openapi", permission: "apikeys:manage", input: z.object({}) }, async ({ request }) =>
  NextResponse.json(openApiDocument(request.nextUrl.origin)),
);
