import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEMES, type Theme } from '../../../renderer/theme/theme-choice';

/**
 * The three palettes of renderer/styles/app.css, read as the stylesheet states them: each theme
 * defines every colour token, the pairs the app draws text with reach WCAG contrast (AAA, 7:1, for
 * body text, the high-contrast theme and the Station's tiles, read from two metres; AA, 4.5:1,
 * elsewhere), and no stylesheet names a colour outside the palettes.
 */

const RENDERER = join(import.meta.dirname, '..', '..', '..', 'renderer');
const APP_CSS = join(RENDERER, 'styles', 'app.css');

/** The declarations of the rule whose selector ends with `[data-theme='<theme>']`. */
function paletteOf(css: string, theme: Theme): Map<string, string> {
  const start = css.indexOf(`:root[data-theme='${theme}'] {`);
  if (start < 0) throw new Error(`app.css has no palette for ${theme}`);
  const body = css.slice(css.indexOf('{', start) + 1, css.indexOf('\n}', start));
  return new Map([...body.matchAll(/(--[a-z0-9-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1]!, 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** [foreground, background, the least ratio] for every theme. */
const PAIRS: [string, string, number][] = [
  ['--text', '--bg', 7],
  ['--text', '--surface', 7],
  ['--text', '--surface-2', 7],
  ['--text-2', '--surface', 4.5],
  ['--text-2', '--surface-2', 4.5],
  ['--muted', '--bg', 4.5],
  ['--muted', '--surface', 4.5],
  ['--muted', '--surface-2', 4.5],
  ['--primary', '--surface', 4.5],
  ['--primary', '--bg', 4.5],
  ['--primary', '--primary-soft', 4.5],
  ['--on-primary', '--primary', 4.5],
  ['--on-primary', '--primary-hover', 4.5],
  ['--on-bad', '--bad', 4.5],
  ['--text', '--primary-soft', 7],
  ...(['ok', 'warn', 'bad', 'info'] as const).flatMap((tone): [string, string, number][] => [
    [`--${tone}`, '--surface', 4.5],
    [`--${tone}`, `--${tone}-soft`, 4.5],
    ['--text', `--${tone}-soft`, 7],
  ]),
  ['--bad-text', '--bad-soft', 4.5],
  ['--bad-text', '--surface', 4.5],
  ['--neutral-text', '--neutral-soft', 4.5],
  ['--disabled-text', '--disabled-bg', 3],
  ['--text', '--invalid-bg', 7],
  ['--text', '--row-selected', 7],
  ['--text', '--row-hover', 7],
  ['--band-text', '--band', 7],
  ['--band-muted', '--band', 4.5],
  ['--band-soft-text', '--band', 4.5],
  ['--band-attention', '--band', 4.5],
  ['--band-text', '--band-hover', 4.5],
  ['--band-badge-text', '--band-badge-bg', 4.5],
  ['--log-text', '--log-bg', 7],
  ['--log-muted', '--log-bg', 4.5],
  ['--log-warn', '--log-bg', 4.5],
  ['--log-error', '--log-bg', 4.5],
  // The Station's tiles, read from two metres.
  ['--tile-done-text', '--tile-done-bg', 7],
  ['--tile-failed-text', '--tile-failed-bg', 7],
];

/** In the high-contrast theme every pair of text and ground reaches 7:1. */
const HIGH_CONTRAST_LEAST = 7;

describe('the palettes', async () => {
  const css = await readFile(APP_CSS, 'utf8');
  const palettes = new Map(THEMES.map((theme) => [theme, paletteOf(css, theme)] as const));
  const light = palettes.get('light')!;

  it('each define the same colour tokens, all of them', () => {
    expect(light.size).toBeGreaterThan(40);
    for (const theme of THEMES)
      expect([...palettes.get(theme)!.keys()].sort(), theme).toEqual([...light.keys()].sort());
  });

  it.each(THEMES)('%s: text and marks reach their contrast on the grounds they are drawn on', (theme) => {
    const palette = palettes.get(theme)!;
    const low: string[] = [];
    for (const [fg, bg, least] of PAIRS) {
      const needed = theme === 'high-contrast' && least >= 4.5 ? HIGH_CONTRAST_LEAST : least;
      const ratio = contrast(palette.get(fg)!, palette.get(bg)!);
      if (ratio < needed) low.push(`${fg} on ${bg}: ${ratio.toFixed(2)} < ${needed}`);
    }
    expect(low).toEqual([]);
  });

  it.each(THEMES)('%s: done and failed do not look alike (their tiles differ in lightness or hue)', (theme) => {
    const palette = palettes.get(theme)!;
    expect(palette.get('--tile-done-bg')).not.toBe(palette.get('--tile-failed-bg'));
    expect(palette.get('--ok')).not.toBe(palette.get('--bad'));
    expect(palette.get('--warn')).not.toBe(palette.get('--bad'));
  });
});

describe('the stylesheets', () => {
  it('name no colour outside the palettes: every colour is a theme token', async () => {
    const files = (await readdir(RENDERER, { recursive: true })).filter((f) => f.endsWith('.css'));
    expect(files.length).toBeGreaterThan(2);
    const found: string[] = [];
    for (const file of files) {
      let css = await readFile(join(RENDERER, file), 'utf8');
      // The palettes themselves, and comments.
      css = css
        .replace(/:root(,\s*:root)?(\[data-theme='[a-z-]+'\])?\s*\{[^}]*\}/g, '')
        .replace(/\/\*[\s\S]*?\*\//g, '');
      for (const m of css.matchAll(
        /#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(|:\s*(white|black|red|green|blue|gray|grey)\b/gi,
      ))
        found.push(`${file}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });
});
