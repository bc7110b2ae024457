import { describe, expect, it } from 'vitest';
import { ownInterface, parseScm2, Scm2Error } from '../../../domain/vendor/scm2';
import { epcEthernetScm2, frcIsmScm2 } from './samples';

function problemsOf(input: unknown): string[] {
  try {
    parseScm2(input);
  } catch (error) {
    expect(error).toBeInstanceOf(Scm2Error);
    return [...(error as Scm2Error).problems];
  }
  throw new Error('parseScm2 accepted it');
}

describe('parseScm2', () => {
  it('accepts a FORT Manager object and reads absent interfaces as null', () => {
    const config = parseScm2(frcIsmScm2());
    expect(config.NET.blue0).toBeNull();
    expect(config.NET.eth0).toBeNull();
    expect(config.NET.can0).toBeNull();
    expect(ownInterface(config)).toBe('ism0');
    expect(config.NET.peers['1']!.eth0).toBeNull();
    expect(ownInterface(parseScm2(epcEthernetScm2()))).toBe('eth0');
  });

  it('names each broken value rule of spec §9 with its field', () => {
    const input = epcEthernetScm2() as { SAFE: Record<string, unknown>; NET: Record<string, unknown> };
    input.SAFE['safetyTimeout'] = 2500;
    input.SAFE['careId'] = [0x7ff8];
    input.NET['can0'] = { bitrate: 300, mode: 'canopen' };
    const problems = problemsOf(input);
    expect(problems).toContainEqual(expect.stringMatching(/^SAFE\.safetyTimeout: .*250 to 2000/));
    expect(problems).toContainEqual(expect.stringMatching(/^SAFE\.careId\.0: .*1 to 32759/));
    expect(problems).toContainEqual(expect.stringMatching(/^NET\.can0\.bitrate: .*kbit\/s.*250/));
  });

  it('refuses a safety rate above a tenth of the timeout', () => {
    const input = frcIsmScm2() as { SAFE: Record<string, unknown> };
    input.SAFE['safetyRate'] = 50; // timeout 250 → at most 25
    expect(problemsOf(input)).toEqual([expect.stringMatching(/^SAFE\.safetyRate: .*tenth/)]);
  });

  it('refuses ISM power and channel outside the radio’s lists', () => {
    const input = frcIsmScm2() as { NET: { ism0: Record<string, unknown> } };
    input.NET.ism0['txpwr'] = 3;
    input.NET.ism0['txChannel'] = 27;
    const problems = problemsOf(input);
    expect(problems).toContainEqual(expect.stringMatching(/^NET\.ism0\.txpwr: .*-20, -15/));
    expect(problems).toContainEqual(expect.stringMatching(/^NET\.ism0\.txChannel: .*1 to 26/));
  });

  it('wants exactly one own interface and one per peer', () => {
    const two = epcEthernetScm2() as { NET: Record<string, unknown> };
    two.NET['blue0'] = { mac: 'aa:bb:cc:dd:ee:ff' };
    expect(problemsOf(two)).toContainEqual(expect.stringMatching(/exactly one of blue0, ism0, eth0, wlan0/));
    const none = frcIsmScm2() as { NET: { peers: Record<string, Record<string, unknown>> } };
    none.NET.peers['1']!['ism0'] = null;
    expect(problemsOf(none)).toContainEqual(expect.stringMatching(/^NET\.peers\.1: a peer has exactly one/));
  });

  it('checks IPv4, netmask, MAC and peer names', () => {
    const input = epcEthernetScm2() as {
      NET: { eth0: Record<string, unknown>; peers: Record<string, Record<string, unknown>> };
    };
    input.NET.eth0['ip4'] = '192.168.3.300';
    input.NET.eth0['netmask4'] = '255.0.255.0';
    input.NET.peers['1']!['name'] = 'A NAME TOO LONG';
    const problems = problemsOf(input);
    expect(problems).toContainEqual(expect.stringMatching(/^NET\.eth0\.ip4: /));
    expect(problems).toContainEqual(expect.stringMatching(/^NET\.eth0\.netmask4: /));
    expect(problems).toContainEqual(expect.stringMatching(/^NET\.peers\.1\.name: .*1 to 8/));
    expect(problemsOf({ SAFE: {}, NET: {} }).length).toBeGreaterThan(3);
    expect(() => parseScm2('scm2')).toThrow(/not valid/);
  });
});
