import { NextResponse } from "next/server";
import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { openApiDocument } from "@/lib/api/v1/openapi";

// The API's OpenAPI 3.1 document, for the admins who onboard integrators (the console's API page
// renders it).
export const GET = staffRoute({ name: "v1.openapi", permission: "apikeys:manage", input: z.object({}), scope: noResource }, async ({ request }) =>
  NextResponse.json(openApiDocument(request.nextUrl.origin)),
);
