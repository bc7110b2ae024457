import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The buttons under a create form: submit and Cancel. A busy submit stays focusable (aria-disabled),
 * and the form's own handler ignores it while busy.
 */
export function FormActions({
  submitLabel,
  busy,
  onCancel,
}: {
  submitLabel: ReactNode;
  busy?: boolean;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="form-actions">
      <button type="submit" className="button button--primary" aria-disabled={busy}>
        {submitLabel}
      </button>
      <button type="button" className="button button--quiet" onClick={onCancel}>
        {t('screens:form.cancel')}
      </button>
    </div>
  );
}
