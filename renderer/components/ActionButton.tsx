import { useId, type ReactNode } from 'react';
import type { Capability } from '../../contract/index';
import { useCapabilityInReaderLanguage } from './use-capability';

interface ActionButtonProps {
  children: ReactNode;
  onClick(): void;
  /** What the signed-in role must be allowed to do. */
  capability?: Capability;
  /** Another reason the action cannot run now (e.g. "Select a device first"). */
  disabledReason?: string | null;
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
  busy?: boolean;
  type?: 'button' | 'submit';
  className?: string;
  /** Show the reason as text beside the button (not only as a tooltip). */
  showReason?: boolean;
  name?: string;
}

/**
 * A button that may be refused: by the role (the capability) or by the state. A refused button stays
 * in the tab order (aria-disabled, not disabled) so a keyboard user reaches it and hears why.
 */
export function ActionButton({
  children,
  onClick,
  capability,
  disabledReason,
  variant = 'secondary',
  busy,
  type = 'button',
  className,
  showReason,
  name,
}: ActionButtonProps) {
  const role = useCapabilityInReaderLanguage(capability ?? 'configurations.read');
  const reasonId = useId();
  const roleReason = capability && !role.allowed ? role.reason : null;
  const reason = roleReason ?? disabledReason ?? null;
  const refused = reason !== null || Boolean(busy);
  return (
    <span className={`action${className ? ` ${className}` : ''}`}>
      <button
        type={type}
        name={name}
        className={`button button--${variant}${busy ? ' button--busy' : ''}`}
        aria-disabled={refused}
        aria-describedby={reason ? reasonId : undefined}
        title={reason ?? undefined}
        onClick={(e) => {
          if (refused) {
            e.preventDefault();
            return;
          }
          onClick();
        }}
      >
        {children}
      </button>
      {reason ? (
        <span id={reasonId} className={showReason ? 'action__reason' : 'visually-hidden'}>
          {reason}
        </span>
      ) : null}
    </span>
  );
}
