/**
 * A bench's calls to the organization's interface on a service it started: JSON in, the envelope's
 * `data` out, and any error status thrown with the service's entries, so that seeding stops at the
 * first refusal with the reason.
 */
export type OrgApi = (method: string, path: string, body?: unknown) => Promise<{ id: string }>;

/** Calls under `orgUrl` (…/v1/organizations/ORG) with the key in `headers`. */
export function orgApi(orgUrl: string, headers: Record<string, string>): OrgApi {
  return async (method, path, body) => {
    const response = await fetch(`${orgUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data: { id: string }; errors: unknown };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json.errors)}`);
    return json.data;
  };
}
