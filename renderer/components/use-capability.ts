import type { Capability, CapabilityState } from '../../contract/index';
import { SOURCE_LANGUAGE } from '../../domain/i18n/index.js';
import { useTranslator } from '../i18n/I18nProvider';
import { signedIn, useCapability, useSession } from '../stores/session';

/**
 * Whether the signed-in key may do something, with the reason in the reader's language when it
 * may not. The core words the reason in English (with the roles that may); English keeps it, other
 * languages say it by the capability and the key's role (`screens:capability.refused.<name>`).
 */
export function useCapabilityInReaderLanguage(name: Capability): CapabilityState {
  const state = useCapability(name);
  const role = useSession((s) => signedIn(s.session)?.role ?? null);
  const { t, language } = useTranslator();
  if (state.allowed || language === SOURCE_LANGUAGE) return state;
  if (role === null) return { allowed: false, reason: t('screens:capability.signInFirst') };
  return { allowed: false, reason: t(`screens:capability.refused.${name}`, { role: t(`screens:role.${role}`) }) };
}
