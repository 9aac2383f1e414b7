import type { ReactNode } from "react";
import { ConsoleFrame } from "@/components/navigation/console-frame";

// The frame of every signed-in page. It reads nothing on the server (the browser reads who is signed
// in), so a page that reads nothing either is prerendered. Each page checks the session and its
// permission itself, or its data route does.
export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <ConsoleFrame>{children}</ConsoleFrame>;
}
