import type {
  ExtractionDetail,
  ItemAfterAction,
  ItemLease,
  RerunResult,
} from '@shared/contract/review';
import { DISCARD_REASON_LABELS, type DiscardReason } from '@shared/contract/review';
import { formatBRL } from '@shared/money';
import { useState } from 'react';
import { ApiError, call, errorMessage } from '../api';
import { itemToastScope, useToast } from '../components/Toast';
import type { FormCheck } from './form';

export type DialogName = 'confirm' | 'discard' | 'ask' | null;

/** What every item action answers with: the item as it now is and the agent's lease. */
export type OnUpdated = (item: ExtractionDetail, lease: ItemLease) => void;

const withoutLease = ({ lease, ...item }: ItemAfterAction): [ExtractionDetail, ItemLease] => [
  item,
  lease,
];

/**
 * The actions on one held item (confirm, discard, ask the merchant, record the answer, save a
 * draft, reprocess) with their busy flag, error, notice and open dialog. Each is one call: its
 * answer carries the updated item and the lease, handed to `onUpdated`.
 */
export function useItemActions({
  detail,
  held,
  check,
  onUpdated,
  onRefused,
  undoDiscard,
}: {
  detail: ExtractionDetail;
  held: string | null;
  check: FormCheck;
  onUpdated: OnUpdated;
  /**
   * An action refused as a conflict or another's reservation (#42.3): the lease may be gone;
   * the caller checks it at once.
   */
  onRefused?: () => void;
  /** Where undo exists (a supervisor may reopen): offered in the discard's notice. */
  undoDiscard?: () => Promise<void>;
}) {
  const toast = useToast();
  // Every notice of this item is of this item: its screen dismisses them when it goes (#42.2).
  const scope = itemToastScope(detail.id);
  const [dialog, setDialog] = useState<DialogName>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const refused = (e: unknown) => {
    if (e instanceof ApiError && (e.code === 'conflito' || e.code === 'acesso_negado')) {
      onRefused?.();
    }
  };

  const openDialog = (d: DialogName) => {
    setActionError(null);
    setNotice(null);
    setDialog(d);
  };

  /** `vencimentoConfirmado`: the due date the agent confirmed in the dialog (#42.1). */
  const confirm = async (vencimentoConfirmado?: string | null) => {
    if (!held) return;
    setBusy(true);
    setActionError(null);
    try {
      const r = await call('review/confirm', {
        id: detail.id,
        token: held,
        dados: check.dados,
        ...(vencimentoConfirmado ? { vencimentoConfirmado } : {}),
      });
      toast.show(
        'success',
        r.criada
          ? `Cobrança #${r.cobranca.id} criada (lojista ${detail.merchantNome}): ${formatBRL(r.cobranca.valorCentavos)} para ${r.cobranca.clienteNome}.`
          : `Esta cobrança já tinha sido criada por ${r.cobranca.criadaPor} (#${r.cobranca.id}, lojista ${detail.merchantNome}).`,
        { scope },
      );
      setDialog(null);
      onUpdated(r.item, r.lease);
    } catch (e) {
      refused(e);
      setActionError(e instanceof ApiError ? e : null);
      if (!(e instanceof ApiError)) toast.show('error', errorMessage(e), { scope });
    } finally {
      setBusy(false);
    }
  };

  const discard = async (motivo: DiscardReason, detalhe: string) => {
    if (!held) return;
    setBusy(true);
    try {
      const d = await call('review/discard', {
        id: detail.id,
        token: held,
        motivo,
        ...(detalhe.trim() ? { detalhe: detalhe.trim() } : {}),
      });
      toast.show('success', `Pedido #${detail.id} descartado (${DISCARD_REASON_LABELS[motivo]}).`, {
        scope,
        ...(undoDiscard
          ? {
              action: {
                label: 'Desfazer',
                run: () =>
                  void undoDiscard().catch((e: unknown) =>
                    toast.show('error', errorMessage(e), { scope }),
                  ),
              },
            }
          : {}),
      });
      setDialog(null);
      // Not back to the list: the item shows its outcome and "Próximo pedido" takes the focus.
      onUpdated(...withoutLease(d));
    } catch (e) {
      refused(e);
      setActionError(
        e instanceof ApiError ? e : new ApiError({ code: 'interno', message: errorMessage(e) }),
      );
    } finally {
      setBusy(false);
    }
  };

  /**
   * Copies the question (as the agent edited it) for what the form misses now; the item then
   * waits for the merchant.
   */
  const copyQuestion = async (texto?: string) => {
    if (!held) return;
    try {
      const r = await call('review/askMerchant', {
        id: detail.id,
        token: held,
        faltando: check.faltando,
      });
      const item = await call('review/get', { id: detail.id });
      onUpdated(item, { held: true, expiraEm: item.leaseExpiraEm });
      try {
        await navigator.clipboard.writeText(texto || r.pergunta);
        toast.show('info', 'Pergunta copiada. Cole na conversa com o lojista.', { scope });
      } catch {
        toast.show(
          'info',
          'Selecione e copie a pergunta (a área de transferência não está disponível).',
          { scope },
        );
      }
    } catch (e) {
      refused(e);
      setActionError(e instanceof ApiError ? e : null);
    }
  };

  /**
   * Sends the agent's (edited) question to the merchant through the item's channel (#37.4); the
   * item then waits for the merchant and the thread shows it going out.
   */
  const sendQuestion = async (texto: string) => {
    if (!held) return;
    setBusy(true);
    setActionError(null);
    try {
      const r = await call('review/sendQuestion', { id: detail.id, token: held, pergunta: texto });
      const item = await call('review/get', { id: detail.id });
      onUpdated(item, { held: true, expiraEm: item.leaseExpiraEm });
      if (r.enviada) {
        toast.show(
          'success',
          r.canal === 'whatsapp'
            ? 'Pergunta enviada ao lojista pelo WhatsApp.'
            : 'Pergunta enviada ao lojista.',
          { scope },
        );
        setDialog(null);
      } else {
        setNotice(
          'Este pedido não veio de uma conversa com o lojista: copie a pergunta e envie por outro canal.',
        );
      }
    } catch (e) {
      refused(e);
      setActionError(
        e instanceof ApiError ? e : new ApiError({ code: 'interno', message: errorMessage(e) }),
      );
    } finally {
      setBusy(false);
    }
  };

  const afterRerun = (r: RerunResult & { lease: ItemLease }) => {
    if (r.executado) {
      toast.show('success', 'Extração refeita com o modelo.', { scope });
      setDialog(null);
    } else {
      // Shown in place, beside the form the agent now fills by hand (not twice, as a toast too).
      setNotice(r.mensagem);
    }
    onUpdated(r.detalhe, r.lease);
  };

  const answer = async (resposta: string) => {
    if (!held) return;
    setBusy(true);
    setNotice(null);
    setActionError(null);
    try {
      afterRerun(await call('review/recordAnswer', { id: detail.id, token: held, resposta }));
    } catch (e) {
      refused(e);
      setActionError(e instanceof ApiError ? e : null);
    } finally {
      setBusy(false);
    }
  };

  /** Save and reprocess: busy while running, a failure is a toast (no dialog is open). */
  const inline = async (run: (token: string) => Promise<void>) => {
    if (!held) return;
    setBusy(true);
    try {
      await run(held);
    } catch (e) {
      refused(e);
      toast.show('error', errorMessage(e), { scope });
    } finally {
      setBusy(false);
    }
  };

  const saveDraft = () =>
    inline(async (token) => {
      const saved = await call('review/save', { id: detail.id, token, dados: check.dados });
      onUpdated(...withoutLease(saved));
      toast.show('success', 'Rascunho salvo. Ele volta quando o pedido for aberto de novo.', {
        scope,
      });
    });

  const reprocess = () =>
    inline(async (token) => afterRerun(await call('review/reprocess', { id: detail.id, token })));

  return {
    dialog,
    setDialog,
    openDialog,
    busy,
    actionError,
    notice,
    confirm,
    discard,
    copyQuestion,
    sendQuestion,
    answer,
    saveDraft,
    reprocess,
  };
}
