import { useShortcut } from '../components/Shortcuts';
import type { DialogName } from './useItemActions';

/** The item's keyboard shortcuts (group "Pedido"); the editing ones only while the agent can act. */
export function useItemShortcuts({
  canEdit,
  noDialog,
  ready,
  goNext,
  focusForm,
  openDialog,
  saveDraft,
  reprocess,
}: {
  /** The agent holds the item, nothing is running and no dialog is open. */
  canEdit: boolean;
  noDialog: boolean;
  /** The form can be confirmed. */
  ready: boolean;
  goNext: () => void;
  focusForm: () => void;
  openDialog: (d: DialogName) => void;
  saveDraft: () => void;
  reprocess: () => void;
}): void {
  useShortcut('j', goNext, {
    description: 'Próximo pedido',
    group: 'Pedido',
    enabled: noDialog,
  });
  useShortcut('e', focusForm, {
    description: 'Editar os campos',
    group: 'Pedido',
    enabled: canEdit,
  });
  useShortcut('Mod+Enter', () => (ready ? openDialog('confirm') : undefined), {
    description: 'Confirmar e criar cobrança',
    group: 'Pedido',
    enabled: canEdit,
    allowInInputs: true,
  });
  useShortcut('d', () => openDialog('discard'), {
    description: 'Descartar com motivo',
    group: 'Pedido',
    enabled: canEdit,
  });
  useShortcut('p', () => openDialog('ask'), {
    description: 'Perguntar ao lojista',
    group: 'Pedido',
    enabled: canEdit,
  });
  useShortcut('Mod+s', saveDraft, {
    description: 'Salvar rascunho',
    group: 'Pedido',
    enabled: canEdit,
    allowInInputs: true,
  });
  useShortcut('Alt+r', reprocess, {
    description: 'Reprocessar com o modelo',
    group: 'Pedido',
    enabled: canEdit,
  });
}
