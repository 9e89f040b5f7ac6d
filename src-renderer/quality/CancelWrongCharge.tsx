import { useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { QualitySample } from '@shared/contract/quality';
import { formatBRL } from '@shared/money';
import { CAMPOS_QUALIDADE, ROTULO_CAMPO_QUALIDADE, type CampoQualidade } from '@shared/quality';
import { ApiError, invoke } from '../api';
import { DialogFooter } from '../components/DialogFooter';

/**
 * A wrong automatic charge, corrected from the quality review (#39.4): after the fields are
 * judged with at least one wrong, "Cancelar cobrança e refazer…" asks for confirmation (merchant,
 * customer, the amount), then saves the judgement, cancels the charge at the PSP and sends the
 * item back to the queue for a person — each step audited with the supervisor's name.
 */
export function CancelWrongCharge({
  sample,
  campos,
  disabled,
  onDone,
}: {
  sample: QualitySample;
  /** The judgement as marked (every field). */
  campos: Record<CampoQualidade, boolean>;
  disabled: boolean;
  onDone: (msg: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [erro, setErro] = useState<string | null>(null);
  const errados = CAMPOS_QUALIDADE.filter((c) => !campos[c]);
  const valor =
    sample.finais.valor_centavos === null ? '—' : formatBRL(sample.finais.valor_centavos);

  const confirmar = async () => {
    setBusy(true);
    setErro(null);
    const r = await invoke('quality/cancelCharge', { cobrancaId: sample.cobrancaId, campos });
    setBusy(false);
    if (!r.ok) {
      setErro(new ApiError(r.error).message);
      return;
    }
    setOpen(false);
    onDone(
      `Cobrança #${r.data.cobrancaId} cancelada; o pedido #${r.data.extracaoId} voltou à fila para ser refeito.`,
    );
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (busy) return;
        setErro(null);
        setOpen(o);
      }}
    >
      <Dialog.Trigger asChild>
        <button
          type="button"
          className="btn btn-danger"
          disabled={disabled || errados.length === 0}
          data-testid="quality-cancel"
          title={
            errados.length === 0 ? 'Marque o campo errado para cancelar a cobrança.' : undefined
          }
        >
          Cancelar cobrança e refazer…
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="review-overlay" />
        <Dialog.Content
          className="review-dialog"
          data-testid="quality-cancel-dialog"
          aria-describedby={undefined}
        >
          <Dialog.Title className="review-dialog-title" data-testid="quality-cancel-title">
            Cancelar a cobrança #{sample.cobrancaId} de {valor}?
          </Dialog.Title>
          <p className="review-charge-merchant">
            Lojista: <strong>{sample.merchantNome}</strong> · Cliente:{' '}
            <strong>{sample.finais.cliente_nome ?? '—'}</strong>
          </p>
          <p>Campos errados: {errados.map((c) => ROTULO_CAMPO_QUALIDADE[c]).join(', ')}.</p>
          <ul className="quality-cancel-steps">
            <li>o julgamento é salvo;</li>
            <li>a cobrança é cancelada no PSP (o cliente não consegue mais pagá-la);</li>
            <li>o pedido volta à fila aberta para uma pessoa refazer a cobrança.</li>
          </ul>
          <p className="muted">Cada passo fica registrado com o seu nome.</p>
          <DialogFooter error={erro} busy={busy} closeLabel="Voltar">
            <button
              type="button"
              className="btn btn-danger-solid"
              disabled={busy}
              onClick={() => void confirmar()}
            >
              {busy ? 'Cancelando…' : 'Cancelar cobrança e devolver à fila'}
            </button>
          </DialogFooter>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
