import Link from "next/link";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { requireStaff } from "@/lib/auth/page";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { listTenantChoices } from "@/lib/auth/users";

export const dynamic = "force-dynamic";
export const metadata = { title: "New staff user" };

export default async function NewStaffUserPage() {
  await requireStaff("users:manage");
  const tenants = await listTenantChoices();
  return (
    <main className="space-y-6">
      <div>
        <Link href="/admin/users" className="text-sm underline">
          ← Staff
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">New staff user</h1>
        <p className="mt-1 text-sm text-slate-600">They sign in with this email and password; the role and tenants decide what they see.</p>
      </div>
      <CreateUserForm tenants={tenants} minPasswordLength={MIN_PASSWORD_LENGTH} />
    </main>
  );
}
