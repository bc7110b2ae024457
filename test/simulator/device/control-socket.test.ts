import { createConnection } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ControlSocket, sendControlCommand } from '../../../simulator/device/control-socket';
import { useScratchDir } from '../../fixtures/scratch';

/** The simulated device's control socket: a press answers with the count, anything else with what it takes. */

const scratch = useScratchDir('control-socket');

function rawLine(path: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path, () => socket.write(`${line}\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) {
        socket.end();
        resolve(text.trim());
      }
    });
    socket.on('error', reject);
  });
}

describe('the control socket', () => {
  it('presses the E-stop on {"command":"press-estop"} and says how often it was pressed', async () => {
    let presses = 0;
    const control = await ControlSocket.listen(join(scratch.dir, 'control', 'EPC000101.sock'), {
      pressEstop: async () => ++presses,
    });
    try {
      expect(await sendControlCommand(control.path, { command: 'press-estop' })).toEqual({ ok: true, presses: 1 });
      expect(await sendControlCommand(control.path, { command: 'press-estop' })).toEqual({ ok: true, presses: 2 });
      expect(JSON.parse(await rawLine(control.path, '{"command":"reboot"}'))).toEqual({
        ok: false,
        error: 'Unknown command "reboot"; the device takes "press-estop".',
      });
      expect(JSON.parse(await rawLine(control.path, 'press'))).toMatchObject({
        ok: false,
        error: expect.stringContaining('one JSON object per line'),
      });
      expect(presses).toBe(2);
    } finally {
      await control.close();
    }
  });

  it('says which socket cannot be reached', async () => {
    const path = join(scratch.dir, 'control', 'nobody.sock');
    await expect(sendControlCommand(path, { command: 'press-estop' })).rejects.toThrow(
      `Cannot reach the simulated device's control socket ${path}`,
    );
  });
});
