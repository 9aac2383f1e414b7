import type { ReactNode } from "react";
import { ConsoleFrame } from "@/components/navigation/console-frame";
import { requireStaff } from "@/lib/auth/page";

// The frame of every signed-in page. Pages check their own permission too: a layout is not
// re-rendered on every navigation, so it cannot be the only check.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff();
  return (
    <ConsoleFrame staff={staff}>{children}</ConsoleFrame>
  );
}
