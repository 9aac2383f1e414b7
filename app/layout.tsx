import type { ReactNode } from "react";

// The document (<html lang>, the reader's catalogue) is made by app/[locale]/layout.tsx: every page
// lives under its locale (proxy.ts puts it there). This layout only lets app/not-found.tsx exist.
export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
