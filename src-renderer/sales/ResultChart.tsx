import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { SalesAnswer } from '@shared/contract/sales';
import { formatDateBR } from '@shared/time';
import {
  AGRUPAMENTO_LABELS,
  METRICA_LABELS,
  capitalize,
  formatGrupo,
  formatValor,
} from '@shared/sales-format';
import { TOOLTIP_SEPARATOR, countTick, evenTicks, moneyTick } from '../charts';
import { monthTick } from '../format';
import { bestGroupIndex, chartKindFor, chartOrder } from './chart-kind';

const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2'];
const BEST = '#15803d';
const BAR = '#2563eb';

/** Short axis label for a group (the table has the long one). */
function shortLabel(g: SalesAnswer['consulta']['agrupar_por'], grupo: string | null): string {
  if (g === 'dia' && grupo) return formatDateBR(grupo).slice(0, 5);
  if (g === 'dia_da_semana') return formatGrupo(g, grupo).slice(0, 3);
  if (g === 'hora') return `${Number(grupo)}h`;
  if (g === 'mes' && grupo) return monthTick(grupo);
  return formatGrupo(g, grupo);
}

/** The chart that fits the grouping: bars over time-like groups, share for modality/brand. */
export function ResultChart({ answer }: { answer: SalesAnswer }) {
  const { agrupar_por: g, metrica } = answer.consulta;
  const kind = chartKindFor(g, metrica, answer.linhas);
  if (kind.tipo === 'nenhum') return null;
  const best = answer.linhas[bestGroupIndex(g, answer.linhas) ?? -1];
  const money = metrica !== 'quantidade';
  // Hours of the day: all 24 on the axis (an hour without sales is a bar of zero, not a gap).
  const rows =
    g === 'hora'
      ? Array.from(
          { length: 24 },
          (_, h) =>
            answer.linhas.find((l) => Number(l.grupo) === h) ?? { grupo: String(h), valor: null },
        )
      : chartOrder(g, answer.linhas);
  const data = rows.map((l) => ({
    nome: shortLabel(g, l.grupo),
    rotulo: formatGrupo(g, l.grupo),
    valor: l.valor ?? 0,
    vazio: l.valor === null,
    melhor: l === best,
  }));
  const title = `${METRICA_LABELS[metrica]} por ${AGRUPAMENTO_LABELS[g]}`;
  const tooltip = (v: unknown) => formatValor(metrica, typeof v === 'number' ? v : null);
  const name = capitalize(METRICA_LABELS[metrica]);
  const ticks = evenTicks(Math.max(0, ...data.map((d) => d.valor)), { money });

  return (
    <figure
      className="sales-chart"
      data-testid="result-chart"
      data-chart-kind={kind.tipo}
      aria-label={`Gráfico: ${title}`}
    >
      <figcaption className="sales-chart__title">{title}</figcaption>
      <ResponsiveContainer width="100%" height={260}>
        {kind.tipo === 'participacao' ? (
          <PieChart>
            <Pie
              data={data}
              dataKey="valor"
              nameKey="rotulo"
              innerRadius={55}
              outerRadius={95}
              isAnimationActive={false}
              label={(p: { percent?: number }) =>
                p.percent !== undefined ? `${(p.percent * 100).toFixed(1).replace('.', ',')}%` : ''
              }
            >
              {data.map((d, i) => (
                <Cell key={d.rotulo} fill={COLORS[i % COLORS.length]} />
              ))}
            </Pie>
            <Tooltip formatter={tooltip} separator={TOOLTIP_SEPARATOR} />
            <Legend />
          </PieChart>
        ) : (
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="nome"
              // Every hour and weekday has its label; long day ranges thin out evenly.
              interval={g === 'hora' || g === 'dia_da_semana' ? 0 : 'equidistantPreserveStart'}
              tick={{ fontSize: 12 }}
            />
            <YAxis
              width={88}
              tick={{ fontSize: 12 }}
              ticks={ticks}
              domain={[0, ticks[ticks.length - 1] ?? 'auto']}
              tickFormatter={(v: number) => (money ? moneyTick(v) : countTick(v))}
            />
            <Tooltip
              formatter={tooltip}
              separator={TOOLTIP_SEPARATOR}
              labelFormatter={(_l, payload) => {
                const first = payload?.[0]?.payload as { rotulo?: string } | undefined;
                return first?.rotulo ?? '';
              }}
            />
            <Bar dataKey="valor" name={name} isAnimationActive={false}>
              {data.map((d) => (
                <Cell key={d.rotulo} fill={d.melhor ? BEST : BAR} />
              ))}
            </Bar>
          </BarChart>
        )}
      </ResponsiveContainer>
    </figure>
  );
}
