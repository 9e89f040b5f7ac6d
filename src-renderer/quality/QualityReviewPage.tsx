import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { CamposCobranca, QualitySample } from '@shared/contract/quality';
import { METODO_LABEL } from '@shared/charge-text';
import type { Metodo } from '@shared/extraction-types';
import { formatBRL } from '@shared/money';
import {
  CAMPOS_QUALIDADE,
  ROTULO_CAMPO_QUALIDADE,
  ROTULO_ORIGEM,
  type CampoQualidade,
} from '@shared/quality';
import { formatDateBR } from '@shared/time';
import { ApiError, invoke } from '../api';
import { Page } from '../components/Layout';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { useChannel } from '../useChannel';
import { CancelWrongCharge } from './CancelWrongCharge';
import './quality.css';

type Julgamento = Partial<Record<CampoQualidade, boolean>>;

/** A field's value as people read it; "—" when the model left it empty. */
export function valorCampo(campo: CampoQualidade, c: CamposCobranca): string {
  const v = c[campo];
  if (v === null || v === '') return '—';
  if (campo === 'valor_centavos' && typeof v === 'number') return formatBRL(v);
  if (campo === 'vencimento' && typeof v === 'string') return formatDateBR(v);
  if (campo === 'metodo' && typeof v === 'string') {
    return METODO_LABEL[v as Metodo] ?? v;
  }
  if (campo === 'parcelas' && typeof v === 'number') return v === 1 ? 'à vista' : `${v}x`;
  return String(v);
}

/**
 * "Revisão de qualidade" (supervisors, #39.4): one sampled charge at a time — the merchant's
 * message, what the model extracted and what was charged, each field judged Certo or Errado
 * (C / E on the focused field, which then moves to the next; Tab and the arrows work too),
 * saved with who and when, then the next sample.
 */
export function QualityReviewPage() {
  const [depoisDe, setDepoisDe] = useState<number | undefined>(undefined);
  const state = useChannel('quality/next', depoisDe === undefined ? {} : { depoisDe });
  const [aviso, setAviso] = useState<string | null>(null);
  if (state.status === 'error' && !state.data) {
    return (
      <Page title="Revisão de qualidade">
        <ErrorState error={state.error} onRetry={state.reload} />
      </Page>
    );
  }
  if (state.status === 'loading' && state.data === undefined) {
    return (
      <Page title="Revisão de qualidade">
        <LoadingState label="Carregando a próxima amostra…" />
      </Page>
    );
  }
  const sample = state.data ?? null;
  return (
    <Page
      title="Revisão de qualidade"
      subtitle="Cobranças sorteadas depois de criadas: marque cada campo como certo ou errado."
    >
      {aviso ? (
        <p className="quality-notice" role="status" data-testid="quality-notice">
          {aviso}
        </p>
      ) : null}
      {sample === null ? (
        <EmptyState
          title={depoisDe === undefined ? 'Nenhuma amostra esperando' : 'Fim das amostras'}
        >
          {depoisDe === undefined ? (
            'Todas as cobranças sorteadas já foram julgadas.'
          ) : (
            <button type="button" className="btn" onClick={() => setDepoisDe(undefined)}>
              Voltar à primeira pendente
            </button>
          )}
        </EmptyState>
      ) : (
        <SampleForm
          key={sample.cobrancaId}
          sample={sample}
          onSaved={(msg) => {
            setAviso(msg);
            if (depoisDe === undefined) state.reload();
            else setDepoisDe(undefined);
          }}
          onSkip={() => {
            setAviso(null);
            setDepoisDe(sample.cobrancaId);
          }}
        />
      )}
    </Page>
  );
}

function SampleForm({
  sample,
  onSaved,
  onSkip,
}: {
  sample: QualitySample;
  onSaved: (msg: string) => void;
  onSkip: () => void;
}) {
  const [julg, setJulg] = useState<Julgamento>({});
  const [erro, setErro] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const rows = useRef<Partial<Record<CampoQualidade, HTMLInputElement | null>>>({});
  const completo = CAMPOS_QUALIDADE.every((c) => julg[c] !== undefined);
  const saveRef = useRef<HTMLButtonElement>(null);
  // After the last field is marked by key, the save button takes the focus once it is enabled.
  const focusSave = useRef(false);
  useEffect(() => {
    if (focusSave.current && completo) {
      focusSave.current = false;
      saveRef.current?.focus();
    }
  }, [julg, completo]);

  useEffect(() => rows.current.valor_centavos?.focus({ preventScroll: true }), []);

  const marcar = useCallback((campo: CampoQualidade, certo: boolean, avancar: boolean) => {
    setJulg((j) => ({ ...j, [campo]: certo }));
    if (avancar) {
      const next = CAMPOS_QUALIDADE[CAMPOS_QUALIDADE.indexOf(campo) + 1];
      if (next) rows.current[next]?.focus();
      else focusSave.current = true;
    }
  }, []);

  const salvar = async () => {
    if (!completo || saving) return;
    setSaving(true);
    setErro(null);
    const campos = Object.fromEntries(CAMPOS_QUALIDADE.map((c) => [c, julg[c] === true])) as Record<
      CampoQualidade,
      boolean
    >;
    const r = await invoke('quality/judge', { cobrancaId: sample.cobrancaId, campos });
    setSaving(false);
    if (!r.ok) {
      setErro(new ApiError(r.error).message);
      return;
    }
    const errados = CAMPOS_QUALIDADE.filter((c) => !campos[c]).length;
    onSaved(
      `Cobrança #${sample.cobrancaId} julgada: ${
        errados === 0
          ? 'todos os campos certos'
          : `${errados} campo${errados > 1 ? 's' : ''} errado${errados > 1 ? 's' : ''}`
      }.`,
    );
  };

  const onKey = (campo: CampoQualidade) => (e: KeyboardEvent<HTMLElement>) => {
    const k = e.key.toLowerCase();
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (k === 'enter' && completo) {
      e.preventDefault();
      void salvar();
      return;
    }
    if (k === 'c' || k === 'e') {
      e.preventDefault();
      marcar(campo, k === 'c', true);
    }
  };

  return (
    <div className="quality-sample" data-testid="quality-sample">
      <div className="quality-meta">
        <span>
          Cobrança <strong>#{sample.cobrancaId}</strong> · {sample.merchantNome}
        </span>
        <span>{ROTULO_ORIGEM[sample.origem]}</span>
        <span>
          Modelo {sample.modelo || '(desconhecido)'} · prompt {sample.versaoPrompt || '(anterior)'}
        </span>
        <span data-testid="quality-pending">
          {sample.pendentes === 1 ? '1 amostra pendente' : `${sample.pendentes} amostras pendentes`}
        </span>
      </div>
      <section className="card">
        <h2>Mensagem original</h2>
        <blockquote className="quality-message" data-testid="quality-message">
          {sample.texto}
        </blockquote>
      </section>
      <section className="card">
        <h2>Campos</h2>
        <p className="muted" id="quality-keys">
          Teclas: C = certo, E = errado (vai para o próximo campo); Tab e as setas também funcionam;
          Enter salva quando todos estiverem marcados.
        </p>
        <table className="table quality-table" data-testid="quality-fields">
          <thead>
            <tr>
              <th scope="col">Campo</th>
              <th scope="col">Extraído pelo modelo</th>
              <th scope="col">Cobrado</th>
              <th scope="col">Julgamento</th>
            </tr>
          </thead>
          <tbody>
            {CAMPOS_QUALIDADE.map((campo) => {
              const ext = valorCampo(campo, sample.extraidos);
              const fin = valorCampo(campo, sample.finais);
              const nome = `julgamento-${campo}`;
              return (
                <tr key={campo} data-testid={`quality-row-${campo}`}>
                  <th scope="row">{ROTULO_CAMPO_QUALIDADE[campo]}</th>
                  <td>{ext}</td>
                  <td className={ext !== fin ? 'quality-diff' : undefined}>{fin}</td>
                  <td>
                    <div
                      className="quality-choice"
                      role="radiogroup"
                      aria-label={`${ROTULO_CAMPO_QUALIDADE[campo]}: certo ou errado`}
                      aria-describedby="quality-keys"
                      onKeyDown={onKey(campo)}
                    >
                      <label>
                        <input
                          ref={(el) => {
                            rows.current[campo] = el;
                          }}
                          type="radio"
                          name={nome}
                          checked={julg[campo] === true}
                          onChange={() => marcar(campo, true, false)}
                        />
                        Certo
                      </label>
                      <label>
                        <input
                          type="radio"
                          name={nome}
                          checked={julg[campo] === false}
                          onChange={() => marcar(campo, false, false)}
                        />
                        Errado
                      </label>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {erro ? (
          <p className="field-error" role="alert">
            {erro}
          </p>
        ) : null}
        <div className="quality-actions">
          <button
            ref={saveRef}
            type="button"
            className="btn btn-primary"
            disabled={!completo || saving}
            onClick={() => void salvar()}
          >
            {saving ? 'Salvando…' : 'Salvar e ir para a próxima'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onSkip} disabled={saving}>
            Pular
          </button>
          {sample.origem === 'automatica' && completo ? (
            <CancelWrongCharge
              sample={sample}
              campos={
                Object.fromEntries(CAMPOS_QUALIDADE.map((c) => [c, julg[c] === true])) as Record<
                  CampoQualidade,
                  boolean
                >
              }
              disabled={saving}
              onDone={onSaved}
            />
          ) : null}
          {!completo ? (
            <span className="muted">
              Faltam {CAMPOS_QUALIDADE.filter((c) => julg[c] === undefined).length} campos.
            </span>
          ) : null}
        </div>
      </section>
    </div>
  );
}
