import { call, errorMessage } from '../api';
import { navigate } from '../router';

/**
 * Esc closes the item — unless the agent is in a field (Esc leaves it) or a modal is open: the shortcut registry already took the key
 * (preventDefault), so a native <dialog> (the help overlay) is closed here, and a Radix
 * dialog (which closes itself on Esc) is left alone.
 */
export function closeItem(): void {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active.closest('.review-form')) {
    active.blur(); // first Esc leaves the field, the next one closes the item
    return;
  }
  const native = document.querySelector<HTMLDialogElement>('dialog[open]');
  if (native) {
    native.close();
    return;
  }
  if (document.querySelector('[role="dialog"][data-state="open"]')) return;
  navigate('fila');
}

/**
 * Opens the next item the agent can work, already claimed for them by the server (#39.1): the
 * most urgent one (the queue's default order, by deadline, #39.2; the ones a supervisor assigned
 * to them first) that is not this one, not held by anyone, not assigned to someone else and not
 * waiting for the merchant. With a team on the queue, two people pressing J at once get two
 * different items. Back to the list when there is none.
 */
export async function openNextItem(currentId: number, show: (msg: string) => void): Promise<void> {
  try {
    const next = await call('review/claimNext', { exceto: currentId });
    if (next.claimed) {
      navigate('fila', next.id);
      return;
    }
    show(next.mensagem);
  } catch (e) {
    show(errorMessage(e));
  }
  navigate('fila');
}
