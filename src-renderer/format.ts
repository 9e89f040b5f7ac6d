const cache = new Map<string, Intl.DateTimeFormat>();

/** "30/11/2026 14:05" for an ISO instant, in the business time zone. */
export function formatDateTime(iso: string, timeZone: string): string {
  let f = cache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone });
    cache.set(timeZone, f);
  }
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : f.format(d);
}

const MONTHS_SHORT = [
  'jan',
  'fev',
  'mar',
  'abr',
  'mai',
  'jun',
  'jul',
  'ago',
  'set',
  'out',
  'nov',
  'dez',
];

/** "2026-01" → "jan/2026" (chart labels; CSVs keep the sortable code). */
export function monthTick(yyyyMm: string): string {
  const [y, m] = yyyyMm.split('-');
  const name = MONTHS_SHORT[Number(m) - 1];
  return name && y ? `${name}/${y}` : yyyyMm;
}
