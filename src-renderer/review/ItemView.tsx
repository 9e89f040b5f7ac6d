import { useLiveQueue } from './live';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ExtractionDetail } from '@shared/contract/review';
import { questionFor } from '@shared/question';
import { ApiError, call, errorMessage } from '../api';
import { useAppInfo, useTimeZone } from '../appInfo';
import { Page } from '../components/Layout';
import { useShortcut } from '../components/Shortcuts';
import { ErrorState, LoadingState, StatusBadge } from '../components/States';
import { itemToastScope, useToast } from '../components/Toast';
import { formatDateTime } from '../format';
import { hrefFor } from '../router';
import { ChargeEditor, type EditorAction } from './ChargeEditor';
import { AskDialog, ConfirmDialog, DiscardDialog, ReopenDialog } from './dialogs';
import { usePermissions } from '../session/session';
import { DraftBox } from './DraftBox';
import { checkForm, formFromDados, sameForm, type FormState } from './form';
import { ItemHistory } from './ItemHistory';
import { ItemThread, useThread, type ThreadState } from './ItemThread';
import { closeItem, openNextItem } from './itemNavigation';
import { ItemOutcome } from './ItemOutcome';
import { itemBadge } from './labels';
import { LeaseBanner } from './LeaseBanner';
import { useItemActions, type OnUpdated } from './useItemActions';
import { useItemShortcuts } from './useItemShortcuts';
import { useLease, type Claim } from './useLease';

/** One queue item: claimed while open, the attempt timeline, the edit form, the actions. */
export function ItemView({ id }: { id: number }) {
  const [detail, setDetail] = useState<ExtractionDetail | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [nonce, setNonce] = useState(0);
  // What the agent typed when the item left her hands (#42.3): outlives the form's remounts.
  const [draft, setDraft] = useState<FormState | null>(null);
  // The form as typed and as saved, kept by the form's effect for the moment the lease is lost.
  const typed = useRef<{ typed: FormState; saved: FormState } | null>(null);
  const claim = useLease(id, () => {
    const f = typed.current;
    if (f && !sameForm(f.typed, f.saved)) setDraft(f.typed);
  });
  const { lease, retry, applyActionLease } = claim;
  // The agent's own action answered with the item: its echo is neither refetched nor lived.
  const own = lease.kind === 'held' || lease.kind === 'ended';
  // Live: someone else's change to this item shows at once (never under the agent's own edits).
  // Its lease changing hands (a supervisor took it over) is checked at once (#42.3).
  useLiveQueue((c) => {
    if (lease.kind === 'held' && c.reservas?.includes(id)) claim.check();
    if (!own && (!c.ids.length || c.ids.includes(id))) setNonce((n) => n + 1);
  });
  // Fetched again when the claim settles (held, someone else's, lost), not when an action ends it.
  const claimState = lease.kind === 'ended' ? 'held' : lease.kind;

  useEffect(() => {
    let stale = false;
    call('review/get', { id })
      .then((d) => {
        if (!stale) {
          setDetail(d);
          setLoadError(null);
        }
      })
      .catch((e: unknown) => {
        if (!stale)
          setLoadError(
            e instanceof ApiError ? e : new ApiError({ code: 'interno', message: errorMessage(e) }),
          );
      });
    return () => {
      stale = true;
    };
  }, [id, nonce, claimState]);

  useShortcut('Escape', closeItem, {
    description: 'Fechar o pedido e voltar à fila',
    group: 'Pedido',
  });
  // A notice of this item never outlives its screen (#42.2): gone when another item opens.
  const toastApi = useToast();
  useEffect(() => () => toastApi.dismissScope(itemToastScope(id)), [id, toastApi]);
  // The conversation lives with the screen: the body below is rebuilt on every change of state
  // (a confirm), and the thread must not be fetched again for it.
  const thread = useThread(
    id,
    detail?.eventos.filter((e) => e.acao === 'pergunta_ao_lojista').length ?? 0,
  );

  if (loadError && !detail) {
    return (
      <Page title={`Pedido #${id}`}>
        <ErrorState error={loadError} onRetry={() => setNonce((n) => n + 1)} />
        <a className="link" href={hrefFor('fila')}>
          Voltar à fila
        </a>
      </Page>
    );
  }
  if (!detail) {
    return (
      <Page title={`Pedido #${id}`}>
        <LoadingState label="Abrindo o pedido…" />
      </Page>
    );
  }
  return (
    <ItemBody
      key={`${detail.id}-${detail.tentativas}-${detail.status}-${detail.filaEstado}`}
      detail={detail}
      thread={thread}
      claim={claim}
      draft={draft}
      onDraft={setDraft}
      onTyped={(f) => {
        typed.current = f;
      }}
      onReopened={(item) => {
        setDetail(item);
        retry(); // back in the open queue: claim it
      }}
      onUpdated={(item, after) => {
        applyActionLease(after);
        setDetail(item);
      }}
    />
  );
}

function ItemBody({
  detail,
  thread,
  claim,
  draft,
  onDraft,
  onTyped,
  onReopened,
  onUpdated,
}: {
  detail: ExtractionDetail;
  /** The item's conversation with the merchant, loaded by the screen. */
  thread: ThreadState;
  /** The caller's claim on the item: its lease (the token while held), retry, take over. */
  claim: Claim;
  /** What the agent typed when the item left her hands (null: nothing kept). */
  draft: FormState | null;
  onDraft: (d: FormState | null) => void;
  /** Told the form as typed and as saved after every change (read when the lease is lost). */
  onTyped: (f: { typed: FormState; saved: FormState }) => void;
  onReopened: (item: ExtractionDetail) => void;
  onUpdated: OnUpdated;
}) {
  const { lease } = claim;
  const held = lease.kind === 'held' ? lease.token : null;
  const supervisor = usePermissions().can('supervisao');
  const [reopening, setReopening] = useState<'closed' | 'open' | 'busy'>('closed');
  const [reopenError, setReopenError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(t);
  }, []);
  const zone = useTimeZone();
  const info = useAppInfo();
  const toast = useToast();
  const today = info.data?.today ?? detail.hoje ?? '';
  const saved = detail.dadosRevisados ?? detail.dados;
  const [typed, setForm] = useState<FormState>(() => formFromDados(saved));
  // #42.3: while someone else has the item (taken over, or never ours) the read-only form shows
  // the item as it now is; what she typed went to her draft when the lease was lost. Back in
  // her hands, the form starts again from what is saved.
  const gone = lease.kind === 'lost' || lease.kind === 'other';
  const [wasGone, setWasGone] = useState(gone);
  if (wasGone !== gone) {
    setWasGone(gone);
    if (!gone) setForm(formFromDados(saved));
  }
  const savedForm = useMemo(() => formFromDados(saved), [saved]);
  const form = gone ? savedForm : typed;
  useEffect(() => onTyped({ typed, saved: savedForm }), [typed, savedForm, onTyped]);
  const check = useMemo(() => checkForm(form, today), [form, today]);
  const actions = useItemActions({
    detail,
    held,
    check,
    onUpdated,
    onRefused: claim.check,
    ...(supervisor
      ? {
          undoDiscard: async () => {
            const item = await call('review/reopen', {
              id: detail.id,
              motivo: 'Descarte desfeito logo em seguida (Desfazer).',
            });
            toast.show('success', `Pedido #${detail.id} reaberto: de volta à fila.`, {
              scope: itemToastScope(detail.id),
            });
            onReopened(item);
          },
        }
      : {}),
  });
  const { dialog, setDialog, openDialog, busy, actionError, notice } = actions;
  // The question follows the form: what is missing in it now.
  const pergunta = questionFor(check.faltando);
  const firstField = useRef<HTMLInputElement>(null);
  const open = detail.filaEstado === 'aberta';
  const canAct = open && held !== null && !busy;
  const canAsk = pergunta !== null;

  const noDialog = dialog === null;
  const nextRef = useRef<HTMLButtonElement>(null);
  const goNext = () => void openNextItem(detail.id, (m) => toast.show('info', m));
  useItemShortcuts({
    canEdit: canAct && noDialog,
    noDialog,
    ready: check.ready,
    goNext,
    focusForm: () => firstField.current?.focus(),
    openDialog,
    saveDraft: () => void actions.saveDraft(),
    reprocess: () => void actions.reprocess(),
  });
  // After a final action (charge, discard, question sent) the next step is the next item: its
  // button takes the focus once no dialog is open (after the dialog gives the focus back).
  const waiting = detail.situacao === 'aguardando_lojista';
  const finished = !open || waiting;
  useEffect(() => {
    if (!finished || !noDialog) return;
    const t = window.setTimeout(() => nextRef.current?.focus(), 30);
    return () => window.clearTimeout(t);
  }, [finished, noDialog]);

  const reopen = async (motivo: string) => {
    setReopening('busy');
    setReopenError(null);
    try {
      const item = await call('review/reopen', { id: detail.id, motivo });
      toast.show('success', `Pedido #${detail.id} reaberto: de volta à fila.`);
      setReopening('closed');
      onReopened(item);
    } catch (e) {
      setReopenError(errorMessage(e));
      setReopening('open');
    }
  };

  const badge = itemBadge(detail, now);
  const onAction = (a: EditorAction) => {
    if (a === 'save') void actions.saveDraft();
    else if (a === 'reprocess') void actions.reprocess();
    else openDialog(a);
  };

  return (
    <Page
      title={`Pedido #${detail.id} · ${detail.merchantNome}`}
      subtitle={
        <>
          Recebido {formatDateTime(detail.criadaEm, zone)} ·{' '}
          <StatusBadge tone={badge.tone}>
            <span data-testid="item-situacao">{badge.text}</span>
          </StatusBadge>{' '}
          · {detail.tentativas} {detail.tentativas === 1 ? 'tentativa' : 'tentativas'}
        </>
      }
      actions={
        <>
          {detail.filaEstado === 'descartada' && supervisor ? (
            <button type="button" className="btn" onClick={() => setReopening('open')}>
              Reabrir pedido
            </button>
          ) : null}
          <a className="btn" href={hrefFor('fila')}>
            ← Fila <kbd>Esc</kbd>
          </a>
          <button
            type="button"
            ref={nextRef}
            className={finished ? 'btn btn-primary' : 'btn'}
            onClick={goNext}
            data-testid="next-item"
          >
            Próximo pedido <kbd>J</kbd>
          </button>
        </>
      }
    >
      <LeaseBanner
        detail={detail}
        lease={lease}
        onRetry={claim.retry}
        onTakeOver={claim.takeOver}
      />
      <div className="review-item">
        <ItemHistory detail={detail} zone={zone} />
        <div className="review-col">
          <ItemOutcome detail={detail} zone={zone} />
          <ItemThread state={thread} zone={zone} />
          {open && draft ? (
            <DraftBox
              draft={draft}
              onUse={held ? () => setForm(draft) : null}
              onDismiss={() => onDraft(null)}
            />
          ) : null}
          {open ? (
            <ChargeEditor
              detail={detail}
              firstField={firstField}
              form={form}
              check={check}
              onChange={setForm}
              held={held !== null}
              canAct={canAct}
              canAsk={canAsk}
              reprocessing={busy && noDialog}
              notice={noDialog ? notice : null}
              onAction={onAction}
            />
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        open={dialog === 'confirm'}
        onOpenChange={(o) => setDialog(o ? 'confirm' : null)}
        merchantNome={detail.merchantNome}
        dados={check.dados}
        model={detail.dados}
        alertas={detail.alertas}
        busy={busy}
        error={actionError?.message ?? null}
        onConfirm={(vencimentoConfirmado) => void actions.confirm(vencimentoConfirmado)}
      />
      <DiscardDialog
        open={dialog === 'discard'}
        onOpenChange={(o) => setDialog(o ? 'discard' : null)}
        busy={busy}
        error={actionError}
        onDiscard={(m, t) => void actions.discard(m, t)}
      />
      <ReopenDialog
        open={reopening !== 'closed'}
        onOpenChange={(o) => {
          setReopenError(null);
          setReopening(o ? 'open' : 'closed');
        }}
        busy={reopening === 'busy'}
        error={reopenError}
        onReopen={(m) => void reopen(m)}
      />
      <AskDialog
        open={dialog === 'ask'}
        onOpenChange={(o) => setDialog(o ? 'ask' : null)}
        pergunta={pergunta}
        busy={busy}
        error={actionError?.message ?? null}
        notice={notice}
        onCopy={(t) => void actions.copyQuestion(t)}
        onSend={(t) => void actions.sendQuestion(t)}
        onAnswer={(r) => void actions.answer(r)}
      />
    </Page>
  );
}
