import type { ExtractionDetail } from '@shared/contract/review';
import type { Ref } from 'react';
import { displayCombo } from '../components/Shortcuts';
import { ChargeForm } from './ChargeForm';
import { WarnNotice } from './WarnNotice';
import { fieldLabel } from '@shared/rule-text';
import type { FormCheck, FormState } from './form';

/** A field's name inside a sentence: lower case, but an acronym (CPF/CNPJ) as written. */
const inSentence = (label: string) => (/^[A-Z]{2}/.test(label) ? label : label.toLowerCase());

export type EditorAction = 'confirm' | 'ask' | 'save' | 'reprocess' | 'discard';

/** The open item's charge form and its action buttons (confirm, ask, save, reprocess, discard). */
export function ChargeEditor({
  detail,
  firstField,
  form,
  check,
  onChange,
  held,
  canAct,
  canAsk,
  reprocessing,
  notice,
  onAction,
}: {
  detail: ExtractionDetail;
  firstField: Ref<HTMLInputElement>;
  form: FormState;
  check: FormCheck;
  onChange: (f: FormState) => void;
  held: boolean;
  canAct: boolean;
  canAsk: boolean;
  reprocessing: boolean;
  notice: string | null;
  onAction: (a: EditorAction) => void;
}) {
  return (
    <section className="card" aria-labelledby="form-title">
      <h2 id="form-title">Dados da cobrança</h2>
      <ChargeForm
        ref={firstField}
        form={form}
        check={check}
        onChange={onChange}
        disabled={!held}
        alertas={detail.alertas}
      />
      <div className="form-actions review-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!canAct || !check.ready}
          onClick={() => onAction('confirm')}
          title={check.ready ? undefined : 'Corrija os campos marcados e preencha os que faltam.'}
        >
          Confirmar e criar cobrança <kbd>{displayCombo('Mod+Enter')}</kbd>
        </button>
        <div className="review-secondary" role="group" aria-label="Outras ações">
          {[
            {
              action: 'ask' as const,
              label: 'Perguntar ao lojista',
              kbd: 'P',
              off: !canAsk,
              title: canAsk ? undefined : 'Nada está faltando.',
            },
            { action: 'save' as const, label: 'Salvar rascunho', kbd: displayCombo('Mod+s') },
            {
              action: 'reprocess' as const,
              label: reprocessing ? 'Reprocessando…' : 'Reprocessar',
              kbd: 'Alt+R',
            },
            { action: 'discard' as const, label: 'Descartar', kbd: 'D', danger: true },
          ].map((b) => (
            <button
              key={b.action}
              type="button"
              className={'danger' in b ? 'btn btn-danger' : 'btn'}
              disabled={!canAct || b.off === true}
              onClick={() => onAction(b.action)}
              title={b.title}
            >
              {b.label} <kbd>{b.kbd}</kbd>
            </button>
          ))}
        </div>
      </div>
      <WarnNotice text={notice} />
      {!check.ready && canAct ? (
        <p className="hint">
          {Object.keys(check.errors).length
            ? 'Corrija os campos marcados para criar a cobrança.'
            : `Preencha ${check.faltando.map((f) => inSentence(fieldLabel(f))).join(', ')} para criar a cobrança.`}
        </p>
      ) : null}
    </section>
  );
}
