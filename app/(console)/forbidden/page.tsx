import Link from "next/link";
import { leastRoleWith, isPermission } from "@/lib/auth/permissions";
import { requireStaff } from "@/lib/auth/page";

export const metadata = { title: "Not allowed" };

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const staff = await requireStaff();
  const { need } = await searchParams;
  const role = isPermission(need) ? leastRoleWith(need) : undefined;
  return (
    <div className="max-w-lg rounded-lg border border-amber-200 bg-amber-50 p-6">
      <h1 className="text-lg font-semibold">Not allowed for your role</h1>
      <p className="mt-2 text-sm text-slate-700">
        You are signed in as <b>{staff.role}</b>
        {role ? (
          <>
            ; this page needs <code className="font-mono">{need}</code>, which starts at the <b>{role}</b> role
          </>
        ) : null}
        . Ask an admin if you need it.
      </p>
      <Link href="/" className="mt-4 inline-block text-sm underline">
        Back to the overview
      </Link>
    </div>
  );
}
