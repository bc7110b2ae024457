import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../../platform/durable-file';

/** Where and how big the window was, kept in userData between runs. */
export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 } as const;
export const MIN_WINDOW_SIZE = { width: 960, height: 600 } as const;
export const WINDOW_STATE_FILE = 'window-state.json';

/** A file that is missing, unreadable or hand-edited into nonsense yields null, never a throw. */
export function parseWindowState(text: string): WindowState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { x, y, width, height, maximized } = raw as Record<string, unknown>;
  const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
  if (!isInt(width) || !isInt(height) || width <= 0 || height <= 0) return null;
  const state: WindowState = { width, height, maximized: maximized === true };
  if (isInt(x) && isInt(y)) {
    state.x = x;
    state.y = y;
  }
  return state;
}

/**
 * The bounds to open with: the remembered ones while enough of the window (its title bar) still
 * lands on a connected display, so a window left on an unplugged monitor comes back where it can
 * be seen; the size is kept within the largest display's work area either way.
 */
export function restoreBounds(
  saved: WindowState | null,
  workAreas: readonly Rect[],
): { width: number; height: number; x?: number; y?: number } {
  const largest = workAreas.reduce<Rect | null>(
    (best, area) => (!best || area.width * area.height > best.width * best.height ? area : best),
    null,
  );
  const clampWidth = (w: number) => Math.max(MIN_WINDOW_SIZE.width, largest ? Math.min(w, largest.width) : w);
  const clampHeight = (h: number) => Math.max(MIN_WINDOW_SIZE.height, largest ? Math.min(h, largest.height) : h);
  if (!saved) return { width: clampWidth(DEFAULT_WINDOW_SIZE.width), height: clampHeight(DEFAULT_WINDOW_SIZE.height) };
  const width = clampWidth(saved.width);
  const height = clampHeight(saved.height);
  if (saved.x === undefined || saved.y === undefined) return { width, height };
  const titleBar: Rect = { x: saved.x, y: saved.y, width, height: 40 };
  const visible = workAreas.some((area) => overlap(titleBar, area) >= 100 * 20);
  return visible ? { x: saved.x, y: saved.y, width, height } : { width, height };
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export async function loadWindowState(file: string): Promise<WindowState | null> {
  try {
    return parseWindowState(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Written to a temporary file and renamed, so a crash mid-write leaves the previous state intact. */
export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, JSON.stringify(state, null, 2) + '\n');
}
