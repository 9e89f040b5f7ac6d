import { useState } from 'react';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { FailureReport } from '@shared/contract/review';
import { addDays, formatDateBR } from '@shared/time';
import { useAppInfo } from '../appInfo';
import { Page } from '../components/Layout';
import { PeriodPicker, type Period } from '../components/PeriodPicker';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { hrefFor } from '../router';
import { useChannel } from '../useChannel';
import { formatInt, formatUsd } from '../review/labels';
import { agentText, ruleLabel } from '@shared/rule-text';
import { TOOLTIP_SEPARATOR, usdTick } from '../charts';
import '../review/review.css';

const pct = (v: number) => `${(v * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

/** "Falhas de validação": what the team reviews every week, over a chosen period. */
export function ReportPage() {
  const info = useAppInfo();
  const today = info.data?.today;
  if (!today) {
    return (
      <Page title="Relatório: falhas de validação">
        <LoadingState />
      </Page>
    );
  }
  return <Report today={today} />;
}

function Report({ today }: { today: string }) {
  const [period, setPeriod] = useState<Period>({ de: addDays(today, -6), ate: today });
  const r = useChannel('review/failureReport', period);
  return (
    <Page
      title="Relatório: falhas de validação"
      subtitle="Extrações por status, regras que mais falham, tentativas, tokens e custo estimado por dia."
    >
      <div className="toolbar">
        <PeriodPicker today={today} value={period} onChange={setPeriod} />
      </div>
      {r.status === 'error' ? (
        <ErrorState error={r.error} onRetry={r.reload} />
      ) : !r.data ? (
        <LoadingState label="Calculando o relatório…" />
      ) : r.data.total === 0 ? (
        <EmptyState title="Nenhuma extração neste período">
          Escolha outro período: de {formatDateBR(r.data.de)} a {formatDateBR(r.data.ate)} não houve
          pedidos processados.
        </EmptyState>
      ) : (
        <ReportBody report={r.data} busy={r.status === 'loading'} />
      )}
    </Page>
  );
}

function ReportBody({ report, busy }: { report: FailureReport; busy: boolean }) {
  const chart = report.porDia.map((d) => ({
    dia: formatDateBR(d.dia).slice(0, 5),
    Falhou: d.falhou,
    Incompleto: d.incompleto,
    Completo: d.extracoes - d.falhou - d.incompleto,
    custo: d.custoUsd,
  }));
  return (
    <div className="report" aria-busy={busy} data-testid="report">
      <div className="report-kpis">
        <Kpi label="Extrações" value={formatInt(report.total)} />
        <Kpi
          label="Falharam"
          value={`${formatInt(report.porStatus.falhou)} (${pct(report.porStatus.falhou / report.total)})`}
        />
        <Kpi
          label="Incompletas"
          value={`${formatInt(report.porStatus.incompleto)} (${pct(report.porStatus.incompleto / report.total)})`}
        />
        <ValidationRate report={report} />
        <Kpi
          label="Com alerta de valor"
          value={`${formatInt(report.comAlerta)} (${pct(report.fracaoAlertas)})`}
        />
        <Kpi
          label="Tentativas por extração"
          value={report.mediaTentativas.toLocaleString('pt-BR')}
        />
        <Kpi label="Custo estimado" value={formatUsd(report.custoTotalUsd)} />
      </div>
      <section className="card">
        <h2>Extrações e custo por dia</h2>
        <div
          className="report-chart"
          role="img"
          aria-label="Gráfico de extrações por status e custo estimado por dia"
        >
          <ResponsiveContainer width="100%" height={280}>
            <ComposedChart data={chart} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#dde1e7" />
              <XAxis dataKey="dia" fontSize={12} />
              <YAxis yAxisId="n" allowDecimals={false} fontSize={12} />
              <YAxis
                yAxisId="usd"
                orientation="right"
                fontSize={12}
                width={76}
                tickFormatter={usdTick}
              />
              <Tooltip
                separator={TOOLTIP_SEPARATOR}
                formatter={(v, name) =>
                  name === 'Custo (US$)' ? formatUsd(Number(v)) : formatInt(Number(v))
                }
              />
              <Legend />
              <Bar
                isAnimationActive={false}
                yAxisId="n"
                dataKey="Falhou"
                stackId="s"
                fill="#b42318"
              />
              <Bar
                isAnimationActive={false}
                yAxisId="n"
                dataKey="Incompleto"
                stackId="s"
                fill="#c98a00"
              />
              <Bar
                isAnimationActive={false}
                yAxisId="n"
                dataKey="Completo"
                stackId="s"
                fill="#1e7b3c"
              />
              <Line
                isAnimationActive={false}
                yAxisId="usd"
                dataKey="custo"
                name="Custo (US$)"
                stroke="#0b6bcb"
                dot={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </section>
      <section className="card">
        <h2>Regras que mais falham</h2>
        {report.regras.length ? (
          <table className="table" data-testid="report-rules">
            <thead>
              <tr>
                <th scope="col">Regra</th>
                <th scope="col" className="num">
                  Falhas
                </th>
                <th scope="col" className="num">
                  Extrações
                </th>
                <th scope="col">Exemplos</th>
              </tr>
            </thead>
            <tbody>
              {report.regras.map((x) => (
                <tr key={x.regra}>
                  <td>
                    <strong>{ruleLabel(x.regra)}</strong>
                    <div className="muted">{agentText(x)}</div>
                    {/* The rule's code, for whoever tunes the rules or the prompt. */}
                    <div className="muted report-rule-code">
                      código <code>{x.regra}</code>
                    </div>
                  </td>
                  <td className="num">{formatInt(x.falhas)}</td>
                  <td className="num">{formatInt(x.extracoes)}</td>
                  <td>
                    <ul className="report-examples">
                      {x.exemplos.map((e) => (
                        <li key={e.extracaoId}>
                          <a className="link" href={hrefFor('fila', e.extracaoId)} title={e.texto}>
                            #{e.extracaoId}
                          </a>{' '}
                          {e.texto.length > 90 ? `${e.texto.slice(0, 90)}…` : e.texto}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Nenhuma regra falhou neste período.</p>
        )}
      </section>
      <div className="report-grid">
        <section className="card">
          <h2>Tentativas por extração</h2>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Tentativas</th>
                <th scope="col" className="num">
                  Extrações
                </th>
              </tr>
            </thead>
            <tbody>
              {report.tentativas.map((t) => (
                <tr key={t.tentativas}>
                  <td>{t.tentativas}</td>
                  <td className="num">{formatInt(t.extracoes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="card">
          <h2>Tokens e custo por dia</h2>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Dia</th>
                <th scope="col" className="num">
                  Entrada
                </th>
                <th scope="col" className="num">
                  Saída
                </th>
                <th scope="col" className="num">
                  Cache (lido / gravado)
                </th>
                <th scope="col" className="num">
                  Custo
                </th>
              </tr>
            </thead>
            <tbody>
              {report.porDia
                .filter((d) => d.extracoes > 0)
                .map((d) => (
                  <tr key={d.dia}>
                    <td>{formatDateBR(d.dia)}</td>
                    <td className="num">{formatInt(d.inputTokens)}</td>
                    <td className="num">{formatInt(d.outputTokens)}</td>
                    <td className="num">
                      {formatInt(d.cacheReadTokens)} / {formatInt(d.cacheWriteTokens)}
                    </td>
                    <td className="num">{formatUsd(d.custoUsd)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  );
}

/** The extractor's warning sign: share of extractions that failed validation, vs. its threshold. */
function ValidationRate({ report }: { report: FailureReport }) {
  const alert = report.total > 0 && report.taxaFalhasValidacao > report.limiteFalhasValidacao;
  return (
    <div
      className={`card report-kpi${alert ? ' report-kpi-alerta' : ''}`}
      data-testid="taxa-falhas-validacao"
      {...(alert ? { role: 'alert' } : {})}
    >
      <div className="muted">Taxa de falhas de validação</div>
      <div className="report-kpi-value">{pct(report.taxaFalhasValidacao)}</div>
      <div className="muted">
        limite {pct(report.limiteFalhasValidacao)}
        {alert ? ' — acima do limite' : ''}
      </div>
    </div>
  );
}

function Kpi({ label, value }: { label: string; value: string }) {
  return (
    <div className="card report-kpi">
      <div className="muted">{label}</div>
      <div className="report-kpi-value">{value}</div>
    </div>
  );
}
