import { useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import {
  parseTitular,
  type LgpdCobranca,
  type LgpdExportacao,
  type LgpdOrigem,
  type LgpdRegistro,
  type TitularInput,
} from '@shared/lgpd';
import { formatBRL } from '@shared/money';
import './lgpd.css';
import { call, errorMessage } from '../api';
import { Page } from '../components/Layout';
import { DialogFooter } from '../components/DialogFooter';
import { EmptyState } from '../components/States';
import { useToast } from '../components/Toast';
import { downloadText } from '../download';
import { useTimeZone } from '../appInfo';
import { formatDateTime } from '../format';

type Tipo = 'documento' | 'telefone' | 'email';
const TIPOS: { id: Tipo; label: string; placeholder: string }[] = [
  { id: 'documento', label: 'CPF/CNPJ', placeholder: 'ex.: 123.456.789-09' },
  { id: 'telefone', label: 'Telefone', placeholder: 'ex.: (11) 98765-4321' },
  { id: 'email', label: 'E-mail', placeholder: 'ex.: maria@exemplo.com.br' },
];

/** Where each part of the export came from, in words for people. */
const GRUPOS: {
  chave: Exclude<keyof LgpdExportacao, 'titular' | 'gerada_em' | 'total'>;
  titulo: string;
}[] = [
  { chave: 'mensagens', titulo: 'Mensagens recebidas dos lojistas' },
  { chave: 'extracoes', titulo: 'Pedidos da fila de revisão' },
  { chave: 'tentativas', titulo: 'Tentativas do modelo' },
  { chave: 'mensagens_saida', titulo: 'Mensagens enviadas aos lojistas' },
  { chave: 'perguntas', titulo: 'Perguntas de vendas' },
  { chave: 'cobrancas', titulo: 'Cobranças' },
];

const origemText = (o: LgpdOrigem) => `${o.tabela} #${o.id} · ${o.campo}`;
const valorText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/**
 * The data subject's rights (#38.4), supervisors only: find everything Balcão holds about a
 * person by CPF/CNPJ, phone or e-mail, grouped by where it came from; download it as JSON;
 * anonymise it after a confirmation that lists every field that will change.
 */
export function LgpdPage() {
  const zone = useTimeZone();
  const toast = useToast();
  const [tipo, setTipo] = useState<Tipo>('documento');
  const [valor, setValor] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [busca, setBusca] = useState<TitularInput | null>(null);
  const [exportacao, setExportacao] = useState<LgpdExportacao | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [confirmErro, setConfirmErro] = useState<string | null>(null);

  const run = async (input: TitularInput) => {
    setBusy(true);
    setErro(null);
    try {
      setExportacao(await call('lgpd/exportar', input));
      setBusca(input);
    } catch (e) {
      setExportacao(null);
      setErro(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input: TitularInput = { [tipo]: valor.trim() };
    const t = parseTitular(input);
    if ('erro' in t) {
      setErro(t.erro);
      setExportacao(null);
      return;
    }
    void run(input);
  };
  const anonymise = async () => {
    if (!busca) return;
    setBusy(true);
    setConfirmErro(null);
    try {
      const r = await call('lgpd/anonimizar', { ...busca, confirmado: true });
      setConfirmOpen(false);
      toast.show(
        'success',
        `Titular ${r.titular.identificador} anonimizado: ${r.campos} campo(s).`,
      );
      setBusy(false);
      await run(busca);
    } catch (e) {
      setConfirmErro(errorMessage(e));
      setBusy(false);
    }
  };
  const origens = exportacao
    ? GRUPOS.flatMap((g) =>
        (exportacao[g.chave] as (LgpdRegistro | LgpdCobranca)[]).map((r) => r.origem),
      )
    : [];
  const atual = TIPOS.find((t) => t.id === tipo)!;

  return (
    <Page title="LGPD" subtitle="Pedidos de titulares: o que o Balcão guarda sobre uma pessoa">
      <form className="lgpd-search" aria-label="Buscar titular" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field-label" htmlFor="lgpd-tipo">
            Buscar por
          </label>
          <select
            id="lgpd-tipo"
            value={tipo}
            onChange={(e) => {
              setTipo(e.target.value as Tipo);
              setErro(null);
            }}
          >
            {TIPOS.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="lgpd-valor">
            {atual.label} do titular
          </label>
          <input
            id="lgpd-valor"
            value={valor}
            placeholder={atual.placeholder}
            aria-invalid={erro ? true : undefined}
            aria-describedby={erro ? 'lgpd-erro' : undefined}
            onChange={(e) => setValor(e.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Buscando…' : 'Buscar'}
        </button>
        {erro ? (
          <p className="field-error" id="lgpd-erro" role="alert">
            {erro}
          </p>
        ) : null}
      </form>

      {exportacao ? (
        <section aria-label="Dados do titular" data-testid="lgpd-exportacao">
          <p>
            <strong>{exportacao.titular.identificador}</strong>: {exportacao.total}{' '}
            {exportacao.total === 1 ? 'registro encontrado' : 'registros encontrados'} (gerado em{' '}
            {formatDateTime(exportacao.gerada_em, zone)}).
          </p>
          {exportacao.total === 0 ? (
            <EmptyState title="Nada encontrado">
              O Balcão não guarda nada com este identificador (ou ele já foi anonimizado).
            </EmptyState>
          ) : (
            <>
              <div className="lgpd-actions">
                <button
                  type="button"
                  className="btn"
                  onClick={() =>
                    downloadText(
                      `lgpd-${exportacao.titular.tipo}-${exportacao.gerada_em.slice(0, 10)}.json`,
                      JSON.stringify(exportacao, null, 2),
                      'application/json;charset=utf-8',
                    )
                  }
                >
                  Baixar JSON
                </button>
                <button
                  type="button"
                  className="btn btn-danger"
                  onClick={() => {
                    setConfirmErro(null);
                    setConfirmOpen(true);
                  }}
                >
                  Anonimizar titular…
                </button>
              </div>
              {GRUPOS.map((g) => {
                const rows = exportacao[g.chave] as (LgpdRegistro | LgpdCobranca)[];
                if (rows.length === 0) return null;
                return (
                  <section key={g.chave} className="card lgpd-group" aria-label={g.titulo}>
                    <h2>
                      {g.titulo} ({rows.length})
                    </h2>
                    {rows.map((r) => (
                      <div key={origemText(r.origem)} className="lgpd-entry">
                        <span className="muted">
                          {origemText(r.origem)} · {formatDateTime(r.em, zone)}
                        </span>
                        {'valor_centavos' in r ? (
                          <pre>
                            {r.cliente_nome} · {formatBRL(r.valor_centavos)} · {r.metodo} · vence{' '}
                            {r.vencimento}
                            {r.cliente_documento ? ` · ${r.cliente_documento}` : ''}
                          </pre>
                        ) : (
                          <pre>{valorText(r.valor)}</pre>
                        )}
                      </div>
                    ))}
                  </section>
                );
              })}
            </>
          )}
        </section>
      ) : null}

      <Dialog.Root open={confirmOpen} onOpenChange={(o) => !busy && setConfirmOpen(o)}>
        <Dialog.Portal>
          <Dialog.Overlay className="lgpd-overlay" />
          <Dialog.Content
            className="lgpd-dialog"
            data-testid="lgpd-anonimizar-dialog"
            aria-describedby={undefined}
          >
            <Dialog.Title>Anonimizar {exportacao?.titular.identificador}?</Dialog.Title>
            <p className="muted">
              O identificador e o nome conhecido do titular viram «[anonimizado: titular]» nestes{' '}
              {origens.length} campos. Não dá para desfazer. Valores e datas das cobranças ficam; a
              auditoria registra quem anonimizou.
            </p>
            <ul data-testid="lgpd-anonimizar-campos">
              {origens.map((o) => (
                <li key={origemText(o)}>{origemText(o)}</li>
              ))}
            </ul>
            <DialogFooter error={confirmErro} busy={busy} closeLabel="Voltar">
              <button
                type="button"
                className="btn btn-danger-solid"
                disabled={busy}
                onClick={() => void anonymise()}
              >
                {busy ? 'Anonimizando…' : 'Anonimizar'}
              </button>
            </DialogFooter>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </Page>
  );
}
