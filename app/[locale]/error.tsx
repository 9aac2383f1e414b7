"use client";

import { ErrorState } from "@/components/errors/error-state";

// A page outside the console's frame failed (sign-in, an unknown address): the console's error page,
// without the frame.
export default function RootError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-6xl px-6 py-8">
      <ErrorState {...props} />
    </main>
  );
}
