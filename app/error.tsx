"use client";

import { ErrorState } from "@/components/errors/error-state";

// The console's frame itself failed (its layout reads who is signed in from the database): the same
// page, without the frame.
export default function RootError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-6xl px-6 py-8">
      <ErrorState {...props} />
    </main>
  );
}
