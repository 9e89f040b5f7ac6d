import { useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import {
  DISCARD_REASONS,
  DISCARD_REASON_LABELS,
  type DiscardReason,
} from '@shared/contract/review';
import { changedChargeFields } from '@shared/charge';
import type { DadosCobranca } from '@shared/extraction-types';
import { describeCharge, fieldLabel, formatFieldValue } from './describe';

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

/** The fields the agent changed from the model's version (faltando aside). */
export function agentChanges(model: DadosCobranca | null, mine: DadosCobranca): Change[] {
  return changedChargeFields(model, mine).filter((c) => c.campo !== 'faltando');
}

/** "Confirmar e criar cobrança": the charge as a person reads it, and what the agent changed. */
export function ConfirmDialog({
  open,
  onOpenChange,
  dados,
  model,
  busy,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  dados: DadosCobranca;
  model: DadosCobranca | null;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
}) {
  const changes = agentChanges(model, dados);
  return (
    <Frame
      open={open}
      onOpenChange={onOpenChange}
      title="Criar esta cobrança?"
      testId="confirm-dialog"
    >
      <p className="review-charge-line" data-testid="charge-line">
        {describeCharge(dados)}
      </p>
      {dados.descricao ? <p className="muted">Descrição: {dados.descricao}</p> : null}
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
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions">
        <Dialog.Close asChild>
          <button type="button" className="btn" disabled={busy}>
            Voltar
          </button>
        </Dialog.Close>
        <button
          type="button"
          className="btn btn-primary"
          autoFocus
          disabled={busy}
          onClick={onConfirm}
        >
          {busy ? 'Criando…' : 'Criar cobrança'}
        </button>
      </div>
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
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  busy: boolean;
  error: { message: string; fields?: Record<string, string[]> } | null;
  onDiscard: (motivo: DiscardReason, detalhe: string) => void;
}) {
  const [motivo, setMotivo] = useState<DiscardReason | null>(null);
  const [detalhe, setDetalhe] = useState('');
  const detailError = error?.fields?.detalhe?.[0];
  return (
    <Frame
      open={open}
      onOpenChange={onOpenChange}
      title="Descartar este pedido?"
      description="O pedido sai da fila sem criar cobrança. Fica registrado quem descartou e por quê."
      testId="discard-dialog"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (motivo) onDiscard(motivo, detalhe);
        }}
      >
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
        <div className="field">
          <label className="field-label" htmlFor="discard-detalhe">
            Detalhe {motivo === 'outro' ? '(obrigatório)' : '(opcional)'}
          </label>
          <textarea
            id="discard-detalhe"
            rows={3}
            maxLength={500}
            value={detalhe}
            onChange={(e) => setDetalhe(e.target.value)}
            aria-invalid={detailError ? true : undefined}
          />
          {detailError ? <p className="field-error">{detailError}</p> : null}
        </div>
        {error && !detailError ? (
          <p className="field-error" role="alert">
            {error.message}
          </p>
        ) : null}
        <div className="form-actions">
          <Dialog.Close asChild>
            <button type="button" className="btn" disabled={busy}>
              Voltar
            </button>
          </Dialog.Close>
          <button type="submit" className="btn btn-primary" disabled={busy || !motivo}>
            {busy ? 'Descartando…' : 'Descartar'}
          </button>
        </div>
      </form>
    </Frame>
  );
}

/** "Perguntar ao lojista": copy the question; record the answer to re-run the engine. */
export function AskDialog({
  open,
  onOpenChange,
  pergunta,
  busy,
  error,
  notice,
  onCopy,
  onAnswer,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  pergunta: string | null;
  busy: boolean;
  error: string | null;
  notice: string | null;
  onCopy: () => void;
  onAnswer: (resposta: string) => void;
}) {
  const [resposta, setResposta] = useState('');
  return (
    <Frame
      open={open}
      onOpenChange={onOpenChange}
      title="Perguntar ao lojista"
      description="Copie a pergunta e envie ao lojista. Quando ele responder, registre a resposta aqui."
      testId="ask-dialog"
    >
      <blockquote className="review-question" data-testid="question">
        {pergunta ?? 'Nada está faltando.'}
      </blockquote>
      <div className="form-actions">
        <button type="button" className="btn" onClick={onCopy} disabled={!pergunta || busy}>
          Copiar pergunta
        </button>
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (resposta.trim()) onAnswer(resposta.trim());
        }}
      >
        <div className="field">
          <label className="field-label" htmlFor="ask-resposta">
            Resposta do lojista
          </label>
          <textarea
            id="ask-resposta"
            rows={3}
            maxLength={2000}
            value={resposta}
            onChange={(e) => setResposta(e.target.value)}
            placeholder="ex.: são 150 reais e vence dia 10"
          />
        </div>
        {notice ? (
          <p className="notice notice-warn" role="status">
            {notice}
          </p>
        ) : null}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form-actions">
          <Dialog.Close asChild>
            <button type="button" className="btn" disabled={busy}>
              Fechar
            </button>
          </Dialog.Close>
          <button type="submit" className="btn btn-primary" disabled={busy || !resposta.trim()}>
            {busy ? 'Refazendo a extração…' : 'Registrar resposta e refazer'}
          </button>
        </div>
      </form>
    </Frame>
  );
}
