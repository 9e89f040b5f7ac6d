/**
 * Placeholders for one statement written in pieces (CTEs that different modules contribute):
 * each value is added once and gets the next `$n`, so the pieces compose into one round trip
 * without anyone numbering by hand. Values are always sent as parameters, never as SQL text.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** The placeholder for `v`, with an optional cast (`::jsonb`, `::text`…). */
  add(v: unknown, cast = ''): string {
    this.values.push(v);
    return `$${this.values.length}${cast}`;
  }
}
