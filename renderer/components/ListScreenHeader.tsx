import { useState, type ReactNode } from 'react';
import type { Capability } from '../../contract/index';
import { useCapabilityInReaderLanguage } from './use-capability';
import { ActionButton } from './ActionButton';
import { ScreenHeader } from './misc';

/** What a create form is handed: cancel closes it; done closes it and tells the screen. */
export interface CreateFormHandlers {
  onClose(): void;
  onDone(): void;
}

interface ListScreenHeaderProps {
  title: string;
  /** What the role must be allowed to do to create; the button is refused without it. */
  capability: Capability;
  actionLabel: string;
  /** Say under the title why the role may not create (screens the role may still read). */
  explainRefusal?: boolean;
  /** The create form, shown under the header while it is open. */
  form(handlers: CreateFormHandlers): ReactNode;
  /** After the form is done and closed: reload the list, open what was made. */
  onDone?(): void;
}

/** A list screen's header with the primary button that opens its create form. */
export function ListScreenHeader({
  title,
  capability,
  actionLabel,
  explainRefusal,
  form,
  onDone,
}: ListScreenHeaderProps) {
  const [open, setOpen] = useState(false);
  const role = useCapabilityInReaderLanguage(capability);
  const onClose = () => setOpen(false);
  return (
    <>
      <ScreenHeader title={title} note={explainRefusal && !role.allowed ? role.reason : undefined}>
        <ActionButton variant="primary" capability={capability} onClick={() => setOpen(true)}>
          {actionLabel}
        </ActionButton>
      </ScreenHeader>
      {open
        ? form({
            onClose,
            onDone: () => {
              onClose();
              onDone?.();
            },
          })
        : null}
    </>
  );
}
