import { useState } from 'react';
import './lgpd.css';
import type { CampoRevelavel } from '@shared/contract/lgpd';
import { splitMasked } from '@shared/lgpd';
import { call, errorMessage } from '../api';
import { usePermissions } from '../session/session';

/**
 * A text as main sends it — CPFs/CNPJs masked (#38.2). A supervisor clicks a masked document to
 * see the field in clear (lgpd/revelar, audited); other roles see only the mask.
 */
export function Revelavel({
  texto,
  campo,
  id,
}: {
  texto: string;
  campo: CampoRevelavel;
  id: number | null;
}) {
  const supervisor = usePermissions().can('supervisao');
  const [claro, setClaro] = useState<{ de: string; valor: string } | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (claro && claro.de === texto) return <>{claro.valor}</>;
  const partes = splitMasked(texto);
  if (!supervisor || id === null || !partes.some((p) => p.mascara)) return <>{texto}</>;
  const reveal = async () => {
    setBusy(true);
    setErro(null);
    try {
      const r = await call('lgpd/revelar', { campo, id });
      setClaro({ de: texto, valor: r.valor });
    } catch (e) {
      setErro(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {partes.map((p, i) =>
        p.mascara ? (
          <button
            key={i}
            type="button"
            className="link masked-doc"
            data-testid="revelar-documento"
            title="Revelar (fica registrado na auditoria)"
            aria-label={`Revelar ${p.texto} (fica registrado na auditoria)`}
            disabled={busy}
            onClick={() => void reveal()}
          >
            {p.texto}
          </button>
        ) : (
          <span key={i}>{p.texto}</span>
        ),
      )}
      {erro ? (
        <span className="field-error" role="alert">
          {' '}
          {erro}
        </span>
      ) : null}
    </>
  );
}
