import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readApiKeys } from "@/lib/read/api-keys";
import { readModelResponse } from "@/lib/read/wire";

// The API keys page's read model (lib/read/api-keys.ts): the keys of the caller's products, no secrets.
export const GET = staffRoute(
  { name: "console.admin.api-keys", permission: "apikeys:manage", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readApiKeys(staff)),
);
