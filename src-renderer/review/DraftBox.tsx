import { useToast } from '../components/Toast';
import { formatDueDate } from './describe';
import type { FormState } from './form';

const METODOS: Record<Exclude<FormState['metodo'], ''>, string> = {
  pix: 'Pix',
  boleto: 'Boleto',
  cartao: 'Cartão',
};

/** The draft as lines people read and paste: one "Campo: valor" per filled field. */
export function draftLines(d: FormState): string[] {
  const venc = /^\d{4}-\d{2}-\d{2}$/.test(d.vencimento)
    ? formatDueDate(d.vencimento)
    : d.vencimento;
  return [
    ['Valor (R$)', d.valor],
    ['Parcelas', d.parcelas],
    ['Forma de pagamento', d.metodo ? METODOS[d.metodo] : ''],
    ['Cliente', d.cliente_nome],
    ['Vencimento', venc],
    ['Descrição', d.descricao],
  ]
    .filter(([, v]) => v?.trim())
    .map(([k, v]) => `${k}: ${v?.trim() ?? ''}`);
}

/**
 * What the agent typed when the item left her hands (#42.3: a supervisor took it over, or her
 * reservation ended): kept for her to read and copy, never lost with the form.
 */
export function DraftBox({
  draft,
  onUse,
  onDismiss,
}: {
  draft: FormState;
  /** While she holds the item again: put the draft back in the form. */
  onUse: (() => void) | null;
  onDismiss: () => void;
}) {
  const toast = useToast();
  const lines = draftLines(draft);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(lines.join('\n'));
      toast.show('info', 'Rascunho copiado.');
    } catch {
      toast.show(
        'info',
        'Selecione e copie o rascunho (a área de transferência não está disponível).',
      );
    }
  };
  return (
    <section className="card review-draft" aria-labelledby="draft-title" data-testid="draft-box">
      <h2 id="draft-title">Seu rascunho</h2>
      <p className="hint">
        O pedido saiu das suas mãos antes de você salvar. O que você digitou continua aqui: copie
        para não perder.
      </p>
      <pre className="review-draft-text">{lines.join('\n')}</pre>
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => void copy()}>
          Copiar rascunho
        </button>
        {onUse ? (
          <button type="button" className="btn" onClick={onUse}>
            Usar no formulário
          </button>
        ) : null}
        <button type="button" className="btn btn-ghost" onClick={onDismiss}>
          Apagar rascunho
        </button>
      </div>
    </section>
  );
}
