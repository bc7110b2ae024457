import { setI18n } from 'react-i18next';
import { createTranslator } from '../../domain/i18n/index.js';

/**
 * English for any component drawn outside the provider (the component tests mount screens on
 * their own): react-i18next's hooks fall back to this instance instead of showing bare keys.
 */
setI18n(createTranslator('en').i18next);
