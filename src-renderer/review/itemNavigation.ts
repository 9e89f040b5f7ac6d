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
 * Opens the next open item the agent can work: the most urgent one (the queue's default order,
 * by deadline, #39.2) that is not this one, not held by someone else and not waiting for the
 * merchant; back to the list when there is none.
 */
export async function openNextItem(currentId: number, show: (msg: string) => void): Promise<void> {
  try {
    const page = await call('review/list', { view: 'aberta', sort: 'prazo', limit: 50 });
    const others = page.items.filter((it) => it.id !== currentId);
    const free = others.filter((it) => it.emAnalisePor === null);
    const next = free.find((it) => it.situacao !== 'aguardando_lojista') ?? free[0] ?? others[0];
    if (next) {
      navigate('fila', next.id);
      return;
    }
    show('Não há outro pedido aberto na fila.');
  } catch (e) {
    show(errorMessage(e));
  }
  navigate('fila');
}
