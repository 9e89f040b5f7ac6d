import { useEffect, useState } from 'react';
import {
  CHARGE_SITUACAO_LABELS,
  CHARGE_SITUACOES,
  type ChargeListItem,
  type ChargeSituacao,
  type ChargesPage as ChargesPageData,
} from '@shared/contract/review';
import { ESTADO_ENVIO_LABELS, ESTADOS_ENVIO, type EstadoEnvio } from '@shared/contract/pix';
import { formatBRL } from '@shared/money';
import { ApiError, call, errorMessage } from '../api';
import { useAppInfo, useTimeZone } from '../appInfo';
import { BreakableText } from '../components/CellText';
import { FilterSelect, InlineField } from '../components/Fields';
import { Page } from '../components/Layout';
import { PeriodPicker, type Period } from '../components/PeriodPicker';
import { useToast } from '../components/Toast';
import { downloadText } from '../download';
import { toCsv, type CsvColumn, type CsvFormat } from '../sales/csv';
import { useShortcut } from '../components/Shortcuts';
import { EmptyState, ErrorState, LoadingState, StatusBadge } from '../components/States';
import { formatDateTime } from '../format';
import { hrefFor } from '../router';
import { useChannel } from '../useChannel';
import { fieldLabel } from '@shared/rule-text';
import { formatDueDate, formatFieldValue, installments, METODO_LABEL } from '../review/describe';
import '../review/review.css';
import { usePermissions } from '../session/session';
import { CancelCharge, EnvioState, isOpen, NoPspNotice, PixCodes } from './Dispatch';

/** The list's filters (sent to main; filtering and paging happen in SQL). */
interface Filters {
  merchantId: number | null;
  search: string;
  numero: string;
  situacao: ChargeSituacao | '';
  estadoEnvio: EstadoEnvio | '';
  period: Period | null;
}

const NO_FILTERS: Filters = {
  merchantId: null,
  search: '',
  numero: '',
  situacao: '',
  estadoEnvio: '',
  period: null,
};

function inputOf(f: Filters) {
  const numero = Number(f.numero.replace(/\D/g, ''));
  return {
    ...(f.merchantId ? { merchantId: f.merchantId } : {}),
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(f.numero.trim() && Number.isSafeInteger(numero) && numero > 0 ? { numero } : {}),
    ...(f.situacao ? { situacao: f.situacao } : {}),
    ...(f.estadoEnvio ? { estadoEnvio: f.estadoEnvio } : {}),
    ...(f.period ? { de: f.period.de, ate: f.period.ate } : {}),
  };
}

const CSV_MAX_PAGES = 50;

/** Every charge the filter matches, page by page (for the CSV). */
async function allCharges(f: Filters): Promise<ChargeListItem[]> {
  const out: ChargeListItem[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < CSV_MAX_PAGES; i++) {
    const p: ChargesPageData = await call('review/charges', { ...inputOf(f), limit: 200, cursor });
    out.push(...p.items);
    cursor = p.nextCursor;
    if (!cursor) break;
  }
  return out;
}

function chargesCsv(items: ChargeListItem[], format: CsvFormat): string {
  const cols: CsvColumn<ChargeListItem>[] = [
    { header: 'Número', kind: 'numero', value: (c) => c.id },
    { header: 'Criada em', kind: 'texto', value: (c) => c.criadaEm },
    { header: 'Por', kind: 'texto', value: (c) => c.criadaPor },
    { header: 'Lojista', kind: 'texto', value: (c) => `${c.merchantNome} (#${c.merchantId})` },
    { header: 'Cliente', kind: 'texto', value: (c) => c.clienteNome },
    { header: 'Valor (R$)', kind: 'centavos', value: (c) => c.valorCentavos },
    { header: 'Forma', kind: 'texto', value: (c) => METODO_LABEL[c.metodo] },
    { header: 'Parcelas', kind: 'numero', value: (c) => c.parcelas },
    { header: 'Vencimento', kind: 'data', value: (c) => c.vencimento },
    { header: 'Situação', kind: 'texto', value: (c) => CHARGE_SITUACAO_LABELS[c.situacao] },
    {
      header: 'Envio',
      kind: 'texto',
      value: (c) => (c.envio ? ESTADO_ENVIO_LABELS[c.envio.estado] : ''),
    },
    { header: 'Copia-e-cola', kind: 'texto', value: (c) => c.envio?.copiaECola ?? '' },
    { header: 'Descrição', kind: 'texto', value: (c) => c.descricao },
    { header: 'Pedido', kind: 'numero', value: (c) => c.extracaoId },
  ];
  return toCsv(cols, items, format);
}

const SITUACAO_TONE = { a_vencer: 'ok', vence_hoje: 'warn', vencida: 'danger' } as const;

/** Charges created from the queue: search, number, period, situation, merchant; CSV of the match. */
export function ChargesPage() {
  const zone = useTimeZone();
  const today = useAppInfo().data?.today ?? null;
  const toast = useToast();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // Typing in the text boxes waits a moment before asking main.
  const [typed, setTyped] = useState({ search: '', numero: '' });
  useEffect(() => {
    const t = window.setTimeout(
      () =>
        setFilters((f) =>
          f.search === typed.search && f.numero === typed.numero ? f : { ...f, ...typed },
        ),
      250,
    );
    return () => window.clearTimeout(t);
  }, [typed]);
  const [items, setItems] = useState<ChargeListItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more_, setMore] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [nonce, setNonce] = useState(0);
  const [csvFormat, setCsvFormat] = useState<CsvFormat>('pt-BR');
  const [exporting, setExporting] = useState(false);
  const request = `${JSON.stringify(inputOf(filters))}\n${nonce}`;
  const [answered, setAnswered] = useState('');
  const state: 'loading' | 'ok' | 'more' = answered !== request ? 'loading' : more_ ? 'more' : 'ok';
  const merchants = useChannel('review/filterOptions', { view: 'resolvida' });
  const filtered = JSON.stringify(inputOf(filters)) !== '{}';
  const { can } = usePermissions();
  const reload = () => setNonce((n) => n + 1);

  useEffect(() => {
    let stale = false;
    call('review/charges', { limit: 100, ...inputOf(filters) })
      .then((p) => {
        if (stale) return;
        setItems(p.items);
        setCursor(p.nextCursor);
        setError(null);
        setAnswered(request);
      })
      .catch((e: unknown) => {
        if (stale) return;
        setError(
          e instanceof ApiError
            ? e
            : new ApiError({ code: 'interno', message: 'Erro inesperado.' }),
        );
        setAnswered(request);
      });
    return () => {
      stale = true;
    };
  }, [filters, request]);

  const more = () => {
    if (!cursor) return;
    setMore(true);
    call('review/charges', { limit: 100, cursor, ...inputOf(filters) })
      .then((p) => {
        setItems((xs) => [...xs, ...p.items]);
        setCursor(p.nextCursor);
        setMore(false);
      })
      .catch((e: unknown) => {
        setError(e instanceof ApiError ? e : null);
        setMore(false);
      });
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await allCharges(filters);
      downloadText(
        `cobrancas${filters.period ? `-${filters.period.de}-a-${filters.period.ate}` : ''}.csv`,
        chargesCsv(all, csvFormat),
      );
    } catch (e) {
      toast.show('error', errorMessage(e));
    } finally {
      setExporting(false);
    }
  };
  useShortcut('r', reload, {
    description: 'Recarregar as cobranças',
    group: 'Cobranças',
  });

  return (
    <Page title="Cobranças" subtitle="Cobranças criadas a partir de pedidos confirmados na fila.">
      <div className="toolbar charges-filters">
        <input
          type="search"
          className="charges-search"
          aria-label="Buscar por cliente, descrição, lojista ou agente"
          placeholder="Buscar cliente, descrição, lojista ou agente"
          value={typed.search}
          onChange={(e) => setTyped((t) => ({ ...t, search: e.target.value }))}
        />
        <InlineField label="Nº">
          <input
            className="charges-number"
            inputMode="numeric"
            aria-label="Número da cobrança"
            value={typed.numero}
            onChange={(e) => setTyped((t) => ({ ...t, numero: e.target.value }))}
          />
        </InlineField>
        <FilterSelect
          label="Situação"
          all="Todas"
          options={CHARGE_SITUACOES.map((s) => ({ value: s, label: CHARGE_SITUACAO_LABELS[s] }))}
          value={filters.situacao || null}
          onChange={(situacao) => setFilters((f) => ({ ...f, situacao: situacao ?? '' }))}
        />
        <FilterSelect
          label="Envio"
          all="Todos"
          options={ESTADOS_ENVIO.map((s) => ({ value: s, label: ESTADO_ENVIO_LABELS[s] }))}
          value={filters.estadoEnvio || null}
          onChange={(estadoEnvio) => setFilters((f) => ({ ...f, estadoEnvio: estadoEnvio ?? '' }))}
        />
        <FilterSelect
          label="Lojista"
          all="Todos os lojistas"
          options={(merchants.data?.merchants ?? []).map((m) => ({ value: m.id, label: m.nome }))}
          value={filters.merchantId}
          onChange={(merchantId) => setFilters((f) => ({ ...f, merchantId }))}
        />
      </div>
      <div className="toolbar charges-filters">
        <span className="field-inline">Criadas</span>
        {today ? (
          <PeriodPicker
            today={today}
            value={filters.period ?? { de: '', ate: '' }}
            onChange={(period) => setFilters((f) => ({ ...f, period }))}
          />
        ) : null}
        {filters.period ? (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => setFilters((f) => ({ ...f, period: null }))}
          >
            Qualquer data
          </button>
        ) : null}
        <span className="toolbar-spacer" />
        <div className="sales-csv">
          <button
            type="button"
            className="btn"
            onClick={() => void exportCsv()}
            disabled={exporting || !items.length}
            data-testid="charges-csv"
          >
            {exporting ? 'Exportando…' : 'Exportar CSV'}
          </button>
          <label className="sales-check">
            <input
              type="checkbox"
              checked={csvFormat === 'pt-BR'}
              onChange={(e) => setCsvFormat(e.target.checked ? 'pt-BR' : 'padrao')}
            />
            formato brasileiro
          </label>
        </div>
      </div>
      <NoPspNotice />
      {error && !items.length ? (
        <ErrorState error={error} onRetry={() => setNonce((n) => n + 1)} />
      ) : state === 'loading' && !items.length && answered === '' ? (
        <LoadingState label="Carregando as cobranças…" />
      ) : !items.length ? (
        filtered ? (
          <EmptyState title="Nenhuma cobrança com esses filtros">
            Mude a busca, o período ou a situação.
          </EmptyState>
        ) : (
          <EmptyState title="Nenhuma cobrança criada ainda">
            Quando um pedido da fila for confirmado, a cobrança criada aparece aqui.
          </EmptyState>
        )
      ) : (
        <div className="table-wrap" aria-busy={state !== 'ok'}>
          <table className="table" data-testid="charges-table">
            <caption className="visually-hidden">Cobranças criadas</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Nº
                </th>
                <th scope="col">Criada em</th>
                <th scope="col">Por</th>
                <th scope="col">Lojista</th>
                <th scope="col">Cliente</th>
                <th scope="col" className="num">
                  Valor
                </th>
                <th scope="col">Forma</th>
                <th scope="col">Vencimento</th>
                <th scope="col">Situação</th>
                <th scope="col">Envio ao PSP</th>
                <th scope="col">Pix</th>
                <th scope="col">Alterado pelo agente</th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <tr key={c.id} data-testid={`charge-${c.id}`}>
                  <td className="num nowrap">#{c.id}</td>
                  <td className="nowrap">
                    <a className="link" href={hrefFor('fila', c.extracaoId)}>
                      {formatDateTime(c.criadaEm, zone)}
                    </a>
                  </td>
                  <td>
                    <BreakableText text={c.criadaPor} />
                  </td>
                  <td>{c.merchantNome}</td>
                  <td>{c.clienteNome}</td>
                  <td className="num nowrap">{formatBRL(c.valorCentavos)}</td>
                  <td>
                    {METODO_LABEL[c.metodo]}
                    {c.parcelas > 1 ? ` ${installments(c.valorCentavos, c.parcelas)}` : ''}
                  </td>
                  <td className="nowrap">{formatDueDate(c.vencimento)}</td>
                  <td className="nowrap">
                    <StatusBadge tone={SITUACAO_TONE[c.situacao]}>
                      {CHARGE_SITUACAO_LABELS[c.situacao]}
                    </StatusBadge>
                  </td>
                  <td>
                    <EnvioState envio={c.envio} zone={zone} />
                    {can('supervisao') && isOpen(c.envio) ? (
                      <div className="pix-line envio-action">
                        <CancelCharge
                          cobrancaId={c.id}
                          merchantNome={c.merchantNome}
                          valorCentavos={c.valorCentavos}
                          onDone={reload}
                        />
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <PixCodes envio={c.envio} />
                  </td>
                  <td>
                    {Object.keys(c.alteracoes).length
                      ? Object.entries(c.alteracoes)
                          .map(
                            ([campo, v]) =>
                              `${fieldLabel(campo)}: ${formatFieldValue(campo, v.modelo)} → ${formatFieldValue(campo, v.agente)}`,
                          )
                          .join('; ')
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {cursor ? (
            <div className="table-note">
              <button type="button" className="btn" onClick={more} disabled={state === 'more'}>
                {state === 'more' ? 'Carregando…' : 'Carregar mais'}
              </button>
            </div>
          ) : null}
        </div>
      )}
    </Page>
  );
}
