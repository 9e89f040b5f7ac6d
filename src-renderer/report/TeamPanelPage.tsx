import { useCallback, useEffect, useRef } from 'react';
import { Bar, Tooltip, YAxis } from 'recharts';
import { FAIXAS_IDADE, FAIXA_IDADE_LABEL, type TeamPanel } from '@shared/contract/review-panel';
import { SITUACAO_LABELS, type Situacao } from '@shared/extraction-types';
import { formatDateBR } from '@shared/time';
import { TOOLTIP_SEPARATOR } from '../charts';
import { Page } from '../components/Layout';
import { ErrorState, LoadingState } from '../components/States';
import { hrefFor } from '../router';
import { formatInt } from '../review/labels';
import { useLiveQueue } from '../review/live';
import { useChannel } from '../useChannel';
import '../review/review.css';
import { DayChartCard, HeadRow, Kpi } from './parts';

/** Live refreshes at most this often, however many queue events arrive. */
const MIN_INTERVAL_MS = 5_000;

const pct = (v: number) => `${(v * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

const situacao = (s: string) => SITUACAO_LABELS[s as Situacao] ?? s;

/** Seconds as people read a handling time: "45 s", "3 min 20 s", "1 h 05 min". */
function duracao(s: number): string {
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}

/** A deadline in minutes as people say it: "30 min", "2 h", "24 h", "1 h 30 min". */
function prazo(min: number): string {
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
}

const SERIES = [
  ['Extrações', '#5b6b82'],
  ['Criadas automaticamente', '#1e7b3c'],
  ['Tratados pela equipe', '#0b6bcb'],
  ['Falharam', '#b42318'],
] as const;

/**
 * Reloads on the queue's live events, bounded: the first event after a quiet period reloads at
 * once, later ones are folded into one reload when the interval has passed.
 */
function useBoundedReload(reload: () => void): void {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const onChange = useCallback(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + MIN_INTERVAL_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      reload();
    }, wait);
  }, [reload]);
  useLiveQueue(onChange);
}

/** "Equipe" (supervisors, #39.3): the team's queue at a glance, live. */
export function TeamPanelPage() {
  const state = useChannel('review/teamPanel', {});
  useBoundedReload(state.reload);
  if (state.status === 'error' && !state.data)
    return (
      <Page title="Painel da equipe">
        <ErrorState error={state.error} onRetry={state.reload} />
      </Page>
    );
  if (!state.data)
    return (
      <Page title="Painel da equipe">
        <LoadingState label="Carregando o painel da equipe…" />
      </Page>
    );
  return <PanelBody panel={state.data} busy={state.status === 'loading'} />;
}

function PanelBody({ panel, busy }: { panel: TeamPanel; busy: boolean }) {
  const f = panel.falhas_validacao;
  const hora = new Date(panel.gerado_em).toLocaleTimeString('pt-BR', {
    timeZone: panel.time_zone,
  });
  const chart = panel.dias.map((d) => ({
    dia: formatDateBR(d.dia).slice(0, 5),
    Extrações: d.extracoes,
    'Criadas automaticamente': d.automaticas,
    'Tratados pela equipe': d.tratados,
    Falharam: d.falhou,
  }));
  return (
    <Page
      title="Painel da equipe"
      subtitle={
        <>
          Atualizado às {hora}; acompanha a fila ao vivo. Prazos: falhou{' '}
          {prazo(panel.prazos_min.falhou)}, incompleto {prazo(panel.prazos_min.incompleto)},
          aguardando lojista {prazo(panel.prazos_min.aguardando)}.
        </>
      }
    >
      <div className="report" aria-busy={busy} data-testid="team-panel">
        {f.alerta ? (
          <p className="card report-kpi-alerta" role="alert" data-testid="alerta-falhas">
            Falhas de validação acima do limite nas últimas 24 h: {pct(f.taxa)} de{' '}
            {formatInt(f.extracoes)} extrações (limite {pct(f.limite)}).
          </p>
        ) : null}
        <div className="report-kpis">
          <Kpi label="Fila aberta" value={formatInt(panel.backlog.total)} />
          <Kpi label="Atrasados" value={formatInt(panel.prazos.atrasados)} hint="prazo vencido" />
          <Kpi
            label="Vencendo"
            value={formatInt(panel.prazos.vencendo)}
            hint="menos de 25% do prazo"
          />
          <Kpi
            label="Criação automática (24 h)"
            value={pct(panel.criacao_automatica.taxa)}
            hint={`${formatInt(panel.criacao_automatica.automaticas)} de ${formatInt(panel.criacao_automatica.extracoes)}`}
          />
          <Kpi
            label="Falhas de validação (24 h)"
            value={pct(f.taxa)}
            hint={`limite ${pct(f.limite)}`}
          />
        </div>
        <div className="report-grid">
          <section className="card">
            <h2>Fila por situação e idade</h2>
            {panel.backlog.por_situacao.length ? (
              <table className="table" data-testid="painel-fila">
                <HeadRow
                  columns={[
                    'Situação',
                    { num: 'Total' },
                    ...FAIXAS_IDADE.map((x) => ({ num: FAIXA_IDADE_LABEL[x] })),
                  ]}
                />
                <tbody>
                  {panel.backlog.por_situacao.map((r) => (
                    <tr key={r.situacao}>
                      <td>{situacao(r.situacao)}</td>
                      <td className="num">{formatInt(r.total)}</td>
                      {FAIXAS_IDADE.map((x) => (
                        <td key={x} className="num">
                          {formatInt(r[x])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted">A fila está vazia.</p>
            )}
          </section>
          <section className="card">
            <h2>Agentes hoje</h2>
            {panel.agentes.length ? (
              <table className="table" data-testid="painel-agentes">
                <HeadRow
                  columns={['Agente', { num: 'Tratados' }, { num: 'Mediana' }, 'Com o pedido']}
                />
                <tbody>
                  {panel.agentes.map((a) => (
                    <tr key={a.operador}>
                      <td>{a.operador}</td>
                      <td className="num">{formatInt(a.tratados_hoje)}</td>
                      <td className="num">
                        {a.mediana_tratamento_s === null ? '—' : duracao(a.mediana_tratamento_s)}
                      </td>
                      <td>
                        {a.reserva ? (
                          <a href={hrefFor('fila', a.reserva.pedido)}>nº {a.reserva.pedido}</a>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted">Ninguém tratou pedidos hoje nem está com um pedido.</p>
            )}
          </section>
        </div>
        <DayChartCard
          title="Últimos 7 dias"
          label="Gráfico dos últimos 7 dias: extrações, criadas automaticamente, tratadas pela equipe e falhas"
          height={260}
          data={chart}
        >
          <YAxis allowDecimals={false} fontSize={12} />
          <Tooltip separator={TOOLTIP_SEPARATOR} formatter={(v) => formatInt(Number(v))} />
          {SERIES.map(([name, fill]) => (
            <Bar key={name} isAnimationActive={false} dataKey={name} fill={fill} />
          ))}
        </DayChartCard>
      </div>
    </Page>
  );
}
