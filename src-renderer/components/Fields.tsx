import type { ReactNode } from 'react';

/** A toolbar control with its short label beside it ("Lojista [ … ]"). */
export function InlineField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="field-inline">
      <span>{label}</span>
      {children}
    </label>
  );
}

export interface FilterOption<V extends string | number> {
  value: V;
  label: string;
}

/**
 * A toolbar filter: a select of `options`, led by `all` (no filter, `null`) when given. The value
 * comes back as the option's own (a number stays a number), never as the select's text.
 */
export function FilterSelect<V extends string | number>({
  label,
  all,
  options,
  value,
  onChange,
}: {
  label: string;
  all?: string;
  options: readonly FilterOption<V>[];
  value: V | null;
  onChange: (value: V | null) => void;
}) {
  return (
    <InlineField label={label}>
      <select
        value={value ?? ''}
        onChange={(e) =>
          onChange(options.find((o) => String(o.value) === e.target.value)?.value ?? null)
        }
      >
        {all !== undefined ? <option value="">{all}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </InlineField>
  );
}
