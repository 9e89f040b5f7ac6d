/**
 * Lists people pick from in Configurações instead of typing identifiers: Brazil's time zones
 * (IANA names kept as values, shown by the places they cover) and the Claude models the app
 * is tested with ("outro" keeps free text for a newer one).
 */
export interface Choice {
  value: string;
  label: string;
}

export const BRAZIL_TIME_ZONES: readonly Choice[] = [
  { value: 'America/Sao_Paulo', label: 'Brasília (SP, RJ, MG, ES, PR, SC, RS, GO, DF) — UTC−3' },
  { value: 'America/Bahia', label: 'Bahia — UTC−3' },
  { value: 'America/Fortaleza', label: 'Fortaleza (CE, RN, PB, PI, MA) — UTC−3' },
  { value: 'America/Recife', label: 'Recife (PE) — UTC−3' },
  { value: 'America/Maceio', label: 'Maceió (AL, SE) — UTC−3' },
  { value: 'America/Belem', label: 'Belém (PA leste, AP) — UTC−3' },
  { value: 'America/Santarem', label: 'Santarém (PA oeste) — UTC−3' },
  { value: 'America/Araguaina', label: 'Araguaína (TO) — UTC−3' },
  { value: 'America/Noronha', label: 'Fernando de Noronha — UTC−2' },
  { value: 'America/Manaus', label: 'Manaus (AM leste) — UTC−4' },
  { value: 'America/Cuiaba', label: 'Cuiabá (MT) — UTC−4' },
  { value: 'America/Campo_Grande', label: 'Campo Grande (MS) — UTC−4' },
  { value: 'America/Porto_Velho', label: 'Porto Velho (RO) — UTC−4' },
  { value: 'America/Boa_Vista', label: 'Boa Vista (RR) — UTC−4' },
  { value: 'America/Rio_Branco', label: 'Rio Branco (AC) — UTC−5' },
  { value: 'America/Eirunepe', label: 'Eirunepé (AM oeste) — UTC−5' },
];

export const MODEL_CHOICES: readonly Choice[] = [
  { value: 'claude-sonnet-4-6', label: 'Claude Sonnet 4.6 (recomendado)' },
  { value: 'claude-opus-4-6', label: 'Claude Opus 4.6 (mais capaz, mais caro)' },
  { value: 'claude-haiku-4-5', label: 'Claude Haiku 4.5 (mais rápido, mais barato)' },
];

/** The place a zone is named after ("Brasília", "Manaus"), or the IANA name. */
export function timeZonePlace(zone: string): string {
  const label = BRAZIL_TIME_ZONES.find((z) => z.value === zone)?.label;
  return label ? (label.split(/ \(| —/)[0] ?? zone) : zone;
}

/** The label of a time zone for people ("Brasília (…) — UTC−3"), or the IANA name. */
export function timeZoneLabel(zone: string): string {
  return BRAZIL_TIME_ZONES.find((z) => z.value === zone)?.label ?? zone;
}
