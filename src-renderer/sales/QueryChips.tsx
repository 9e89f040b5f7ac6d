import { DateField } from '../components/DateField';
import { useState } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { PERIODOS, PERIODO_LABELS, resolvePeriod } from '@shared/periods';
import {
  AGRUPAMENTOS,
  METRICAS,
  MODALIDADES,
  type Agrupamento,
  type Metrica,
  type Modalidade,
} from '@shared/sales-dsl';
import {
  AGRUPAMENTO_LABELS,
  METRICA_LABELS,
  MODALIDADE_LABELS,
  formatPeriodo,
} from '@shared/sales-format';
import {
  rangeProblem,
  withAgrupamento,
  withMetrica,
  withModalidades,
  withPeriodo,
  withRange,
  withoutRanking,
  type Draft,
} from './draft';

interface Props {
  draft: Draft;
  /** Today's local date (presets are shown resolved against it). */
  hoje: string;
  disabled: boolean;
  onChange: (d: Draft) => void;
}

function resolvedRange(d: Draft, hoje: string): { data_inicio: string; data_fim: string } | null {
  if (d.periodo) return resolvePeriod(d.periodo, hoje);
  if (d.data_inicio && d.data_fim) return { data_inicio: d.data_inicio, data_fim: d.data_fim };
  return null;
}

/**
 * The interpretation as editable chips: period (presets and a date range), metric, modalities,
 * grouping, and the ranking when there is one. Every change re-runs the query without the model.
 */
export function QueryChips({ draft, hoje, disabled, onChange }: Props) {
  const range = resolvedRange(draft, hoje);
  const periodText = draft.periodo
    ? `${PERIODO_LABELS[draft.periodo]}${range ? ` (${formatPeriodo(range).replace(/^(de|em) /, '')})` : ''}`
    : range
      ? formatPeriodo(range).replace(/^(de|em) /, '')
      : 'escolha o período';
  const mods = draft.modalidades ?? [];
  const modsText = mods.length === 0 ? 'todas' : mods.map((m) => MODALIDADE_LABELS[m]).join(', ');

  return (
    <div
      className="sales-chips"
      role="group"
      aria-label="Interpretação editável"
      data-testid="chips"
    >
      <PeriodChip
        label={periodText}
        draft={draft}
        hoje={hoje}
        disabled={disabled}
        onChange={onChange}
      />
      <label className="sales-chip">
        <span className="sales-chip__name">Métrica</span>
        <select
          value={draft.metrica ?? 'total_bruto'}
          disabled={disabled}
          data-testid="chip-metrica"
          onChange={(e) => onChange(withMetrica(draft, e.target.value as Metrica))}
        >
          {METRICAS.map((m) => (
            <option key={m} value={m}>
              {METRICA_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
      <ModalitiesChip
        label={modsText}
        selected={mods}
        disabled={disabled}
        onChange={(m) => onChange(withModalidades(draft, m))}
      />
      <label className="sales-chip">
        <span className="sales-chip__name">Agrupar por</span>
        <select
          value={draft.agrupar_por ?? 'nenhum'}
          disabled={disabled}
          data-testid="chip-agrupar"
          onChange={(e) => onChange(withAgrupamento(draft, e.target.value as Agrupamento))}
        >
          {AGRUPAMENTOS.map((g) => (
            <option key={g} value={g}>
              {AGRUPAMENTO_LABELS[g]}
            </option>
          ))}
        </select>
      </label>
      {(draft.ordem || draft.limite) && (
        <span className="sales-chip" data-testid="chip-ranking">
          <span className="sales-chip__name">Ordem</span>
          {rankingText(draft)}
          <button
            type="button"
            className="sales-chip__remove"
            aria-label="Remover ordenação e limite"
            disabled={disabled}
            onClick={() => onChange(withoutRanking(draft))}
          >
            ×
          </button>
        </span>
      )}
    </div>
  );
}

function rankingText(d: Draft): string {
  const maior = d.ordem !== 'crescente';
  if (d.limite === 1) return maior ? 'só o maior' : 'só o menor';
  if (d.limite) return `os ${d.limite} ${maior ? 'maiores' : 'menores'}`;
  return maior ? 'do maior para o menor' : 'do menor para o maior';
}

function PeriodChip({
  label,
  draft,
  hoje,
  disabled,
  onChange,
}: {
  label: string;
  draft: Draft;
  hoje: string;
  disabled: boolean;
  onChange: (d: Draft) => void;
}) {
  const [open, setOpen] = useState(false);
  const current = resolvedRange(draft, hoje);
  const [inicio, setInicio] = useState(current?.data_inicio ?? hoje);
  const [fim, setFim] = useState(current?.data_fim ?? hoje);
  const [touched, setTouched] = useState(false);
  const problem = rangeProblem(inicio, fim);

  return (
    <Popover.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setInicio(current?.data_inicio ?? hoje);
          setFim(current?.data_fim ?? hoje);
          setTouched(false);
        }
      }}
    >
      <Popover.Trigger asChild>
        <button type="button" className="sales-chip" disabled={disabled} data-testid="chip-periodo">
          <span className="sales-chip__name">Período</span>
          {label}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="sales-popover"
          sideOffset={6}
          align="start"
          aria-label="Escolher o período"
        >
          <fieldset className="sales-presets">
            <legend>Períodos prontos</legend>
            {PERIODOS.map((p) => (
              <button
                key={p}
                type="button"
                className={draft.periodo === p ? 'sales-preset is-selected' : 'sales-preset'}
                aria-pressed={draft.periodo === p}
                data-testid={`preset-${p}`}
                onClick={() => {
                  setOpen(false);
                  onChange(withPeriodo(draft, p));
                }}
              >
                {PERIODO_LABELS[p]}
              </button>
            ))}
          </fieldset>
          <form
            className="sales-range"
            onSubmit={(e) => {
              e.preventDefault();
              setTouched(true);
              if (problem) return;
              setOpen(false);
              onChange(withRange(draft, inicio, fim));
            }}
          >
            <fieldset>
              <legend>Intervalo de datas</legend>
              <label>
                De
                <DateField
                  value={inicio}
                  max={hoje}
                  ownMessages={false}
                  data-testid="range-inicio"
                  onChange={setInicio}
                />
              </label>
              <label>
                até
                <DateField
                  value={fim}
                  ownMessages={false}
                  data-testid="range-fim"
                  onChange={setFim}
                />
              </label>
              <button type="submit" className="btn btn-primary" data-testid="range-apply">
                Aplicar
              </button>
            </fieldset>
            {touched && problem && (
              <p role="alert" className="sales-error-inline">
                {problem}
              </p>
            )}
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function ModalitiesChip({
  label,
  selected,
  disabled,
  onChange,
}: {
  label: string;
  selected: readonly Modalidade[];
  disabled: boolean;
  onChange: (m: Modalidade[]) => void;
}) {
  const all = selected.length === 0;
  const isOn = (m: Modalidade) => all || selected.includes(m);
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="sales-chip"
          disabled={disabled}
          data-testid="chip-modalidades"
        >
          <span className="sales-chip__name">Modalidades</span>
          {label}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="sales-popover"
          sideOffset={6}
          align="start"
          aria-label="Escolher as modalidades"
        >
          <fieldset className="sales-checks">
            <legend>Modalidades consideradas</legend>
            {MODALIDADES.map((m) => (
              <label key={m}>
                <input
                  type="checkbox"
                  checked={isOn(m)}
                  data-testid={`mod-${m}`}
                  onChange={(e) => {
                    const base = all ? [...MODALIDADES] : [...selected];
                    const next = e.target.checked ? [...base, m] : base.filter((x) => x !== m);
                    // Unchecking the last one means "all" again: never an empty filter.
                    onChange(next);
                  }}
                />
                {MODALIDADE_LABELS[m]}
              </label>
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
