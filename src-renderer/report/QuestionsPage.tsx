import { useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import {
  CAMPO_CHIP_LABELS,
  DESFECHO_LABELS,
  type Desfecho,
  type PerguntaRegistrada,
  type QuestionsReport,
} from '@shared/contract/questions';
import { addDays, formatDateBR } from '@shared/time';
import { useAppInfo } from '../appInfo';
import { Page } from '../components/Layout';
import { PeriodPicker, type Period } from '../components/PeriodPicker';
import { downloadText } from '../download';
import { TOOLTIP_SEPARATOR } from '../charts';
import { MAX_PERIOD_DAYS } from '@shared/periods';
import { EmptyState, ErrorState, LoadingState, type Tone } from '../components/States';
import { formatInt } from '../review/labels';
import type { CsvFormat } from '../sales/csv';
import { useChannel } from '../useChannel';
import { EvalCaseDialog } from './EvalCaseDialog';
import { questionsCsv, questionsCsvFileName } from './questions-csv';
import './questions.css';

const pct = (v: number) =>
  `${(v * 100).toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;

/** Change of a rate in percentage points, with its direction ("▲ 3,2 p.p."). */
function delta(now: number, before: number | null): string {
  if (before === null) return '—';
  const d = (now - before) * 100;
  if (Math.abs(d) < 0.05) return 'estável';
  const v = Math.abs(d).toLocaleString('pt-BR', { maximumFractionDigits: 1 });
  return `${d > 0 ? '▲' : '▼'} ${v} p.p.`;
}

const TONE: Record<Desfecho, Tone> = {
  dsl: 'ok',
  sql_livre: 'ok',
  esclarecimento: 'info',
  nao_expressavel: 'warn',
  sql_recusado: 'warn',
  erro_modelo: 'danger',
  erro: 'danger',
};

const when = (iso: string, zone: string) =>
  new Date(iso).toLocaleString('pt-BR', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' });

/** "Perguntas": what the sales questions' log says the DSL and the prompt still miss. */
export function QuestionsPage() {
  const info = useAppInfo();
  const today = info.data?.today;
  if (!today) {
    return (
      <Page title="Relatório: perguntas de vendas">
        <LoadingState />
      </Page>
    );
  }
  return <Questions today={today} />;
}

function Questions({ today }: { today: string }) {
  const [period, setPeriod] = useState<Period>({ de: addDays(today, -29), ate: today });
  const [caso, setCaso] = useState<number | null>(null);
  const r = useChannel('sales/questionsReport', period);
  return (
    <Page
      title="Relatório: perguntas de vendas"
      subtitle="Como as perguntas terminaram, o que ficou sem resposta e que chips as pessoas corrigem depois de uma resposta."
    >
      <div className="toolbar">
        <PeriodPicker today={today} value={period} maxDays={MAX_PERIOD_DAYS} onChange={setPeriod} />
        {r.data ? <CsvExport report={r.data} /> : null}
      </div>
      {r.status === 'error' ? (
        <ErrorState error={r.error} onRetry={r.reload} />
      ) : !r.data ? (
        <LoadingState label="Calculando o relatório…" />
      ) : r.data.total === 0 && r.data.totalEdicoes === 0 ? (
        <EmptyState title="Nenhuma pergunta neste período">
          De {formatDateBR(r.data.de)} a {formatDateBR(r.data.ate)} ninguém perguntou sobre vendas.
          Escolha outro período.
        </EmptyState>
      ) : (
        <QuestionsBody report={r.data} busy={r.status === 'loading'} onCase={setCaso} />
      )}
      {caso !== null ? <EvalCaseDialog key={caso} id={caso} onClose={() => setCaso(null)} /> : null}
    </Page>
  );
}

function CsvExport({ report }: { report: QuestionsReport }) {
  const [format, setFormat] = useState<CsvFormat>('pt-BR');
  const download = () => {
    downloadText(questionsCsvFileName(report), questionsCsv(report, format));
  };
  return (
    <div className="sales-csv">
      <button type="button" className="btn" onClick={download} data-testid="questions-csv">
        Exportar CSV
      </button>
      <label className="sales-check">
        <input
          type="checkbox"
          checked={format === 'pt-BR'}
          onChange={(e) => setFormat(e.target.checked ? 'pt-BR' : 'padrao')}
        />
        formato brasileiro
      </label>
    </div>
  );
}

function QuestionsBody({
  report,
  busy,
  onCase,
}: {
  report: QuestionsReport;
  busy: boolean;
  onCase: (id: number) => void;
}) {
  const semResposta = report.total - Math.round(report.fracaoRespondidas * report.total);
  const chart = report.porDia.map((d) => ({
    dia: formatDateBR(d.dia).slice(0, 5),
    Respondidas: d.respondidas,
    'Sem resposta': d.total - d.respondidas,
  }));
  const { sqlLivre: s } = report;
  return (
    <div className="report questions" aria-busy={busy} data-testid="questions-report">
      <div className="report-kpis">
        <Kpi
          label="Perguntas"
          value={formatInt(report.total)}
          hint={`período anterior: ${formatInt(report.totalAnterior)}`}
        />
        <Kpi label="Respondidas" value={pct(report.fracaoRespondidas)} />
        <Kpi label="Sem resposta" value={formatInt(semResposta)} />
        <Kpi label="Chips corrigidos depois da resposta" value={formatInt(report.totalEdicoes)} />
        <Kpi
          label="SQL livre do modelo"
          value={`${formatInt(s.aceitas)} aceito(s)`}
          hint={`${formatInt(s.recusadas)} recusado(s), ${formatInt(s.falharam)} com falha`}
        />
      </div>
      <div className="report-grid">
        <section className="card">
          <h2>Desfechos</h2>
          <table className="table" data-testid="questions-outcomes">
            <thead>
              <tr>
                <th scope="col">Desfecho</th>
                <th scope="col" className="num">
                  Perguntas
                </th>
                <th scope="col" className="num">
                  %
                </th>
                <th scope="col" className="num">
                  vs. anterior
                </th>
              </tr>
            </thead>
            <tbody>
              {report.desfechos.map((d) => (
                <tr key={d.desfecho}>
                  <td>
                    <Outcome d={d.desfecho} />
                  </td>
                  <td className="num">{formatInt(d.quantidade)}</td>
                  <td className="num">{pct(d.fracao)}</td>
                  <td className="num">{delta(d.fracao, d.fracaoAnterior)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="card">
          <h2>Perguntas por dia</h2>
          <div
            className="report-chart"
            role="img"
            aria-label="Gráfico de perguntas respondidas e sem resposta por dia"
          >
            <ResponsiveContainer width="100%" height={240}>
              <BarChart data={chart} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="#dde1e7" />
                <XAxis dataKey="dia" fontSize={12} minTickGap={12} />
                <YAxis allowDecimals={false} fontSize={12} width={36} />
                <Tooltip formatter={(v) => formatInt(Number(v))} separator={TOOLTIP_SEPARATOR} />
                <Legend />
                <Bar isAnimationActive={false} dataKey="Respondidas" stackId="p" fill="#1e7b3c" />
                <Bar isAnimationActive={false} dataKey="Sem resposta" stackId="p" fill="#c98a00" />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </section>
      </div>
      <section className="card">
        <h2>Perguntas sem resposta mais frequentes</h2>
        {report.naoRespondidas.length ? (
          <table className="table" data-testid="questions-unanswered">
            <thead>
              <tr>
                <th scope="col">Pergunta (texto normalizado) e exemplos</th>
                <th scope="col" className="num">
                  Vezes
                </th>
                <th scope="col" className="num">
                  Lojistas
                </th>
                <th scope="col">Última vez</th>
                <th scope="col">Desfecho mais comum</th>
              </tr>
            </thead>
            <tbody>
              {report.naoRespondidas.map((g) => (
                <tr key={g.chave}>
                  <td>
                    <div className="questions-key">{g.chave}</div>
                    <Examples items={g.exemplos} onCase={onCase} />
                  </td>
                  <td className="num">{formatInt(g.quantidade)}</td>
                  <td className="num">{formatInt(g.lojistas)}</td>
                  <td className="nowrap">{when(g.ultimaVez, report.timeZone)}</td>
                  <td>
                    <Outcome d={g.desfecho} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Todas as perguntas do período foram respondidas.</p>
        )}
      </section>
      <section className="card">
        <h2>Chips corrigidos depois de uma resposta</h2>
        <p className="muted">
          Quando alguém muda um chip logo depois da resposta, a interpretação do modelo
          provavelmente não era a esperada.
        </p>
        {report.edicoes.length ? (
          <table className="table" data-testid="questions-edits">
            <thead>
              <tr>
                <th scope="col">Chip</th>
                <th scope="col" className="num">
                  Correções
                </th>
                <th scope="col">Mudanças mais comuns (antes → depois)</th>
              </tr>
            </thead>
            <tbody>
              {report.edicoes.map((e) => (
                <tr key={e.campo}>
                  <td>{CAMPO_CHIP_LABELS[e.campo]}</td>
                  <td className="num">{formatInt(e.quantidade)}</td>
                  <td>
                    <ul className="report-examples">
                      {e.mudancas.map((m) => (
                        <li key={`${m.antes}→${m.depois}`}>
                          {m.antes} → {m.depois}{' '}
                          <span className="muted">({formatInt(m.quantidade)})</span>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Ninguém corrigiu chips depois de uma resposta neste período.</p>
        )}
      </section>
      <section className="card">
        <h2>Últimas perguntas</h2>
        <p className="muted">
          Escolha uma pergunta para virar caso de avaliação: confirme ou corrija o que ela deve
          produzir.
        </p>
        <table className="table" data-testid="questions-recent">
          <thead>
            <tr>
              <th scope="col">Pergunta</th>
              <th scope="col">Lojista</th>
              <th scope="col">Quando</th>
              <th scope="col">Desfecho</th>
              <th scope="col">
                <span className="visually-hidden">Ações</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {report.recentes.map((q) => (
              <tr key={q.id}>
                <td>{q.pergunta}</td>
                <td className="num">#{q.merchantId}</td>
                <td className="nowrap">{when(q.criadaEm, report.timeZone)}</td>
                <td>
                  <Outcome d={q.desfecho} />
                </td>
                <td>
                  <button type="button" className="btn btn-ghost" onClick={() => onCase(q.id)}>
                    Criar caso de avaliação
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function Examples({
  items,
  onCase,
}: {
  items: PerguntaRegistrada[];
  onCase: (id: number) => void;
}) {
  return (
    <ul className="report-examples">
      {items.map((e) => (
        <li key={e.id}>
          <q>{e.pergunta}</q>{' '}
          <span className="muted">
            (lojista #{e.merchantId}, {formatDateBR(e.dia)})
          </span>{' '}
          <button
            type="button"
            className="link"
            onClick={() => onCase(e.id)}
            aria-label={`Criar caso de avaliação com "${e.pergunta}"`}
          >
            criar caso
          </button>
        </li>
      ))}
    </ul>
  );
}

/** An outcome as a colored dot and its label (wraps inside narrow cells, never overlaps). */
function Outcome({ d }: { d: Desfecho }) {
  return (
    <span className={`questions-outcome questions-outcome-${TONE[d]}`}>{DESFECHO_LABELS[d]}</span>
  );
}

function Kpi({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="card report-kpi">
      <div className="muted">{label}</div>
      <div className="report-kpi-value">{value}</div>
      {hint ? <div className="muted">{hint}</div> : null}
    </div>
  );
}
