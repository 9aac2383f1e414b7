import type { ReactNode } from "react";
import { ConsoleHeader } from "@/components/console-header";
import { QueryProvider } from "@/components/query-provider";
import { requireStaff } from "@/lib/auth/page";

// The frame of every signed-in page. Pages check their own permission too: a layout is not
// re-rendered on every navigation, so it cannot be the only check.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff();
  return (
    <>
      <ConsoleHeader staff={staff} />
      <div className="mx-auto max-w-6xl px-6 py-8">
        <QueryProvider>{children}</QueryProvider>
      </div>
    </>
  );
}
