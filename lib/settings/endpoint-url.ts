// Addresses the console calls with the tenant's signed requests (the game's revoke endpoint, the
// webhook the outbox relay posts to): one rule for both. Pure.

// https only, so neither the request nor its signature crosses the network in clear. Plain http is
// allowed to this machine alone (the demo's simulated game listens on 127.0.0.1). No credentials in
// the URL: it is shown on the settings page and copied into the audit row.
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1"]);

export function endpointUrlAllowed(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.username !== "" || url.password !== "") return false;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
}
