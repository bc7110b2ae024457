import { useEffect, type RefObject } from 'react';

/**
 * A form that opens on request (New configuration, Add a device) comes into view with the cursor
 * in its first field, so the technician types at once instead of hunting for it.
 */
export function useFocusOnOpen(formRef: RefObject<HTMLFormElement | null>): void {
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    form.scrollIntoView?.({ block: 'nearest' });
    form
      .querySelector<HTMLElement>(
        'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])',
      )
      ?.focus();
  }, [formRef]);
}
