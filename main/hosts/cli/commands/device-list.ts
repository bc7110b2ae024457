import type { AttachedDevice } from '../../../app/jobs';
import type { CliContext } from '../context';
import { EXIT } from '../errors';

const INTERFACE: Record<AttachedDevice['linkKind'], string> = { serial: 'USB serial', udp: 'IP (UDP)', ble: 'BLE' };

/** `device list`: every attached device, identified over its link. */
export async function deviceList(ctx: CliContext, options: { link?: string[] }): Promise<number> {
  const devices = await ctx.finder().list({ extraLinks: options.link ?? [] });
  if (ctx.out.json) {
    ctx.out.line(
      JSON.stringify(
        devices.map((d) => ({
          connection: d.link,
          interface: d.linkKind,
          model: d.identity?.model ?? null,
          deviceType: d.identity?.deviceType ?? null,
          serialNumber: d.identity?.serialNumber ?? null,
          firmwareVersion: d.identity?.firmwareVersion ?? null,
          configSyncId: d.identity?.configSyncId ?? null,
          error: d.error,
        })),
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  if (devices.length === 0) {
    ctx.out.line('No devices found. Plug one in (or start the simulator: npm run simulator -- --type EPC --serial EPC000101), or name an IP device with --link udp:ADDRESS.');
    return EXIT.ok;
  }
  ctx.out.table(
    ['CONNECTION', 'MODEL', 'INTERFACE', 'SERIAL NUMBER', 'FIRMWARE'],
    devices.map((d) => [d.link, d.identity?.model ?? '?', INTERFACE[d.linkKind], d.identity?.serialNumber ?? `? (${d.error ?? 'no answer'})`, d.identity?.firmwareVersion ?? '?']),
  );
  return EXIT.ok;
}
