import type { SimulatedDevice } from '../../../../../simulator';
import { epcToEpcOverEthernet } from '../../../../fixtures/typical-flows';
import { buildFlowAndLogIn } from '../../../engine/jobs/helpers/flows';
import type { World } from '../../../engine/jobs/helpers/world';

/**
 * The opening that the CLI's end-to-end tests of verify, the ledger and the function test share: the
 * world's service holds the EPC-to-EPC-over-Ethernet configuration, the CLI is logged in to it,
 * simulated EPC controllers of that configuration run firmware 1.1.0, and the configuration is
 * applied to each through the CLI.
 */

export interface AppliedConfiguration {
  configurationId: string;
  /** The started devices, in the order asked for. */
  devices: SimulatedDevice[];
}

/** A device to start: an EPC of the configuration (EPC000101, EPC000102), on a pty unless `link` says otherwise. */
export type ConfiguredDevice = { serialNumber: string } & Partial<Parameters<World['startDevice']>[0]>;

/** Opens the configuration in `world` (which the caller disposes of, e.g. through worldPerTest). */
export async function applyConfiguration(
  world: World,
  wanted: readonly ConfiguredDevice[],
): Promise<AppliedConfiguration> {
  const configurationId = await buildFlowAndLogIn(world, epcToEpcOverEthernet);
  const devices: SimulatedDevice[] = [];
  for (const device of wanted)
    devices.push(await world.startDevice({ deviceType: 'EPC', link: 'pty', firmwareVersion: '1.1.0', ...device }));
  for (const { serialNumber } of wanted) {
    const applied = await world.cli(['device', 'configuration', 'update', serialNumber]);
    if (applied.code !== 0)
      throw new Error(
        `the configuration of ${serialNumber} was not applied (exit ${applied.code}): ${applied.stdout}${applied.stderr}`,
      );
  }
  return { configurationId, devices };
}

/**
 * A technician confirms the parameters `serialNumber` runs, as `device configuration update`
 * takes it without a terminal: the short checksum read by `device verify --parameters`, typed back
 * with a name. Only a device whose parameters match can be confirmed.
 */
export async function confirmParameters(
  world: World,
  serialNumber: string,
  technician = 'Ada Lovelace',
): Promise<string> {
  const verify = await world.cli(['--json', 'device', 'verify', serialNumber, '--parameters']);
  if (verify.code !== 0)
    throw new Error(
      `the parameters of ${serialNumber} do not verify (exit ${verify.code}): ${verify.stdout}${verify.stderr}`,
    );
  const [table] = JSON.parse(verify.stdout) as Array<{ runningChecksumShort: string }>;
  const confirmed = await world.cli([
    'device',
    'configuration',
    'update',
    serialNumber,
    '--confirm-checksum',
    table!.runningChecksumShort,
    '--technician',
    technician,
  ]);
  if (confirmed.code !== 0)
    throw new Error(
      `the parameters of ${serialNumber} were not confirmed (exit ${confirmed.code}): ${confirmed.stdout}${confirmed.stderr}`,
    );
  return table!.runningChecksumShort;
}
