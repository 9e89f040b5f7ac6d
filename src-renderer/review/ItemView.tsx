import { useLiveQueue } from './live';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ExtractionDetail, RerunResult } from '@shared/contract/review';
import { DISCARD_REASON_LABELS, type DiscardReason } from '@shared/contract/review';
import { formatBRL } from '@shared/money';
import { ApiError, call, errorMessage } from '../api';
import { useAppInfo, useTimeZone } from '../appInfo';
import { Page } from '../components/Layout';
import { displayCombo, useShortcut } from '../components/Shortcuts';
import { ErrorState, LoadingState, StatusBadge } from '../components/States';
import { useToast } from '../components/Toast';
import { formatDateTime } from '../format';
import { hrefFor, navigate } from '../router';
import { ChargeForm } from './ChargeForm';
import { describeCharge, fieldLabel, formatFieldValue } from './describe';
import { AskDialog, ConfirmDialog, DiscardDialog } from './dialogs';
import { checkForm, formFromDados, type FormState } from './form';
import { STATUS_LABEL, STATUS_TONE } from './labels';
import { AuditTrail, Timeline, UsageDetails } from './Timeline';
import { useLease } from './useLease';

type DialogName = 'confirm' | 'discard' | 'ask' | null;

/**
 * Esc closes the item — unless the agent is in a field (Esc leaves it) or a modal is open: the shortcut registry already took the key
 * (preventDefault), so a native <dialog> (the help overlay) is closed here, and a Radix
 * dialog (which closes itself on Esc) is left alone.
 */
function closeItem(): void {
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
 * Opens the next open item the agent can work: the longest-waiting one that is not this one
 * and not held by someone else; back to the list when there is none.
 */
async function openNextItem(currentId: number, show: (msg: string) => void): Promise<void> {
  try {
    const page = await call('review/list', { view: 'aberta', sort: 'antigas', limit: 50 });
    const others = page.items.filter((it) => it.id !== currentId);
    const next = others.find((it) => it.emAnalisePor === null) ?? others[0];
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

/** One queue item: claimed while open, the attempt timeline, the edit form, the actions. */
export function ItemView({ id }: { id: number }) {
  const [detail, setDetail] = useState<ExtractionDetail | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [nonce, setNonce] = useState(0);
  const { lease, retry, markDone } = useLease(id);
  // Live: someone else's change to this item shows at once (never under the agent's own edits).
  useLiveQueue((c) => {
    if (lease.kind !== 'held' && (!c.ids.length || c.ids.includes(id))) setNonce((n) => n + 1);
  });

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
  }, [id, nonce, lease.kind]);

  useShortcut('Escape', closeItem, {
    description: 'Fechar o pedido e voltar à fila',
    group: 'Pedido',
  });

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
      key={`${detail.id}-${detail.tentativas}-${detail.status}`}
      detail={detail}
      held={lease.kind === 'held' ? lease.token : null}
      leaseInfo={lease}
      onRetryClaim={retry}
      onChanged={(d) => setDetail(d)}
      onDone={(d) => {
        markDone();
        setDetail(d);
      }}
    />
  );
}

function ItemBody({
  detail,
  held,
  leaseInfo,
  onRetryClaim,
  onChanged,
  onDone,
}: {
  detail: ExtractionDetail;
  held: string | null;
  leaseInfo: ReturnType<typeof useLease>['lease'];
  onRetryClaim: () => void;
  onChanged: (d: ExtractionDetail) => void;
  onDone: (d: ExtractionDetail) => void;
}) {
  const zone = useTimeZone();
  const info = useAppInfo();
  const toast = useToast();
  const today = info.data?.today ?? detail.hoje ?? '';
  const [form, setForm] = useState<FormState>(() =>
    formFromDados(detail.dadosRevisados ?? detail.dados),
  );
  const check = useMemo(() => checkForm(form, today), [form, today]);
  const [dialog, setDialog] = useState<DialogName>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const pergunta = detail.pergunta;
  const firstField = useRef<HTMLInputElement>(null);
  const open = detail.filaEstado === 'aberta';
  const canAct = open && held !== null && !busy;
  // Something is missing in the stored version (the question comes from its `faltando`).
  const canAsk = pergunta !== null;

  const openDialog = (d: DialogName) => {
    setActionError(null);
    setNotice(null);
    setDialog(d);
  };

  const confirm = async () => {
    if (!held) return;
    setBusy(true);
    setActionError(null);
    try {
      const r = await call('review/confirm', { id: detail.id, token: held, dados: check.dados });
      toast.show(
        'success',
        r.criada
          ? `Cobrança #${r.cobranca.id} criada: ${formatBRL(r.cobranca.valorCentavos)} para ${r.cobranca.clienteNome}.`
          : `Esta cobrança já tinha sido criada por ${r.cobranca.criadaPor} (#${r.cobranca.id}).`,
      );
      setDialog(null);
      onDone(await call('review/get', { id: detail.id }));
    } catch (e) {
      setActionError(e instanceof ApiError ? e : null);
      if (!(e instanceof ApiError)) toast.show('error', errorMessage(e));
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
      toast.show('success', `Pedido #${detail.id} descartado (${DISCARD_REASON_LABELS[motivo]}).`);
      setDialog(null);
      onDone(d);
      navigate('fila');
    } catch (e) {
      setActionError(
        e instanceof ApiError ? e : new ApiError({ code: 'interno', message: errorMessage(e) }),
      );
    } finally {
      setBusy(false);
    }
  };

  const copyQuestion = async () => {
    if (!held) return;
    try {
      const r = await call('review/askMerchant', { id: detail.id, token: held });
      try {
        await navigator.clipboard.writeText(r.pergunta);
        toast.show('info', 'Pergunta copiada. Cole na conversa com o lojista.');
      } catch {
        toast.show(
          'info',
          'Selecione e copie a pergunta (a área de transferência não está disponível).',
        );
      }
    } catch (e) {
      setActionError(e instanceof ApiError ? e : null);
    }
  };

  const afterRerun = (r: RerunResult) => {
    if (r.executado) {
      toast.show('success', 'Extração refeita com o modelo.');
      setDialog(null);
      onChanged(r.detalhe);
    } else {
      setNotice(r.mensagem);
      toast.show('info', r.mensagem);
      onChanged(r.detalhe);
    }
  };

  const answer = async (resposta: string) => {
    if (!held) return;
    setBusy(true);
    setNotice(null);
    setActionError(null);
    try {
      afterRerun(await call('review/recordAnswer', { id: detail.id, token: held, resposta }));
    } catch (e) {
      setActionError(e instanceof ApiError ? e : null);
    } finally {
      setBusy(false);
    }
  };

  const saveDraft = async () => {
    if (!held) return;
    setBusy(true);
    try {
      onChanged(await call('review/save', { id: detail.id, token: held, dados: check.dados }));
      toast.show('success', 'Rascunho salvo. Ele volta quando o pedido for aberto de novo.');
    } catch (e) {
      toast.show('error', errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const reprocess = async () => {
    if (!held) return;
    setBusy(true);
    try {
      afterRerun(await call('review/reprocess', { id: detail.id, token: held }));
    } catch (e) {
      toast.show('error', errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const noDialog = dialog === null;
  const nextRef = useRef<HTMLButtonElement>(null);
  const goNext = () => void openNextItem(detail.id, (m) => toast.show('info', m));
  useShortcut('j', goNext, {
    description: 'Próximo pedido',
    group: 'Pedido',
    enabled: noDialog,
  });
  // After a final action the next step is the next item: its button takes the focus.
  const finished = !open;
  useEffect(() => {
    if (finished) nextRef.current?.focus();
  }, [finished]);
  useShortcut('e', () => firstField.current?.focus(), {
    description: 'Editar os campos',
    group: 'Pedido',
    enabled: canAct && noDialog,
  });
  useShortcut('Mod+Enter', () => (check.ready ? openDialog('confirm') : undefined), {
    description: 'Confirmar e criar cobrança',
    group: 'Pedido',
    enabled: canAct && noDialog,
    allowInInputs: true,
  });
  useShortcut('d', () => openDialog('discard'), {
    description: 'Descartar com motivo',
    group: 'Pedido',
    enabled: canAct && noDialog,
  });
  useShortcut('p', () => openDialog('ask'), {
    description: 'Perguntar ao lojista',
    group: 'Pedido',
    enabled: canAct && noDialog,
  });
  useShortcut('Mod+s', () => void saveDraft(), {
    description: 'Salvar rascunho',
    group: 'Pedido',
    enabled: canAct && noDialog,
    allowInInputs: true,
  });
  useShortcut('Alt+r', () => void reprocess(), {
    description: 'Reprocessar com o modelo',
    group: 'Pedido',
    enabled: canAct && noDialog,
  });

  return (
    <Page
      title={`Pedido #${detail.id} · ${detail.merchantNome}`}
      subtitle={
        <>
          Recebido {formatDateTime(detail.criadaEm, zone)} ·{' '}
          <StatusBadge tone={STATUS_TONE[detail.status]}>{STATUS_LABEL[detail.status]}</StatusBadge>{' '}
          · {detail.tentativas} {detail.tentativas === 1 ? 'tentativa' : 'tentativas'}
        </>
      }
      actions={
        <>
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
      <LeaseBanner detail={detail} lease={leaseInfo} onRetry={onRetryClaim} />
      <div className="review-item">
        <div className="review-col">
          <section className="card" aria-labelledby="msg-title">
            <h2 id="msg-title">Mensagem do lojista</h2>
            <p className="review-text" data-testid="original-text">
              {detail.texto}
            </p>
            {detail.motivo ? <p className="muted">Motivo: {detail.motivo}</p> : null}
          </section>
          <section className="card" aria-labelledby="tl-title">
            <h2 id="tl-title">Tentativas do modelo</h2>
            <Timeline
              attempts={detail.tentativasDetalhe}
              respostas={detail.respostas}
              timeZone={zone}
            />
            <UsageDetails attempts={detail.tentativasDetalhe} custoUsd={detail.custoUsd} />
          </section>
          <section className="card" aria-labelledby="audit-title">
            <h2 id="audit-title">Histórico</h2>
            <AuditTrail events={detail.eventos} timeZone={zone} />
          </section>
        </div>
        <div className="review-col">
          {detail.cobranca ? (
            <section
              className="card review-done"
              aria-labelledby="charge-title"
              data-testid="created-charge"
            >
              <h2 id="charge-title">Cobrança #{detail.cobranca.id} criada</h2>
              <p className="review-charge-line">
                {describeCharge({
                  valor_centavos: detail.cobranca.valorCentavos,
                  parcelas: detail.cobranca.parcelas,
                  metodo: detail.cobranca.metodo,
                  cliente_nome: detail.cobranca.clienteNome,
                  vencimento: detail.cobranca.vencimento,
                })}
              </p>
              <p className="muted">
                Por {detail.cobranca.criadaPor} em {formatDateTime(detail.cobranca.criadaEm, zone)}.
              </p>
              {Object.keys(detail.cobranca.alteracoes).length ? (
                <ul className="review-changes">
                  {Object.entries(detail.cobranca.alteracoes).map(([campo, v]) => (
                    <li key={campo}>
                      <strong>{fieldLabel(campo)}:</strong> {formatFieldValue(campo, v.modelo)} →{' '}
                      {formatFieldValue(campo, v.agente)}
                    </li>
                  ))}
                </ul>
              ) : null}
              <a className="link" href={hrefFor('cobrancas')}>
                Ver todas as cobranças
              </a>
            </section>
          ) : null}
          {detail.descarte ? (
            <section className="card" data-testid="discarded">
              <h2>Descartado</h2>
              <p>
                {DISCARD_REASON_LABELS[detail.descarte.motivo]}
                {detail.descarte.detalhe ? `: ${detail.descarte.detalhe}` : ''}
                {detail.descarte.por ? ` — por ${detail.descarte.por}` : ''}
              </p>
            </section>
          ) : null}
          {open ? (
            <section className="card" aria-labelledby="form-title">
              <h2 id="form-title">Dados da cobrança</h2>
              <ChargeForm
                ref={firstField}
                form={form}
                check={check}
                onChange={setForm}
                disabled={!open || held === null}
                alertas={detail.alertas}
              />
              <div className="form-actions review-actions">
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={!canAct || !check.ready}
                  onClick={() => openDialog('confirm')}
                  title={
                    check.ready ? undefined : 'Corrija os campos marcados e preencha os que faltam.'
                  }
                >
                  Confirmar e criar cobrança <kbd>{displayCombo('Mod+Enter')}</kbd>
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={!canAct || !canAsk}
                  onClick={() => openDialog('ask')}
                  title={canAsk ? undefined : 'Nada está faltando.'}
                >
                  Perguntar ao lojista <kbd>P</kbd>
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={!canAct}
                  onClick={() => void saveDraft()}
                >
                  Salvar rascunho <kbd>{displayCombo('Mod+s')}</kbd>
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={!canAct}
                  onClick={() => void reprocess()}
                >
                  {busy && dialog === null ? 'Reprocessando…' : 'Reprocessar'} <kbd>Alt+R</kbd>
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={!canAct}
                  onClick={() => openDialog('discard')}
                >
                  Descartar <kbd>D</kbd>
                </button>
              </div>
              {notice && dialog === null ? (
                <p className="notice notice-warn" role="status">
                  {notice}
                </p>
              ) : null}
              {!check.ready && canAct ? (
                <p className="hint">
                  {Object.keys(check.errors).length
                    ? 'Corrija os campos marcados para criar a cobrança.'
                    : `Preencha ${check.faltando.map((f) => fieldLabel(f).toLowerCase()).join(', ')} para criar a cobrança.`}
                </p>
              ) : null}
            </section>
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        open={dialog === 'confirm'}
        onOpenChange={(o) => setDialog(o ? 'confirm' : null)}
        dados={check.dados}
        model={detail.dados}
        busy={busy}
        error={actionError?.message ?? null}
        onConfirm={() => void confirm()}
      />
      <DiscardDialog
        open={dialog === 'discard'}
        onOpenChange={(o) => setDialog(o ? 'discard' : null)}
        busy={busy}
        error={actionError}
        onDiscard={(m, t) => void discard(m, t)}
      />
      <AskDialog
        open={dialog === 'ask'}
        onOpenChange={(o) => setDialog(o ? 'ask' : null)}
        pergunta={pergunta}
        busy={busy}
        error={actionError?.message ?? null}
        notice={notice}
        onCopy={() => void copyQuestion()}
        onAnswer={(r) => void answer(r)}
      />
    </Page>
  );
}

function LeaseBanner({
  detail,
  lease,
  onRetry,
}: {
  detail: ExtractionDetail;
  lease: ReturnType<typeof useLease>['lease'];
  onRetry: () => void;
}) {
  if (detail.filaEstado !== 'aberta') return null;
  if (lease.kind === 'claiming') {
    return (
      <p className="notice" role="status">
        Reservando o pedido para você…
      </p>
    );
  }
  if (lease.kind === 'held') return null;
  const msg =
    lease.kind === 'other' ? lease.mensagem : lease.mensagem || 'Você não está com este pedido.';
  return (
    <div className="notice notice-warn review-lease" role="status" data-testid="lease-banner">
      <span>{msg}</span>{' '}
      <button type="button" className="btn btn-ghost" onClick={onRetry}>
        Tentar assumir de novo
      </button>
    </div>
  );
}
