import { vi } from "vitest";
import { currentTestStaff } from "./session";

// For every test file: who is signed in comes from lib/test/session.ts (next-auth's session needs a
// real request).
vi.mock("@/lib/auth/current-staff", () => ({ currentStaff: async () => currentTestStaff(), staffOfRequest: async () => currentTestStaff() }));
