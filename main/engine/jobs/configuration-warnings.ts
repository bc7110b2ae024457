import type { ProvisioningClient } from './context';

/**
 * Our own rules the device's configuration breaks are warnings: they hold back no file, so the
 * apply goes ahead. Where the designer is not at hand (the CLI, the workbench) the technician reads
 * them here, as the job's notice, before the file goes to the device. Null when there are none or
 * the service cannot say (the apply is not held up for it).
 */
export async function configurationWarningsNotice(
  client: ProvisioningClient,
  serialNumber: string,
  signal?: AbortSignal,
): Promise<string | null> {
  if (!client.configurations) return null;
  const call = { retry: false as const, ...(signal ? { signal } : {}) };
  try {
    const page = await client.devices.list({ serial: serialNumber, limit: 1 }, call);
    const configurationId = page.items.find((d) => d.serialNumber === serialNumber)?.configurationId;
    if (!configurationId) return null;
    const status = await client.configurations.validate(configurationId, call);
    const own = `devices.${serialNumber}`;
    const concerning = status.warnings.filter(
      (w) => !w.field.startsWith('devices.') || w.field === own || w.field.startsWith(`${own}.`),
    );
    if (concerning.length === 0) return null;
    return `The configuration has ${concerning.length === 1 ? 'a warning' : `${concerning.length} warnings`} (applied all the same): ${concerning.map((w) => `${w.message} (${w.code})`).join(' ')}`;
  } catch {
    return null;
  }
}
