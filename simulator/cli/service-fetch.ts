/**
 * GET of one of the service's public operations (no API key), e.g. `/v1/config-file-signing-key`:
 * the envelope's `data`. The URL may be given with or without its `/v1`.
 */
export async function fetchServiceData(serviceUrl: string, path: string): Promise<{ url: string; data: unknown }> {
  const base = serviceUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const url = `${base}${path}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`Cannot reach the service at ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new Error(`The service answered ${response.status} to GET ${url}.`);
  const body = (await response.json()) as { data?: unknown };
  return { url, data: body.data };
}
