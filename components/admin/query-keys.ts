// The admin pages' queries, in one place: a change to staff or keys invalidates everything under
// ADMIN_KEY (the list, the account, and the security log that records the change).
export const ADMIN_KEY = ["admin"] as const;

export const adminKeys = {
  users: () => [...ADMIN_KEY, "users"] as const,
  newUser: () => [...ADMIN_KEY, "users", "new"] as const,
  user: (id: string) => [...ADMIN_KEY, "users", id] as const,
  apiKeys: () => [...ADMIN_KEY, "api-keys"] as const,
  security: (query: string) => [...ADMIN_KEY, "security", query] as const,
};
