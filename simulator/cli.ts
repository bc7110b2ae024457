import { join } from 'node:path';
import { Command, Option } from 'commander';
import { DEVICE_TYPES, type DeviceType } from '../domain/device-types';
import {
  fraction,
  integer,
  nonNegativeNumber,
  paramDrift,
  positiveNumber,
  protocol,
  repeated,
  sharedOptions,
  stall,
  type CliFlags,
} from './cli/flags';
import { serveSimulatedBle, type BleBridge } from './ble/bridge-server';
import { readFleetFile } from './cli/fleet-file';
import { loadPublicKey } from './cli/public-key';
import { loadReleaseKeys } from './cli/release-keys';
import { startFleet, type FleetDeviceSpec, type FleetSpec, type SimulatedFleet } from './fleet';
import { simulatorDir } from './scratch-dir';
import { sendControlCommand } from './device/control-socket';
import { readShiftFile, runShift, type ShiftRun } from './shift-plan';

function buildProgram(): Command {
  return new Command('simulator')
    .description(
      'Virtual SRCP/WESP/EPC/NSCP devices speaking the device protocol over a pty (serial), UDP or simulated BLE.\n' +
        'Prints one JSON line per device saying where to reach it, then runs until SIGINT or SIGTERM.',
    )
    .addOption(new Option('--type <type>', 'device type').choices(DEVICE_TYPES))
    .option('--serial <serialNumber>', 'serial number, e.g. EPC000101')
    .option(
      '--protocol <protocol>',
      "provisioner (ours, the default) or vendor: the vendor's protocol (docs/vendor-devices.md), an SRCP/NSCP/WESP as an FRC-family device on --link pty with plain SLIP, an EPC on --link udp:HOST:PORT",
      protocol,
    )
    .option('--model <model>', 'hardware model name')
    .option('--firmware-version <version>', 'version the device runs at first start', undefined)
    .option('--link <link>', 'pty | udp:HOST:PORT | ble', 'pty')
    .option('--fleet <file>', 'JSON file listing several devices (instead of --type/--serial)')
    .option(
      '--shift <file>',
      'JSON file of a shift at a station: devices and a timed plan of plugging them in and out (simulator/shift-plan.ts); one JSON line per step',
    )
    .option('--state-dir <dir>', "root of the devices' state directories (each device in <dir>/<serial>)")
    .option(
      '--public-key <file>',
      "the service's root key (PEM): it certifies the organization keys that sign configuration files",
    )
    .option(
      '--release-key-pub <file>',
      'a firmware release public key (PEM) the devices trust; repeat for several',
      repeated,
      [],
    )
    .option(
      '--service-url <url>',
      'fetch the root key (GET <url>/v1/config-file-signing-key) and the release keys (GET <url>/v1/firmware-release-keys)',
    )
    .option('--baud <rate>', 'serial wire model: baud rate (baud/10 bytes per second)', integer)
    .option('--ble-mtu <mtu>', 'largest ATT MTU the peripheral accepts', integer)
    .option('--ble-interval <ms>', 'BLE connection interval, milliseconds', positiveNumber)
    .option('--ble-packets <n>', 'BLE packets per connection interval and direction', integer)
    .option('--udp-rate <bytesPerSecond>', 'UDP wire model rate', positiveNumber)
    .option('--udp-latency <ms>', 'UDP one-way latency', nonNegativeNumber)
    .option('--flash-rate <bytesPerSecond>', 'flash write speed for staged firmware', positiveNumber)
    .option('--max-block-size <bytes>', 'largest block the device takes (16 to 1024)', integer)
    .option('--max-in-flight <n>', 'firmware blocks the host may keep in flight', integer)
    .option('--reboot-ms <ms>', 'how long a reboot takes', integer)
    .option('--apply-ms <ms>', 'how long installing an image takes', integer)
    .option('--drop <fraction>', 'fault: drop this fraction of frames (both directions)', fraction)
    .option(
      '--corrupt <fraction>',
      'fault: flip a byte in this fraction of frames so the CRC fails (--protocol vendor on a pty: no CRC, the damaged message reaches CoAP; UDP: the datagram is lost)',
      fraction,
    )
    .option(
      '--pull-at <offset>',
      'fault: pull the cable when the firmware upload reaches this byte offset (vendor devices: an fs upload or the EPC firmware body)',
      integer,
    )
    .option('--replug-after <ms>', 'fault: how long the cable stays out after --pull-at (default 1000)', integer)
    .option('--stall <ms@offset>', 'fault: stop for MS milliseconds when the firmware upload reaches OFFSET', stall)
    .option('--power-cycle-during-apply', 'fault: cut the power while the image is being applied (once)')
    .option(
      '--fault-param-drift <key[=value]>',
      'fault: store this running parameter differently from the applied file, keeping its syncId (GET /params shows it), e.g. safety.timeout=1024; on a vendor device KEY is the cfg/… path it runs differently (its GET answers the drifted value), e.g. cfg/sf/smcu/global/timeoutMs=1024 or cfg/setup/radioChannel',
      paramDrift,
    )
    .option('--seed <n>', 'seed of the fault decisions (default 1)', integer)
    .option(
      '--press-estop-after-ms <ms>',
      "the function test's technician: press the E-stop this long after a host starts observing /safety",
      integer,
    )
    .option(
      '--press-estop <socket>',
      "press the E-stop of a running simulated device through its control socket (its JSON line's controlSocket), then exit",
    );
}

async function devicesFrom(flags: CliFlags): Promise<Pick<FleetSpec, 'defaults' | 'devices'>> {
  if (flags.fleet !== undefined) {
    if (flags.type !== undefined || flags.serial !== undefined)
      throw new Error('Give either --fleet or --type and --serial, not both.');
    return readFleetFile(flags.fleet);
  }
  if (flags.type === undefined || flags.serial === undefined)
    throw new Error('Give --type and --serial (or --fleet FILE.json).');
  const device: FleetDeviceSpec = {
    deviceType: flags.type as DeviceType,
    serialNumber: flags.serial,
    link: flags.link,
  };
  return { devices: [device] };
}

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.parse(argv);
  const flags = program.opts<CliFlags & { shift?: string; pressEstop?: string }>();
  if (flags.pressEstop !== undefined) return pressThroughControlSocket(flags.pressEstop);
  if (flags.shift !== undefined) return actOutShift(flags, flags.shift);
  // Signal handlers go in before anything is printed: a caller that reads our line and at once
  // sends SIGTERM must get a clean stop, not the default kill.
  let fleet: SimulatedFleet | undefined;
  let stopRequested: string | undefined;
  const stop = (signal: string) => {
    if (stopRequested !== undefined) return;
    stopRequested = signal;
    if (fleet !== undefined) void shutdown(fleet, signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  try {
    const publicKeyPem = await loadPublicKey({ file: flags.publicKey, serviceUrl: flags.serviceUrl });
    const releaseKeysPem = await loadReleaseKeys({ files: flags.releaseKeyPub ?? [], serviceUrl: flags.serviceUrl });
    const { defaults, devices } = await devicesFrom(flags);
    const shared = { ...sharedOptions(flags), ...(releaseKeysPem.length > 0 ? { releaseKeysPem } : {}) };
    if ((shared.releaseKeysPem ?? defaults?.releaseKeysPem ?? []).length === 0) {
      console.error(
        'simulator: no firmware release keys (--release-key-pub or --service-url): the devices refuse every firmware image',
      );
    }
    fleet = await startFleet({
      stateDir: flags.stateDir ?? join(simulatorDir(), 'state'),
      publicKeyPem,
      // Command-line flags override the file's defaults; each device's own options override both.
      defaults: { ...defaults, ...shared, faults: { ...defaults?.faults, ...shared.faults } },
      devices,
    });
  } catch (error) {
    console.error(`simulator: ${(error as Error).message}`);
    process.exit(1);
  }
  // BLE devices are reachable from other processes through a socket (connectSimulatedBleBindings).
  const bleDevices = fleet.devices.filter((d) => d.descriptor.link === 'ble');
  if (bleDevices.length > 0) {
    try {
      bleBridge = await serveSimulatedBle(join(simulatorDir(), 'ble', `${process.pid}.sock`), bleDevices);
    } catch (error) {
      console.error(`simulator: cannot serve BLE to other processes: ${(error as Error).message}`);
    }
  }
  for (const device of fleet.devices) {
    const bleEndpoint = device.descriptor.link === 'ble' ? bleBridge?.endpoint : undefined;
    process.stdout.write(`${JSON.stringify({ ...device.descriptor, ...(bleEndpoint ? { bleEndpoint } : {}) })}\n`);
  }
  if (stopRequested !== undefined) await shutdown(fleet, stopRequested);
  // A BLE-only fleet holds no socket or child process open: keep running until told to stop.
  keepAlive = setInterval(() => undefined, 1 << 30);
}

/** `--press-estop SOCKET`: one press on a running device, its answer as a JSON line. */
async function pressThroughControlSocket(socket: string): Promise<void> {
  try {
    const answer = await sendControlCommand(socket, { command: 'press-estop' });
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    if (!answer.ok) process.exit(1);
  } catch (error) {
    console.error(`simulator: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** `--shift FILE`: acts the plan out, one JSON line per step, then runs until SIGINT or SIGTERM. */
async function actOutShift(flags: CliFlags, file: string): Promise<void> {
  let shift: ShiftRun | undefined;
  const stop = () => {
    void (async () => {
      await shift?.stop();
      process.exit(0);
    })();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const plan = await readShiftFile(file);
    const publicKeyPem = await loadPublicKey({ file: flags.publicKey, serviceUrl: flags.serviceUrl });
    const releaseKeysPem = await loadReleaseKeys({ files: flags.releaseKeyPub ?? [], serviceUrl: flags.serviceUrl });
    const shared = { ...sharedOptions(flags), ...(releaseKeysPem.length > 0 ? { releaseKeysPem } : {}) };
    shift = runShift(
      {
        ...plan,
        stateDir: flags.stateDir ?? join(simulatorDir(), 'state'),
        publicKeyPem,
        defaults: { ...plan.defaults, ...shared, faults: { ...plan.defaults?.faults, ...shared.faults } },
      },
      {
        onStep: (step) =>
          process.stdout.write(
            `${JSON.stringify({ shift: step.action, id: step.id, at: step.at, ...step.device.descriptor })}\n`,
          ),
      },
    );
    await shift.finished;
    process.stdout.write(`${JSON.stringify({ shift: 'plan-done' })}\n`);
  } catch (error) {
    console.error(`simulator: ${(error as Error).message}`);
    await shift?.stop();
    process.exit(1);
  }
  keepAlive = setInterval(() => undefined, 1 << 30);
}

let keepAlive: NodeJS.Timeout | undefined;
let bleBridge: BleBridge | undefined;

async function shutdown(fleet: SimulatedFleet, signal: string): Promise<void> {
  clearInterval(keepAlive);
  try {
    await bleBridge?.close();
    await fleet.stop();
    process.exit(0);
  } catch (error) {
    console.error(`simulator: stopping after ${signal} failed: ${(error as Error).message}`);
    process.exit(1);
  }
}

void main(process.argv);
