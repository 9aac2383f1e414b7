import Link from "next/link";
import { requireStaff } from "@/lib/auth/page";
import { listStaffUsers } from "@/lib/auth/users";

export const dynamic = "force-dynamic";
export const metadata = { title: "Staff" };

const ACTION_WORDS: Readonly<Record<string, string>> = {
  "user.created": "created",
  "user.updated": "edited",
  "user.disabled": "disabled",
  "user.enabled": "enabled",
  "user.password-reset": "password reset",
};

// Times are rendered on the server, which does not know the viewer's zone: shown in UTC and said so.
function utc(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export default async function StaffUsersPage() {
  await requireStaff("users:manage");
  const users = await listStaffUsers();
  return (
    <main>
      <div className="flex items-center gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Staff</h1>
          <p className="mt-1 text-sm text-slate-600">Who can sign in to the console, with which role, for which products.</p>
        </div>
        <Link
          href="/admin/users/new"
          className="ml-auto rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
        >
          New staff user
        </Link>
      </div>
      {users.length === 0 ? (
        <p className="mt-8 rounded border border-dashed border-slate-300 p-6 text-slate-600">
          No staff accounts yet. Create one with the button above, or from the command line with{" "}
          <code>npm run cli -- user create --email … --role admin --tenants …</code>.
        </p>
      ) : (
        <table className="mt-6 w-full border-collapse bg-white text-sm shadow-sm">
          <caption className="sr-only">Staff accounts</caption>
          <thead>
            <tr className="border-b text-left text-slate-500">
              <th scope="col" className="p-3 font-medium">Email</th>
              <th scope="col" className="p-3 font-medium">Name</th>
              <th scope="col" className="p-3 font-medium">Role</th>
              <th scope="col" className="p-3 font-medium">Tenants</th>
              <th scope="col" className="p-3 font-medium">Status</th>
              <th scope="col" className="p-3 font-medium">Last change</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id} className="border-b last:border-0" data-testid={`staff-row-${user.email}`}>
                <td className="p-3">
                  <Link href={`/admin/users/${user.id}`} className="font-medium underline-offset-2 hover:underline">
                    {user.email}
                  </Link>
                </td>
                <td className="p-3">{user.name}</td>
                <td className="p-3">
                  <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{user.role}</span>
                </td>
                <td className="p-3 font-mono text-xs">{user.tenantIds.length ? user.tenantIds.join(", ") : <span className="text-slate-400">none</span>}</td>
                <td className="p-3">
                  {user.disabledAt ? (
                    <span className="rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-700">disabled</span>
                  ) : (
                    <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">active</span>
                  )}
                </td>
                <td className="p-3 text-xs text-slate-600">
                  {user.lastChange ? (
                    <>
                      {ACTION_WORDS[user.lastChange.action] ?? user.lastChange.action} by {user.lastChange.actor}
                      <br />
                      <time dateTime={user.lastChange.at.toISOString()}>{utc(user.lastChange.at)}</time>
                    </>
                  ) : (
                    <time dateTime={user.updatedAt.toISOString()}>{utc(user.updatedAt)}</time>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
