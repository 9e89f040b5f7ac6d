/**
 * One merchant on the supervisor's screen: its Pix key, its WhatsApp numbers and its charges in
 * "Falhas no PSP". Every change is a call to main (validated and audited there); the Pix key is
 * also checked here first with the same validator, so a mistyped key is said at once.
 */
import { useState, type FormEvent } from 'react';
import { TIPO_CHAVE_PIX_LABELS, type LojistaDetalhe } from '@shared/contract/merchants';
import { ESTADO_ENVIO_LABELS } from '@shared/contract/pix';
import { formatBRL } from '@shared/money';
import { validarChavePix } from '@shared/pix';
import { call, errorMessage } from '../api';
import { useTimeZone } from '../appInfo';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { useToast } from '../components/Toast';
import { formatDateTime } from '../format';
import { formatDueDate } from '../review/describe';
import { hrefFor } from '../router';
import { useChannel } from '../useChannel';

export function MerchantDetail({
  merchantId,
  onChanged,
}: {
  merchantId: number;
  /** A change the list shows too (key, numbers, failures). */
  onChanged: () => void;
}) {
  const detail = useChannel('merchants/get', { merchantId });
  const changed = () => {
    detail.reload();
    onChanged();
  };
  if (detail.error && !detail.data) {
    return <ErrorState error={detail.error} onRetry={detail.reload} />;
  }
  if (!detail.data) return <LoadingState label="Carregando o lojista…" />;
  const m = detail.data;
  return (
    <div className="merchant-detail" data-testid="lojista-detalhe">
      <h2 className="merchant-title">
        <span className="muted">#{m.id}</span> {m.nome}
      </h2>
      <PixKeyCard m={m} onChanged={changed} />
      <ContactsCard m={m} onChanged={changed} />
      <FailuresCard m={m} onChanged={changed} />
    </div>
  );
}

function PixKeyCard({ m, onChanged }: { m: LojistaDetalhe; onChanged: () => void }) {
  const toast = useToast();
  const [chave, setChave] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validarChavePix(chave);
    if (!v.ok) {
      setErro(v.motivo);
      return;
    }
    setBusy(true);
    setErro(null);
    try {
      const r = await call('merchants/setPixKey', { merchantId: m.id, chave });
      toast.show(
        'success',
        `Chave Pix de ${m.nome} ${m.chavePix ? 'alterada' : 'cadastrada'}: ${r.chavePix} (${TIPO_CHAVE_PIX_LABELS[r.tipo]}).`,
      );
      setChave('');
      onChanged();
    } catch (err) {
      setErro(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="lojista-chave-titulo">
      <h3 id="lojista-chave-titulo">Chave Pix</h3>
      <p data-testid="lojista-chave-atual">
        {m.chavePix ? (
          <>
            <span className="merchants-key-full">{m.chavePix}</span>{' '}
            {m.chaveTipo ? (
              <span className="badge badge-neutral">{TIPO_CHAVE_PIX_LABELS[m.chaveTipo]}</span>
            ) : null}
          </>
        ) : (
          <>
            <span className="badge badge-warn">Sem chave Pix</span>{' '}
            <span className="muted">Cobranças Pix deste lojista não são enviadas ao PSP.</span>
          </>
        )}
      </p>
      <form className="form-row" aria-label="Chave Pix do lojista" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field-label" htmlFor="lojista-chave">
            {m.chavePix ? 'Nova chave Pix' : 'Chave Pix'}
          </label>
          <input
            id="lojista-chave"
            value={chave}
            autoComplete="off"
            placeholder="CPF, CNPJ, e-mail, +55 telefone ou chave aleatória"
            aria-invalid={erro ? true : undefined}
            aria-describedby={erro ? 'lojista-chave-erro' : undefined}
            onChange={(e) => {
              setChave(e.target.value);
              setErro(null);
            }}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy || !chave.trim()}>
          {busy ? 'Salvando…' : m.chavePix ? 'Trocar chave Pix' : 'Cadastrar chave Pix'}
        </button>
      </form>
      {erro ? (
        <p className="field-error" id="lojista-chave-erro" role="alert">
          {erro}
        </p>
      ) : null}
    </section>
  );
}

function ContactsCard({ m, onChanged }: { m: LojistaDetalhe; onChanged: () => void }) {
  const zone = useTimeZone();
  const toast = useToast();
  const [telefone, setTelefone] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [removendo, setRemovendo] = useState<string | null>(null);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErro(null);
    try {
      const r = await call('merchants/addContact', { merchantId: m.id, telefone });
      toast.show(
        r.criado ? 'success' : 'info',
        r.criado
          ? `${r.telefone} cadastrado para ${m.nome}.`
          : `${r.telefone} já era deste lojista; nada mudou.`,
      );
      setTelefone('');
      onChanged();
    } catch (err) {
      setErro(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (tel: string) => {
    setBusy(true);
    try {
      await call('merchants/removeContact', { merchantId: m.id, telefone: tel });
      toast.show('success', `${tel} removido de ${m.nome}.`);
      setRemovendo(null);
      onChanged();
    } catch (err) {
      toast.show('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="lojista-contatos-titulo">
      <h3 id="lojista-contatos-titulo">Números de WhatsApp</h3>
      <p className="hint">
        Mensagens desses números chegam à fila como deste lojista. Um número é de um lojista só.
      </p>
      {m.contatos.length ? (
        <ul className="merchant-contacts" data-testid="lojista-contatos">
          {m.contatos.map((c) => (
            <li key={c.telefone}>
              <span className="merchant-phone">{c.telefone}</span>
              <span className="muted">
                cadastrado por {c.criadoPor} em {formatDateTime(c.criadoEm, zone)}
              </span>
              {removendo === c.telefone ? (
                <span className="merchant-confirm">
                  <button
                    type="button"
                    className="btn btn-small btn-danger"
                    disabled={busy}
                    onClick={() => void remove(c.telefone)}
                  >
                    Confirmar remoção
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => setRemovendo(null)}
                  >
                    Manter
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Remover ${c.telefone}`}
                  disabled={busy}
                  onClick={() => setRemovendo(c.telefone)}
                >
                  Remover
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted" data-testid="lojista-contatos">
          Nenhum número cadastrado: mensagens deste lojista pelo WhatsApp não são reconhecidas.
        </p>
      )}
      <form
        className="form-row"
        aria-label="Adicionar número de WhatsApp"
        onSubmit={add}
        noValidate
      >
        <div className="field">
          <label className="field-label" htmlFor="lojista-telefone">
            Novo número (com DDD)
          </label>
          <input
            id="lojista-telefone"
            inputMode="tel"
            value={telefone}
            autoComplete="off"
            placeholder="+55 11 98765-4321"
            aria-invalid={erro ? true : undefined}
            aria-describedby={erro ? 'lojista-telefone-erro' : undefined}
            onChange={(e) => {
              setTelefone(e.target.value);
              setErro(null);
            }}
          />
        </div>
        <button type="submit" className="btn" disabled={busy || !telefone.trim()}>
          Adicionar número
        </button>
      </form>
      {erro ? (
        <p className="field-error" id="lojista-telefone-erro" role="alert">
          {erro}
        </p>
      ) : null}
    </section>
  );
}

function FailuresCard({ m, onChanged }: { m: LojistaDetalhe; onChanged: () => void }) {
  const zone = useTimeZone();
  const toast = useToast();
  const [busy, setBusy] = useState<number | null>(null);
  const resend = async (cobrancaId: number) => {
    setBusy(cobrancaId);
    try {
      const r = await call('pix/resend', { cobrancaId });
      if (r.estado === 'falhou') {
        toast.show('error', `A cobrança #${cobrancaId} falhou de novo: ${r.motivo ?? ''}`);
      } else {
        toast.show(
          'success',
          `Cobrança #${cobrancaId} reenviada: ${ESTADO_ENVIO_LABELS[r.estado].toLowerCase()}.`,
        );
      }
    } catch (err) {
      toast.show('error', errorMessage(err));
    } finally {
      setBusy(null);
      onChanged();
    }
  };
  return (
    <section className="card" aria-labelledby="lojista-falhas-titulo">
      <h3 id="lojista-falhas-titulo">Falhas no PSP ({m.falhas.length})</h3>
      {!m.falhas.length ? (
        <EmptyState title="Nenhuma cobrança parada no PSP">
          Cobranças deste lojista que o PSP recusar ou que não puderem ser enviadas aparecem aqui.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="lojista-falhas">
            <caption className="visually-hidden">Cobranças do lojista com falha no PSP</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Nº
                </th>
                <th scope="col">Cliente</th>
                <th scope="col" className="num">
                  Valor
                </th>
                <th scope="col">Vencimento</th>
                <th scope="col">Motivo</th>
                <th scope="col">Ações</th>
              </tr>
            </thead>
            <tbody>
              {m.falhas.map((f) => {
                const blocked = f.semChave && !m.chavePix;
                return (
                  <tr key={f.cobrancaId} data-testid={`lojista-falha-${f.cobrancaId}`}>
                    <td className="num nowrap">
                      <a className="link" href={hrefFor('fila', f.extracaoId)}>
                        #{f.cobrancaId}
                      </a>
                    </td>
                    <td>{f.clienteNome}</td>
                    <td className="num nowrap">{formatBRL(f.valorCentavos)}</td>
                    <td className="nowrap">{formatDueDate(f.vencimento)}</td>
                    <td>
                      {f.motivo}
                      <div className="hint">desde {formatDateTime(f.atualizadaEm, zone)}</div>
                    </td>
                    <td className="nowrap">
                      <button
                        type="button"
                        className="btn btn-small"
                        disabled={busy !== null || blocked}
                        title={blocked ? 'Cadastre a chave Pix antes de reenviar.' : undefined}
                        onClick={() => void resend(f.cobrancaId)}
                      >
                        {busy === f.cobrancaId ? 'Reenviando…' : 'Reenviar'}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
