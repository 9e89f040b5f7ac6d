import { Bar, Line, Tooltip, YAxis } from 'recharts';
import type { FailureReport } from '@shared/contract/review';
import { formatDateBR } from '@shared/time';
import type { Period } from '../components/PeriodPicker';
import { hrefFor } from '../router';
import { useChannel } from '../useChannel';
import { formatInt, formatUsd } from '../review/labels';
import { agentText, ruleLabel } from '@shared/rule-text';
import { TOOLTIP_SEPARATOR, usdTick } from '../charts';
import '../review/review.css';
import { DayChartCard, HeadRow, Kpi, PeriodReport } from './parts';
import { usePermissions } from '../session/session';

/** The model's cost is billed in dollars: shown only to supervisors, and labelled so (#42.6). */
const CUSTO_MODELO = 'Custo do modelo (US$)';

const pct = (v: number) => `${(v * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

/** The day chart's stacked bars: each status and its color. */
const STATUS_SERIES = [
  ['Falhou', '#b42318'],
  ['Incompleto', '#c98a00'],
  ['Completo', '#1e7b3c'],
] as const;

const useFailureReport = (period: Period) => useChannel('review/failureReport', period);

/** "Falhas de validação": what the team reviews every week, over a chosen period. */
export function ReportPage() {
  return (
    <PeriodReport
      title="Relatório: falhas de validação"
      subtitle="Extrações por status, regras que mais falham, tentativas e tokens por dia."
      useReport={useFailureReport}
      isEmpty={(d) => d.total === 0}
      emptyTitle="Nenhuma extração neste período"
      emptyText={(d) => (
        <>
          Escolha outro período: de {formatDateBR(d.de)} a {formatDateBR(d.ate)} não houve pedidos
          processados.
        </>
      )}
    >
      {(data, busy) => <ReportBody report={data} busy={busy} />}
    </PeriodReport>
  );
}

function ReportBody({ report, busy }: { report: FailureReport; busy: boolean }) {
  const custos = usePermissions().can('supervisao');
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
        {custos ? <Kpi label={CUSTO_MODELO} value={formatUsd(report.custoTotalUsd)} /> : null}
      </div>
      <DayChartCard
        title={custos ? 'Extrações e custo do modelo por dia' : 'Extrações por dia'}
        label={
          custos
            ? 'Gráfico de extrações por status e custo do modelo por dia'
            : 'Gráfico de extrações por status por dia'
        }
        height={280}
        data={chart}
      >
        <YAxis yAxisId="n" allowDecimals={false} fontSize={12} />
        {custos ? (
          <YAxis
            yAxisId="usd"
            orientation="right"
            fontSize={12}
            width={76}
            tickFormatter={usdTick}
          />
        ) : null}
        <Tooltip
          separator={TOOLTIP_SEPARATOR}
          formatter={(v, name) =>
            name === CUSTO_MODELO ? formatUsd(Number(v)) : formatInt(Number(v))
          }
        />
        {STATUS_SERIES.map(([status, fill]) => (
          <Bar
            key={status}
            isAnimationActive={false}
            yAxisId="n"
            dataKey={status}
            stackId="s"
            fill={fill}
          />
        ))}
        {custos ? (
          <Line
            isAnimationActive={false}
            yAxisId="usd"
            dataKey="custo"
            name={CUSTO_MODELO}
            stroke="#0b6bcb"
            dot={false}
          />
        ) : null}
      </DayChartCard>
      <section className="card">
        <h2>Regras que mais falham</h2>
        {report.regras.length ? (
          <table className="table" data-testid="report-rules">
            <HeadRow columns={['Regra', { num: 'Falhas' }, { num: 'Extrações' }, 'Exemplos']} />
            <tbody>
              {report.regras.map((x) => (
                <tr key={x.regra}>
                  <td>
                    <strong>{ruleLabel(x.regra)}</strong>
                    <div className="muted">{agentText(x)}</div>
                  </td>
                  <td className="num">{formatInt(x.falhas)}</td>
                  <td className="num">{formatInt(x.extracoes)}</td>
                  <td>
                    <RuleExamples items={x.exemplos} />
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
            <HeadRow columns={['Tentativas', { num: 'Extrações' }]} />
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
          <h2>{custos ? 'Tokens e custo do modelo por dia' : 'Tokens por dia'}</h2>
          <table className="table">
            <HeadRow
              columns={[
                'Dia',
                { num: 'Entrada' },
                { num: 'Saída' },
                { num: 'Cache (lido / gravado)' },
                ...(custos ? [{ num: CUSTO_MODELO }] : []),
              ]}
            />
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
                    {custos ? <td className="num">{formatUsd(d.custoUsd)}</td> : null}
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  );
}

/** A failing rule's examples: each request, linked to its item in the queue, and its text. */
function RuleExamples({ items }: { items: FailureReport['regras'][number]['exemplos'] }) {
  return (
    <ul className="report-examples">
      {items.map((e) => (
        <li key={e.extracaoId}>
          <a className="link" href={hrefFor('fila', e.extracaoId)} title={e.texto}>
            #{e.extracaoId}
          </a>{' '}
          {e.texto.length > 90 ? `${e.texto.slice(0, 90)}…` : e.texto}
        </li>
      ))}
    </ul>
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
