"use client";

import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";

/** Back to wherever the reader came from (the link they followed may be all that was wrong). */
export function BackButton({ label }: { label: string }) {
  const router = useRouter();
  return (
    <Button variant="secondary" onClick={() => router.back()}>
      ← {label}
    </Button>
  );
}
