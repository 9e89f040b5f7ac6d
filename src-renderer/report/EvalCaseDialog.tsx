import { useEffect, useMemo, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { EvalCaseDraft } from '@shared/contract/questions';
import { validateConsulta } from '@shared/sales-dsl';
import { formatInterpretacao } from '@shared/sales-format';
import { formatDateBR } from '@shared/time';
import { ApiError, call, errorMessage } from '../api';
import { DialogFooter } from '../components/DialogFooter';
import { LoadingState } from '../components/States';
import { useToast } from '../components/Toast';

/** What the typed DSL means, or why it is not a valid expectation (pt-BR). */
function check(
  text: string,
  hoje: string,
): { ok: true; resumo: string } | { ok: false; erros: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, erros: ['O texto não é um JSON válido.'] };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ok: false,
      erros: ['Escreva um objeto JSON, como {"metrica": "total_bruto", "periodo": "ontem"}.'],
    };
  }
  const v = validateConsulta(raw, hoje);
  if (!v.ok) return { ok: false, erros: v.erros.map((e) => e.mensagem) };
  if (v.value.tipo === 'esclarecimento') {
    return { ok: true, resumo: `Pedir esclarecimento: "${v.value.pergunta}"` };
  }
  if (v.value.tipo === 'nao_expressavel') {
    return { ok: true, resumo: 'Fora da consulta pronta (nao_expressavel).' };
  }
  return { ok: true, resumo: formatInterpretacao(v.value.consulta) };
}

/**
 * "Criar caso de avaliação": confirm or correct the DSL a logged question should produce; the
 * case is appended to evals/consultas.jsonl with the day the question was asked. Mounted per
 * question (keyed by id), so every question starts from a clean form.
 */
export function EvalCaseDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const toast = useToast();
  const [draft, setDraft] = useState<EvalCaseDraft | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [nota, setNota] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    let stale = false;
    call('sales/evalCaseDraft', { id }).then(
      (d) => {
        if (stale) return;
        setDraft(d);
        setText(JSON.stringify(d.sugerido, null, 2));
      },
      (e: unknown) => !stale && setLoadError(errorMessage(e)),
    );
    return () => {
      stale = true;
    };
  }, [id]);

  const verdict = useMemo(() => (draft ? check(text, draft.hoje) : null), [draft, text]);

  const save = async () => {
    if (!draft || !verdict?.ok) return;
    setSaving(true);
    setSaveError(null);
    try {
      const r = await call('sales/addEvalCase', {
        id: draft.id,
        esperado: JSON.parse(text) as Record<string, unknown>,
        ...(nota.trim() ? { nota: nota.trim() } : {}),
      });
      toast.show('success', `Caso gravado em ${r.arquivo} (linha ${r.linha}).`);
      onClose();
    } catch (e) {
      setSaveError(e instanceof ApiError ? e.message : errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="review-overlay" />
        <Dialog.Content
          className="review-dialog questions-dialog"
          data-testid="eval-case-dialog"
          aria-describedby={undefined}
        >
          <Dialog.Title className="review-dialog-title">Criar caso de avaliação</Dialog.Title>
          {loadError ? (
            <p role="alert" className="field-error">
              {loadError}
            </p>
          ) : !draft ? (
            <LoadingState inline />
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void save();
              }}
            >
              <p className="questions-asked">
                <q>{draft.pergunta}</q>
                <span className="muted">
                  {' '}
                  — perguntada em {formatDateBR(draft.hoje)} (data de referência do caso)
                </span>
              </p>
              <label className="field">
                <span className="field-label">
                  O que a pergunta deve produzir (consultar_vendas, em JSON)
                </span>
                <textarea
                  className="questions-json"
                  value={text}
                  spellCheck={false}
                  rows={9}
                  aria-invalid={verdict ? !verdict.ok : undefined}
                  aria-describedby="eval-case-check"
                  onChange={(e) => setText(e.target.value)}
                />
              </label>
              <div id="eval-case-check" aria-live="polite" data-testid="eval-case-check">
                {verdict?.ok ? (
                  <p className="questions-ok">{verdict.resumo}</p>
                ) : (
                  <ul className="field-error">
                    {verdict?.erros.map((e) => (
                      <li key={e}>{e}</li>
                    ))}
                  </ul>
                )}
              </div>
              <label className="field">
                <span className="field-label">Nota (opcional)</span>
                <input value={nota} maxLength={300} onChange={(e) => setNota(e.target.value)} />
              </label>
              {draft.arquivo ? (
                <p className="muted">Será acrescentado a {draft.arquivo}.</p>
              ) : (
                <p className="field-error">
                  Este computador não tem a pasta dos casos de avaliação. Peça ao administrador que
                  a configure.
                </p>
              )}
              <DialogFooter error={saveError} closeLabel="Cancelar">
                <button
                  type="submit"
                  className="btn btn-primary"
                  disabled={!verdict?.ok || saving || !draft.arquivo}
                >
                  {saving ? 'Gravando…' : 'Gravar caso'}
                </button>
              </DialogFooter>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
