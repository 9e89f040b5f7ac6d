import { DateField } from '../components/DateField';
import { useState, type ReactNode } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { PERIODOS, periodoLabel, resolvePeriod } from '@shared/periods';
import { AGRUPAMENTOS, METRICAS, MODALIDADES, type Modalidade } from '@shared/sales-dsl';
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

/** The chips that pick one value of a DSL enumeration: their name, test id, values and labels. */
const METRICA_CHIP = {
  name: 'Métrica',
  testId: 'chip-metrica',
  options: METRICAS,
  labels: METRICA_LABELS,
};
const AGRUPAR_CHIP = {
  name: 'Agrupar por',
  testId: 'chip-agrupar',
  options: AGRUPAMENTOS,
  labels: AGRUPAMENTO_LABELS,
};

/**
 * The interpretation as editable chips: period (presets and a date range), metric, modalities,
 * grouping, and the ranking when there is one. Every change re-runs the query without the model.
 */
export function QueryChips({ draft, hoje, disabled, onChange }: Props) {
  const mods = draft.modalidades ?? [];
  const modsText = mods.length === 0 ? 'todas' : mods.map((m) => MODALIDADE_LABELS[m]).join(', ');

  return (
    <div
      className="sales-chips"
      role="group"
      aria-label="Interpretação editável"
      data-testid="chips"
    >
      <PeriodChip draft={draft} hoje={hoje} disabled={disabled} onChange={onChange} />
      <SelectChip
        {...METRICA_CHIP}
        value={draft.metrica ?? 'total_bruto'}
        disabled={disabled}
        onChange={(m) => onChange(withMetrica(draft, m))}
      />
      <ModalitiesChip
        label={modsText}
        selected={mods}
        disabled={disabled}
        onChange={(m) => onChange(withModalidades(draft, m))}
      />
      <SelectChip
        {...AGRUPAR_CHIP}
        value={draft.agrupar_por ?? 'nenhum'}
        disabled={disabled}
        onChange={(g) => onChange(withAgrupamento(draft, g))}
      />
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

/** The period chip's text: the preset and its dates, or the range ("01/03/2025 a 31/03/2025"). */
function periodText(d: Draft, range: { data_inicio: string; data_fim: string } | null): string {
  const dates = range ? formatPeriodo(range).replace(/^(de|em) /, '') : null;
  if (d.periodo) return `${periodoLabel(d.periodo)}${dates ? ` (${dates})` : ''}`;
  return dates ?? 'escolha o período';
}

function PeriodChip({
  draft,
  hoje,
  disabled,
  onChange,
}: {
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
    <PopoverChip
      name="Período"
      label={periodText(draft, current)}
      testId="chip-periodo"
      contentLabel="Escolher o período"
      disabled={disabled}
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
            {periodoLabel(p)}
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
            <DateField value={fim} ownMessages={false} data-testid="range-fim" onChange={setFim} />
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
    </PopoverChip>
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
    <PopoverChip
      name="Modalidades"
      label={label}
      testId="chip-modalidades"
      contentLabel="Escolher as modalidades"
      disabled={disabled}
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
    </PopoverChip>
  );
}

/** A chip that opens a popover (period, modalities); controlled when `open` is given. */
function PopoverChip(props: {
  name: string;
  label: string;
  testId: string;
  /** The popover's accessible name. */
  contentLabel: string;
  disabled: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Popover.Root
      {...(props.open === undefined ? {} : { open: props.open })}
      {...(props.onOpenChange ? { onOpenChange: props.onOpenChange } : {})}
    >
      <Popover.Trigger asChild>
        <button
          type="button"
          className="sales-chip"
          disabled={props.disabled}
          data-testid={props.testId}
        >
          <span className="sales-chip__name">{props.name}</span>
          {props.label}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="sales-popover"
          sideOffset={6}
          align="start"
          aria-label={props.contentLabel}
        >
          {props.children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** A chip that is a select over one of the DSL's enumerations. */
function SelectChip<T extends string>(props: {
  name: string;
  testId: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  disabled: boolean;
  onChange: (v: T) => void;
}) {
  return (
    <label className="sales-chip">
      <span className="sales-chip__name">{props.name}</span>
      <select
        value={props.value}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.value as T)}
      >
        {props.options.map((o) => (
          <option key={o} value={o}>
            {props.labels[o]}
          </option>
        ))}
      </select>
    </label>
  );
}
