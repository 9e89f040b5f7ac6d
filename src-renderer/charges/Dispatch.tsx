/**
 * A charge's dispatch to the PSP on the screens (#36.7): its state as a badge with time and
 * reason, the Pix copia-e-cola and link with copy buttons, the steps of its history, and the
 * supervisor's cancel (a dialog naming merchant and amount).
 */
import { useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import {
  ESTADO_ENVIO_LABELS,
  ESTADOS_ENVIO_ABERTOS,
  SEM_PSP_AVISO,
  type EnvioResumo,
  type EstadoEnvio,
} from '@shared/contract/pix';
import { formatBRL } from '@shared/money';
import { call, errorMessage } from '../api';
import { DialogFooter } from '../components/DialogFooter';
import { StatusBadge, type Tone } from '../components/States';
import { useToast } from '../components/Toast';
import { formatDateTime } from '../format';
import { useChannel } from '../useChannel';
import './dispatch.css';

export const ESTADO_ENVIO_TONE: Record<EstadoEnvio, Tone> = {
  pendente: 'neutral',
  registrada: 'info',
  enviada_ao_lojista: 'info',
  paga: 'ok',
  expirada: 'warn',
  cancelada: 'neutral',
  falhou: 'danger',
};

/** The dispatch's state, when it last changed and why. */
export function EnvioState({ envio, zone }: { envio: EnvioResumo | null; zone: string }) {
  if (!envio) return <span className="muted">—</span>;
  return (
    <div className="envio-cell" data-testid="envio-estado">
      <span>
        <StatusBadge tone={ESTADO_ENVIO_TONE[envio.estado]}>
          {ESTADO_ENVIO_LABELS[envio.estado]}
        </StatusBadge>
      </span>
      <time className="envio-when" dateTime={envio.atualizadaEm}>
        {formatDateTime(envio.atualizadaEm, zone)}
      </time>
      {envio.motivo ? (
        <span
          className={
            envio.estado === 'falhou' ? 'envio-reason envio-reason-danger' : 'envio-reason'
          }
        >
          {envio.motivo}
        </span>
      ) : null}
    </div>
  );
}

/** A button that copies `text` and says so. */
export function CopyButton({ text, label, what }: { text: string; label: string; what: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className="btn btn-small"
      aria-label={`${label} ${what}`}
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => toast.show('success', `${what[0]!.toUpperCase()}${what.slice(1)} copiado.`),
          () => toast.show('error', 'Não foi possível copiar; selecione o texto e copie.'),
        );
      }}
    >
      {label}
    </button>
  );
}

/** The Pix copia-e-cola and the link, each cut to a line (the whole in its title) and copyable. */
export function PixCodes({ envio }: { envio: EnvioResumo | null }) {
  if (!envio?.copiaECola && !envio?.link) return <span className="muted">—</span>;
  return (
    <div className="pix-cell">
      {envio.copiaECola ? (
        <div className="pix-line">
          <span className="cell-clip pix-code" title={envio.copiaECola} data-testid="copia-e-cola">
            {envio.copiaECola}
          </span>
          <CopyButton text={envio.copiaECola} label="Copiar" what="copia-e-cola" />
        </div>
      ) : null}
      {envio.link ? (
        <div className="pix-line">
          <span className="cell-clip pix-code" title={envio.link} data-testid="pix-link">
            {envio.link}
          </span>
          <CopyButton text={envio.link} label="Copiar" what="link" />
        </div>
      ) : null}
    </div>
  );
}

/** Whether a PSP is configured (all the renderer learns of its configuration). */
export function usePspConfigured(): boolean | null {
  const s = useChannel('pix/status', {});
  return s.data ? s.data.pspConfigurado : null;
}

/** Said plainly where charges are listed when no PSP is configured. */
export function NoPspNotice() {
  const configured = usePspConfigured();
  if (configured !== false) return null;
  return (
    <p className="notice notice-warn" role="note" data-testid="sem-psp">
      {SEM_PSP_AVISO}.
    </p>
  );
}

export const isOpen = (e: EnvioResumo | null): boolean =>
  e !== null && ESTADOS_ENVIO_ABERTOS.includes(e.estado);

/** The supervisor's cancel of an open charge: a dialog naming merchant and amount. */
export function CancelCharge({
  cobrancaId,
  merchantNome,
  valorCentavos,
  onDone,
}: {
  cobrancaId: number;
  merchantNome: string;
  valorCentavos: number;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const valor = formatBRL(valorCentavos);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await call('pix/cancel', { cobrancaId });
      toast.show('success', `Cobrança #${cobrancaId} cancelada.`);
      setOpen(false);
      onDone();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!busy) setOpen(o);
        if (o) setError(null);
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className="btn btn-small btn-danger">
          Cancelar
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="review-overlay" />
        <Dialog.Content className="review-dialog" aria-describedby={undefined}>
          <Dialog.Title className="review-dialog-title">
            Cancelar a cobrança #{cobrancaId}?
          </Dialog.Title>
          <p>
            A cobrança de <strong>{valor}</strong> de <strong>{merchantNome}</strong> será removida
            no PSP: o copia-e-cola deixa de valer e o cliente não consegue mais pagar. Isso fica
            registrado com o seu nome e não pode ser desfeito.
          </p>
          <DialogFooter error={error} busy={busy} closeLabel="Voltar">
            <button
              type="button"
              className="btn btn-danger"
              disabled={busy}
              onClick={() => void confirm()}
            >
              {busy ? 'Cancelando…' : `Cancelar cobrança de ${valor}`}
            </button>
          </DialogFooter>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Every step of a charge's dispatch, with its time (the item's history). */
export function DispatchHistory({ cobrancaId, zone }: { cobrancaId: number; zone: string }) {
  const h = useChannel('pix/history', { cobrancaId });
  if (!h.data) return null;
  return (
    <section className="card" aria-labelledby="envio-title" data-testid="envio-historico">
      <h2 id="envio-title">
        Envio ao PSP{' '}
        <StatusBadge tone={ESTADO_ENVIO_TONE[h.data.estado]}>
          {ESTADO_ENVIO_LABELS[h.data.estado]}
        </StatusBadge>
      </h2>
      {h.data.motivo ? <p className="muted">{h.data.motivo}</p> : null}
      <ol className="envio-steps">
        {h.data.passos.map((p, i) => (
          <li key={i}>
            <time dateTime={p.ocorridoEm}>{formatDateTime(p.ocorridoEm, zone)}</time>
            <span>{p.texto}</span>
            <span className="envio-step-who">por {p.operador}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
