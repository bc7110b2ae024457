/** The organization the cluster benchmarks drive: what technicians of one plant would find. */
import type { StackState } from '../scripts/stack';
import { srcpToEpcOverIsm } from '../test/fixtures/typical-flows';

/** The devices whose firmware confirmations the outbox sends beside the mix. */
export const CONFIRMING_DEVICES = [
  'EPC000102',
  'EPC000103',
  'EPC000104',
  'NSCP000101',
  'NSCP000102',
  'NSCP000103',
  'WESP000101',
  'WESP000102',
];

async function api(stack: StackState, method: string, path: string, body?: unknown): Promise<{ id: string }> {
  const response = await fetch(`${stack.url}/v1/organizations/demo${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.adminKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: { id: string }; errors: unknown };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json.errors)}`);
  return json.data;
}

/** A complete configuration with its two devices, 30 others, a fleet; answers the complete one's id. */
export async function seedClusterOrganization(stack: StackState): Promise<string> {
  for (const serial of ['SRCP000101', 'EPC000101', ...CONFIRMING_DEVICES])
    await api(stack, 'POST', `/devices?serialNumber=${serial}&name=${serial}`);
  const configuration = await api(stack, 'POST', '/configurations', srcpToEpcOverIsm.configuration);
  for (const device of srcpToEpcOverIsm.devices)
    await api(stack, 'POST', `/configurations/${configuration.id}/devices`, device.payload);
  for (let i = 0; i < 30; i++)
    await api(stack, 'POST', '/configurations', {
      name: `Line ${String(i).padStart(2, '0')}`,
      timeoutConfiguration: '1000ms',
    });
  return configuration.id;
}
