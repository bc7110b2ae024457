import { errorText } from '../api/client';
import { create } from 'zustand';

export type NoticeTone = 'info' | 'success' | 'error';
export interface Notice {
  id: number;
  tone: NoticeTone;
  text: string;
}

interface NoticeState {
  notices: Notice[];
  push(tone: NoticeTone, text: string): void;
  dismiss(id: number): void;
}

/** Short messages after an action ("Configuration saved"); read out by screen readers through a live region. */
export const useNotices = create<NoticeState>((set) => {
  let next = 1;
  return {
    notices: [],
    push(tone, text) {
      const id = next++;
      // Keep the last few only: a notice area that grows pushes nothing around, it is an overlay.
      set((s) => ({ notices: [...s.notices.slice(-2), { id, tone, text }] }));
      if (tone !== 'error') setTimeout(() => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })), 6000);
    },
    dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  };
});

export function notify(tone: NoticeTone, text: string): void {
  useNotices.getState().push(tone, text);
}

/**
 * Run a change the technician asked for: on success say so (the text may depend on the answer) and
 * call `then` (reload a list); on failure say why. Resolves true when it succeeded.
 */
export async function runWithNotice<T>(
  action: () => Promise<T>,
  success: string | ((value: T) => string),
  then?: () => void,
): Promise<boolean> {
  try {
    const value = await action();
    notify('success', typeof success === 'string' ? success : success(value));
    then?.();
    return true;
  } catch (err) {
    notify('error', errorText(err));
    return false;
  }
}
