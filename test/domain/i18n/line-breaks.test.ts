import { describe, expect, it } from 'vitest';
import { breakable, characterWidth, displayWidth, wrapColumns } from '../../../domain/i18n/line-breaks';

/** The line breaks and terminal widths of domain/i18n/line-breaks.ts, in Latin text and Chinese. */

describe('displayWidth', () => {
  it('counts a Chinese character and fullwidth punctuation as two columns, a Latin letter as one', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('设备')).toBe(4);
    expect(displayWidth('（默认 60）')).toBe(2 + 4 + 1 + 2 + 2);
    expect(displayWidth('Größe ñ é')).toBe(9);
    expect(displayWidth('한국어')).toBe(6);
  });

  it('gives combining marks, zero-width characters and colour escapes no columns', () => {
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('a\u200bb')).toBe(2);
    expect(displayWidth('\u001b[1mbold\u001b[22m')).toBe(4);
    expect(characterWidth('\t')).toBe(0);
  });
});

describe('breakable', () => {
  it('breaks Latin text at spaces and Chinese between characters, never before closing nor after opening punctuation', () => {
    expect(breakable('two  words').map((t) => [t.gap, t.text])).toEqual([
      ['', 'two'],
      ['  ', 'words'],
    ]);
    expect(breakable('写入（USB）设备。').map((t) => t.text)).toEqual(['写', '入', '（USB）', '设', '备。']);
  });
});

describe('wrapColumns', () => {
  it('wraps Latin text at spaces, dropping the spaces at a break and keeping the text’s own line breaks', () => {
    expect(wrapColumns('one two three four', 9)).toBe('one two\nthree\nfour');
    expect(wrapColumns('first line\n\nthird', 40)).toBe('first line\n\nthird');
  });

  it('wraps Chinese between characters to the column count, two columns each', () => {
    const text = '将服务中的固件和配置文件写入设备，并向服务回传确认记录。';
    const lines = wrapColumns(text, 20).split('\n');
    expect(lines.join('')).toBe(text);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(20);
    expect(lines[0]).toBe('将服务中的固件和配置');
    // The comma stays with the character before it rather than starting a line.
    expect(wrapColumns('一二三四五六七八九，十', 18)).toBe('一二三四五六七八\n九，十');
  });

  it('keeps a line’s indentation and puts a word wider than the line on a line of its own', () => {
    expect(wrapColumns('  indented text here', 12)).toBe('  indented\ntext here');
    expect(wrapColumns('环境变量 PROVISIONER_HOME_DIRECTORY 下', 12)).toBe('环境变量\nPROVISIONER_HOME_DIRECTORY\n下');
  });
});
