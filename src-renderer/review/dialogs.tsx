import { useId, useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import {
  DISCARD_REASONS,
  DISCARD_REASON_LABELS,
  type DiscardReason,
} from '@shared/contract/review';
import { changedChargeFields } from '@shared/charge';
import { dateToConfirm, formatReading } from '@shared/due-dates';
import type { Alerta, DadosCobranca } from '@shared/extraction-types';
import { PERGUNTA_MAX } from '@shared/contract/review-thread';
import { fieldLabel } from '@shared/rule-text';
import { describeCharge, formatFieldValue } from './describe';
import { DialogFooter } from '../components/DialogFooter';
import { WarnNotice } from './WarnNotice';

function Frame({
  open,
  onOpenChange,
  title,
  description,
  children,
  testId,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="review-overlay" />
        <Dialog.Content className="review-dialog" data-testid={testId} aria-describedby={undefined}>
          <Dialog.Title className="review-dialog-title">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="muted">{description}</Dialog.Description>
          ) : null}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface Change {
  campo: string;
  antes: unknown;
  depois: unknown;
}

/** A dialog's form: submitting it (Enter, the submit button) runs `onSubmit`, never a page load. */
function DialogForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A three-row text area with its label and, when the server refused it, its error. */
function TextAreaField({
  label,
  maxLength,
  value,
  onChange,
  placeholder,
  error,
}: {
  label: string;
  maxLength: number;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
      />
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}

/** The fields the agent changed from the model's version (faltando aside). */
export function agentChanges(model: DadosCobranca | null, mine: DadosCobranca): Change[] {
  return changedChargeFields(model, mine).filter((c) => c.campo !== 'faltando');
}

/**
 * "Confirmar e criar cobrança": the charge as a person reads it, and what the agent changed.
 * When the text names another due date than the charge's (#42.1), the text's phrase and both
 * dates are shown and the date must be confirmed explicitly before the charge can be created.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  merchantNome,
  dados,
  model,
  alertas,
  busy,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** Whose money this is: named at the moment of confirming (#42.2). */
  merchantNome: string;
  dados: DadosCobranca;
  model: DadosCobranca | null;
  /** The item's alerts: a due-date alert asks for the date's confirmation. */
  alertas: readonly Alerta[];
  busy: boolean;
  error: string | null;
  /** Gets the due date the agent confirmed explicitly (null when none was asked). */
  onConfirm: (vencimentoConfirmado: string | null) => void;
}) {
  const changes = agentChanges(model, dados);
  const dateAlert = dateToConfirm(alertas, dados.vencimento);
  const reading = dateAlert
    ? { de: dateAlert.data_no_texto, ate: dateAlert.data_no_texto_ate }
    : null;
  const mustConfirmDate = dateAlert !== null;
  /** The date the agent confirmed (a changed date needs a new confirmation). */
  const [confirmedDate, setConfirmedDate] = useState<string | null>(null);
  const dateConfirmed = !mustConfirmDate || confirmedDate === dados.vencimento;
  return (
    <Frame
      open={open}
      onOpenChange={(o) => {
        setConfirmedDate(null);
        onOpenChange(o);
      }}
      title="Criar esta cobrança?"
      testId="confirm-dialog"
    >
      <p className="review-charge-merchant" data-testid="confirm-merchant">
        Lojista: <strong>{merchantNome}</strong>
      </p>
      <p className="review-charge-line" data-testid="charge-line">
        {describeCharge(dados)}
      </p>
      {dados.descricao ? <p className="muted">Descrição: {dados.descricao}</p> : null}
      {dateAlert && reading && mustConfirmDate ? (
        <div className="notice notice-warn" role="note" data-testid="confirm-due-date">
          <p>
            A mensagem diz <strong>«{dateAlert.frase}»</strong> → {formatReading(reading)}, mas a
            cobrança vence em{' '}
            <strong>
              {dados.vencimento ? formatFieldValue('vencimento', dados.vencimento) : '—'}
            </strong>
            .
          </p>
          <label className="field-check">
            <input
              type="checkbox"
              autoFocus
              checked={dateConfirmed}
              disabled={busy || !dados.vencimento}
              onChange={(e) => setConfirmedDate(e.target.checked ? dados.vencimento : null)}
              data-testid="confirm-due-date-check"
            />
            Confirmo o vencimento em{' '}
            {dados.vencimento ? formatFieldValue('vencimento', dados.vencimento) : '—'}, não o da
            mensagem
          </label>
        </div>
      ) : null}
      <h3>O que você mudou</h3>
      {changes.length ? (
        <ul className="review-changes" data-testid="confirm-changes">
          {changes.map((c) => (
            <li key={c.campo}>
              <strong>{fieldLabel(c.campo)}:</strong> {formatFieldValue(c.campo, c.antes)} →{' '}
              {formatFieldValue(c.campo, c.depois)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nada: a cobrança é exatamente a versão do modelo.</p>
      )}
      <DialogFooter error={error} busy={busy} closeLabel="Voltar">
        <button
          type="button"
          className="btn btn-primary"
          autoFocus={!mustConfirmDate}
          disabled={busy || !dateConfirmed}
          onClick={() => onConfirm(mustConfirmDate ? confirmedDate : null)}
          title={dateConfirmed ? undefined : 'Confirme o vencimento antes de criar a cobrança.'}
        >
          {busy ? 'Criando…' : 'Criar cobrança'}
        </button>
      </DialogFooter>
    </Frame>
  );
}

/** "Descartar": a reason from the list, plus free text (required for "Outro motivo"). */
export function DiscardDialog({
  open,
  onOpenChange,
  busy,
  error,
  onDiscard,
  title = 'Descartar este pedido?',
  description = 'O pedido sai da fila sem criar cobrança. Fica registrado quem descartou e por quê.',
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  busy: boolean;
  error: { message: string; fields?: Record<string, string[]> } | null;
  onDiscard: (motivo: DiscardReason, detalhe: string) => void;
  /** Several items at once (#39.5) say so. */
  title?: string;
  description?: string;
}) {
  const [motivo, setMotivo] = useState<DiscardReason | null>(null);
  const [detalhe, setDetalhe] = useState('');
  const detailError = error?.fields?.detalhe?.[0];
  return (
    <Frame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      testId="discard-dialog"
    >
      <DialogForm onSubmit={() => motivo && onDiscard(motivo, detalhe)}>
        <fieldset className="review-reasons">
          <legend className="field-label">Motivo</legend>
          {DISCARD_REASONS.map((r, i) => (
            <label key={r} className="field-check">
              <input
                type="radio"
                name="motivo"
                value={r}
                autoFocus={i === 0}
                checked={motivo === r}
                onChange={() => setMotivo(r)}
              />
              {DISCARD_REASON_LABELS[r]}
            </label>
          ))}
        </fieldset>
        <TextAreaField
          label={`Detalhe ${motivo === 'outro' ? '(obrigatório)' : '(opcional)'}`}
          maxLength={500}
          value={detalhe}
          onChange={setDetalhe}
          error={detailError}
        />
        <DialogFooter
          error={error && !detailError ? error.message : null}
          busy={busy}
          closeLabel="Voltar"
        >
          <button type="submit" className="btn btn-danger-solid" disabled={busy || !motivo}>
            {busy ? 'Descartando…' : 'Descartar'}
          </button>
        </DialogFooter>
      </DialogForm>
    </Frame>
  );
}

/**
 * "Perguntar ao lojista" (#37.4): the question for what is missing, which the agent may edit, sent
 * to the merchant through the item's channel (or copied); then the merchant's answer recorded to
 * re-run the engine.
 */
export function AskDialog({
  open,
  onOpenChange,
  pergunta,
  busy,
  error,
  notice,
  onCopy,
  onSend,
  onAnswer,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  pergunta: string | null;
  busy: boolean;
  error: string | null;
  notice: string | null;
  onCopy: (texto: string) => void;
  onSend: (texto: string) => void;
  onAnswer: (resposta: string) => void;
}) {
  const [resposta, setResposta] = useState('');
  const [texto, setTexto] = useState(pergunta ?? '');
  // A fresh question each time the dialog opens (the form may have changed what is missing).
  const [shown, setShown] = useState<string | null>(open ? pergunta : null);
  const now = open ? pergunta : null;
  if (now !== shown) {
    setShown(now);
    if (open) setTexto(pergunta ?? '');
  }
  const ok = texto.trim().length > 0;
  return (
    <Frame
      open={open}
      onOpenChange={onOpenChange}
      title="Perguntar ao lojista"
      description="Revise a pergunta e envie ao lojista pela conversa do pedido (ou copie). Quando ele responder, registre a resposta aqui."
      testId="ask-dialog"
    >
      <blockquote className="review-question" data-testid="question">
        {pergunta ?? 'Nada está faltando.'}
      </blockquote>
      {pergunta !== null ? (
        <TextAreaField
          label="Pergunta a enviar (pode editar)"
          maxLength={PERGUNTA_MAX}
          value={texto}
          onChange={setTexto}
        />
      ) : null}
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="send-question"
          onClick={() => onSend(texto.trim())}
          disabled={!pergunta || !ok || busy}
        >
          Enviar ao lojista
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => onCopy(texto.trim())}
          disabled={!pergunta || !ok || busy}
        >
          Copiar pergunta
        </button>
      </div>
      <DialogForm onSubmit={() => resposta.trim() && onAnswer(resposta.trim())}>
        <TextAreaField
          label="Resposta do lojista"
          maxLength={2000}
          value={resposta}
          onChange={setResposta}
          placeholder="ex.: são 150 reais e vence dia 10"
        />
        <WarnNotice text={notice} />
        <DialogFooter error={error} busy={busy} closeLabel="Fechar">
          <button type="submit" className="btn btn-primary" disabled={busy || !resposta.trim()}>
            {busy ? 'Refazendo a extração…' : 'Registrar resposta e refazer'}
          </button>
        </DialogFooter>
      </DialogForm>
    </Frame>
  );
}

/** A supervisor reopens a discarded item: why (recorded in the audit with who). */
export function ReopenDialog({
  open,
  onOpenChange,
  busy,
  error,
  onReopen,
  title = 'Reabrir este pedido?',
  description = 'Ele volta à fila aberta. O motivo fica no histórico, com o seu nome.',
  submitLabel = 'Reabrir pedido',
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  busy: boolean;
  error: string | null;
  onReopen: (motivo: string) => void;
  /** Several items at once (#39.5) say so. */
  title?: string;
  description?: string;
  submitLabel?: string;
}) {
  const [motivo, setMotivo] = useState('');
  const ok = motivo.trim().length >= 3;
  return (
    <Frame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      testId="reopen-dialog"
    >
      <DialogForm onSubmit={() => ok && onReopen(motivo.trim())}>
        <TextAreaField
          label="Por que reabrir?"
          maxLength={500}
          value={motivo}
          onChange={setMotivo}
          placeholder="ex.: descartado por engano, o lojista confirmou o pedido"
        />
        <DialogFooter error={error} busy={busy} closeLabel="Cancelar">
          <button type="submit" className="btn btn-primary" disabled={busy || !ok}>
            {busy ? 'Reabrindo…' : submitLabel}
          </button>
        </DialogFooter>
      </DialogForm>
    </Frame>
  );
}
