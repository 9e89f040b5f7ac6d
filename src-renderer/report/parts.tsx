import { useState, type ReactNode } from 'react';
import { CartesianGrid, ComposedChart, Legend, ResponsiveContainer, XAxis } from 'recharts';
import { addDays } from '@shared/time';
import { useAppInfo } from '../appInfo';
import { Page } from '../components/Layout';
import { PeriodPicker, type Period } from '../components/PeriodPicker';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import type { ChannelState } from '../useChannel';

type Loaded<T> = ChannelState<T> & { reload: () => void };

/** Every report's default period (#42.9): the last 30 days up to today, in both tabs. */
export const REPORT_DEFAULT_DAYS = 30;

/** The period last chosen in any report: switching tabs keeps it (until the day changes). */
let remembered: { today: string; period: Period } | null = null;

export interface PeriodReportProps<T> {
  title: string;
  subtitle: string;
  maxDays?: number;
  /** Loads the report of a period (a `useChannel` call). */
  useReport: (period: Period) => Loaded<T>;
  /** Beside the period picker once the report is in (an export). */
  tools?: (data: T) => ReactNode;
  isEmpty: (data: T) => boolean;
  emptyTitle: string;
  emptyText: (data: T) => ReactNode;
  children: (data: T, busy: boolean) => ReactNode;
  /** After the report (a dialog it opens). */
  after?: ReactNode;
}

/**
 * A report over a chosen period: waits for today's date (the default period ends there), then
 * the period picker and the report's states — the error with a retry, loading, nothing in the
 * period, the body.
 */
export function PeriodReport<T>(props: PeriodReportProps<T>) {
  const info = useAppInfo();
  const today = info.data?.today;
  if (!today) {
    return (
      <Page title={props.title}>
        <LoadingState />
      </Page>
    );
  }
  return <PeriodReportOf today={today} {...props} />;
}

function PeriodReportOf<T>({ today, ...p }: PeriodReportProps<T> & { today: string }) {
  const [period, setPeriodState] = useState<Period>(() =>
    remembered?.today === today
      ? remembered.period
      : { de: addDays(today, 1 - REPORT_DEFAULT_DAYS), ate: today },
  );
  const setPeriod = (next: Period) => {
    remembered = { today, period: next };
    setPeriodState(next);
  };
  const r = p.useReport(period);
  return (
    <Page title={p.title} subtitle={p.subtitle}>
      <div className="toolbar">
        <PeriodPicker
          today={today}
          value={period}
          onChange={setPeriod}
          {...(p.maxDays === undefined ? {} : { maxDays: p.maxDays })}
        />
        {r.data && p.tools ? p.tools(r.data) : null}
      </div>
      {r.status === 'error' ? (
        <ErrorState error={r.error} onRetry={r.reload} />
      ) : !r.data ? (
        <LoadingState label="Calculando o relatório…" />
      ) : p.isEmpty(r.data) ? (
        <EmptyState title={p.emptyTitle}>{p.emptyText(r.data)}</EmptyState>
      ) : (
        p.children(r.data, r.status === 'loading')
      )}
      {p.after}
    </Page>
  );
}

/** One figure of a report's header row. */
export function Kpi({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="card report-kpi">
      <div className="muted">{label}</div>
      <div className="report-kpi-value">{value}</div>
      {hint ? <div className="muted">{hint}</div> : null}
    </div>
  );
}

/** A column of a report table's head: its title, right-aligned (`num`) for numbers. */
export type Column = string | { num: string };

/** A report table's head row. */
export function HeadRow({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <th key={c} scope="col">
              {c}
            </th>
          ) : (
            <th key={c.num} scope="col" className="num">
              {c.num}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/**
 * A report's chart by day in its card: the title, an accessible name and, at full width, a chart
 * of `data` with the reports' grid, day axis (`dia`) and legend. `children` are its value axes,
 * tooltip and series.
 */
export function DayChartCard({
  title,
  label,
  height,
  data,
  children,
}: {
  title: string;
  /** What the chart shows, for screen readers. */
  label: string;
  height: number;
  data: readonly ({ dia: string } & Record<string, number | string>)[];
  children: ReactNode;
}) {
  return (
    <section className="card">
      <h2>{title}</h2>
      <div className="report-chart" role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height={height}>
          <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#dde1e7" />
            <XAxis dataKey="dia" fontSize={12} minTickGap={12} />
            {children}
            <Legend />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}
