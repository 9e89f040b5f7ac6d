import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';

/**
 * The end of a dialog: its error (announced), the close button (disabled while `busy`) and the
 * main action.
 */
export function DialogFooter({
  error,
  busy = false,
  closeLabel,
  children,
}: {
  error: string | null | undefined;
  busy?: boolean;
  closeLabel: string;
  children: ReactNode;
}) {
  return (
    <>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions">
        <Dialog.Close asChild>
          <button type="button" className="btn" disabled={busy}>
            {closeLabel}
          </button>
        </Dialog.Close>
        {children}
      </div>
    </>
  );
}
