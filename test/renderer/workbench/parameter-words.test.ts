import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../domain/i18n/index.js';
import { rowsInWords } from '../../../renderer/workbench/parameter-words';

/** The core's English parameter rows, said in the reader's language on the Workbench and the Station (issue 29). */
const rows = [
  {
    key: 'safety.timeout',
    group: 'Safety function',
    label: 'Safety timeout',
    intended: '1000 ms',
    running: '1000 ms',
    match: true,
  },
  {
    key: 'device.role',
    group: 'Device and peers',
    label: 'Device role',
    intended: 'Receiver',
    running: 'E-stop sender',
    match: false,
  },
  {
    key: 'peer.SRCP000201.role',
    group: 'Device and peers',
    label: 'Role of peer SRCP000201',
    intended: 'Sender',
    running: 'Sender',
    match: true,
  },
];

describe('parameter rows in words', () => {
  it('names parameters, groups and choices in German, and leaves figures and units as they are', () => {
    const german = rowsInWords(rows, createTranslator('de'));
    expect(german[0]).toMatchObject({
      label: 'Sicherheits-Timeout',
      group: 'Sicherheitsfunktion',
      intended: '1000 ms',
      match: true,
    });
    expect(german[1]).toMatchObject({
      label: 'Geräterolle',
      intended: 'Empfänger',
      running: 'Not-Halt-Sender',
      match: false,
    });
    expect(german[2]!.label).toContain('SRCP000201');
    expect(german[2]!.intended).toBe('Sender');
  });

  it('keeps a value it does not know as the core wrote it', () => {
    const odd = rowsInWords([{ ...rows[1]!, running: 'Bystander' }], createTranslator('zh'));
    expect(odd[0]!.running).toBe('Bystander');
    expect(odd[0]!.intended).not.toBe('Receiver');
  });
});
