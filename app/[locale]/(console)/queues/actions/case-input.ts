import { z } from "zod";

/** Every case action names its case by id; the scope rule (caseScope) checks its tenant. */
export const caseId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
