import { useId, useState } from 'react';
import type { Translator } from '../../domain/i18n/index.js';
import { useTranslator } from '../i18n/I18nProvider';

/** Largest image we send: the service refuses bigger ones (DEVICE_IMAGE_TOO_LARGE) and it travels in JSON. */
const MAX_IMAGE_BYTES = 1_400_000;

/** Reads a picked image file as a data URL (the service stores the text as sent); refusals in the reader's language. */
export function readImageFile(file: File, t: Translator['t']): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!file.type.startsWith('image/')) {
      reject(new Error(t('screens:image.notAnImage', { name: file.name })));
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      reject(
        new Error(
          t('screens:image.tooLarge', {
            name: file.name,
            size: Math.round(file.size / 1024),
            max: Math.round(MAX_IMAGE_BYTES / 1024),
          }),
        ),
      );
      return;
    }
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(t('screens:image.unreadable')));
    reader.readAsDataURL(file);
  });
}

export function ImagePicker({ label, onPicked }: { label: string; onPicked(dataUrl: string | null): void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslator();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input input--file"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        aria-describedby={`${id}-message`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) {
            onPicked(null);
            return;
          }
          readImageFile(file, t).then(
            (url) => {
              setError(null);
              onPicked(url);
            },
            (err: unknown) => {
              setError(err instanceof Error ? err.message : String(err));
              onPicked(null);
            },
          );
        }}
      />
      <p id={`${id}-message`} className={error ? 'field__error' : 'field__hint'}>
        {error ?? t('screens:image.hint')}
      </p>
    </div>
  );
}
