import { useState } from 'react';
import { Bar, Tooltip, YAxis } from 'recharts';
import {
  CAMPO_CHIP_LABELS,
  desfechoLabel,
  type Desfecho,
  type PerguntaRegistrada,
  type QuestionsReport,
} from '@shared/contract/questions';
import { formatDateBR } from '@shared/time';
import type { Period } from '../components/PeriodPicker';
import { CsvExport } from '../components/CsvExport';
import { TOOLTIP_SEPARATOR } from '../charts';
import { MAX_PERIOD_DAYS } from '@shared/periods';
import type { Tone } from '../components/States';
import { formatInt } from '../review/labels';
import { contagem } from '@shared/plural';
import { useChannel } from '../useChannel';
import { EvalCaseDialog } from './EvalCaseDialog';
import { questionsCsv, questionsCsvFileName } from './questions-csv';
import { DayChartCard, HeadRow, Kpi, PeriodReport } from './parts';
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

const useQuestionsReport = (period: Period) => useChannel('sales/questionsReport', period);

/** "Perguntas": what the sales questions' log says the DSL and the prompt still miss. */
export function QuestionsPage() {
  const [caso, setCaso] = useState<number | null>(null);
  return (
    <PeriodReport
      title="Relatório: perguntas de vendas"
      subtitle="Como as perguntas terminaram, o que ficou sem resposta e que chips as pessoas corrigem depois de uma resposta."
      maxDays={MAX_PERIOD_DAYS}
      useReport={useQuestionsReport}
      tools={(report) => <QuestionsCsv report={report} />}
      isEmpty={(d) => d.total === 0 && d.totalEdicoes === 0}
      emptyTitle="Nenhuma pergunta neste período"
      emptyText={(d) => (
        <>
          De {formatDateBR(d.de)} a {formatDateBR(d.ate)} ninguém perguntou sobre vendas. Escolha
          outro período.
        </>
      )}
      after={
        caso !== null ? <EvalCaseDialog key={caso} id={caso} onClose={() => setCaso(null)} /> : null
      }
    >
      {(data, busy) => <QuestionsBody report={data} busy={busy} onCase={setCaso} />}
    </PeriodReport>
  );
}

function QuestionsCsv({ report }: { report: QuestionsReport }) {
  return (
    <CsvExport
      testId="questions-csv"
      formatLabel="formato brasileiro"
      csv={(format) => ({
        fileName: questionsCsvFileName(report),
        text: questionsCsv(report, format),
      })}
    />
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
          value={contagem(s.aceitas, 'aceito', 'aceitos')}
          hint={`${contagem(s.recusadas, 'recusado', 'recusados')}, ${formatInt(s.falharam)} com falha`}
        />
      </div>
      <div className="report-grid">
        <section className="card">
          <h2>Desfechos</h2>
          <table className="table" data-testid="questions-outcomes">
            <HeadRow
              columns={['Desfecho', { num: 'Perguntas' }, { num: '%' }, { num: 'vs. anterior' }]}
            />
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
        <DayChartCard
          title="Perguntas por dia"
          label="Gráfico de perguntas respondidas e sem resposta por dia"
          height={240}
          data={chart}
        >
          <YAxis allowDecimals={false} fontSize={12} width={36} />
          <Tooltip formatter={(v) => formatInt(Number(v))} separator={TOOLTIP_SEPARATOR} />
          <Bar isAnimationActive={false} dataKey="Respondidas" stackId="p" fill="#1e7b3c" />
          <Bar isAnimationActive={false} dataKey="Sem resposta" stackId="p" fill="#c98a00" />
        </DayChartCard>
      </div>
      <section className="card">
        <h2>Perguntas sem resposta mais frequentes</h2>
        {report.naoRespondidas.length ? (
          <table className="table" data-testid="questions-unanswered">
            <HeadRow
              columns={[
                'Pergunta (texto normalizado) e exemplos',
                { num: 'Vezes' },
                { num: 'Lojistas' },
                'Última vez',
                'Desfecho mais comum',
              ]}
            />
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
            <HeadRow
              columns={['Chip', { num: 'Correções' }, 'Mudanças mais comuns (antes → depois)']}
            />
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
                <td>{q.merchantNome}</td>
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
            ({e.merchantNome}, {formatDateBR(e.dia)})
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
    <span className={`questions-outcome questions-outcome-${TONE[d]}`}>{desfechoLabel(d)}</span>
  );
}
