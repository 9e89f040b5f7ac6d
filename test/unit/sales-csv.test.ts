import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { centavosToDecimal, toCsv, type CsvColumn } from '../../src-renderer/sales/csv';

interface Row {
  grupo: string | null;
  valor: number | null;
}
const cols: CsvColumn<Row>[] = [
  { header: 'Dia', kind: 'data', value: (r) => r.grupo },
  { header: 'Total bruto (R$)', kind: 'centavos', value: (r) => r.valor },
];
const rows: Row[] = [
  { grupo: '2026-03-10', valor: 123456 },
  { grupo: '2026-03-11', valor: 5 },
  { grupo: '2026-03-12', valor: null },
];

describe('toCsv', () => {
  it('standard format: commas, decimal point, ISO dates, CRLF, no BOM', () => {
    expect(toCsv(cols, rows, 'padrao')).toBe(
      'Dia,Total bruto (R$)\r\n2026-03-10,1234.56\r\n2026-03-11,0.05\r\n2026-03-12,\r\n',
    );
  });

  it('pt-BR format: semicolons, decimal comma, DD/MM/YYYY and a BOM', () => {
    expect(toCsv(cols, rows, 'pt-BR')).toBe(
      '\uFEFFDia;Total bruto (R$)\r\n10/03/2026;1234,56\r\n11/03/2026;0,05\r\n12/03/2026;\r\n',
    );
  });

  it('quotes cells with the delimiter, quotes or line breaks', () => {
    const c: CsvColumn<{ t: string }>[] = [{ header: 'Texto', kind: 'texto', value: (r) => r.t }];
    expect(toCsv(c, [{ t: 'a,b' }, { t: 'diz "oi"' }, { t: 'x\ny' }, { t: 'a;b' }], 'padrao')).toBe(
      'Texto\r\n"a,b"\r\n"diz ""oi"""\r\n"x\ny"\r\na;b\r\n',
    );
    expect(toCsv(c, [{ t: 'a;b' }, { t: 'a,b' }], 'pt-BR')).toBe('\uFEFFTexto\r\n"a;b"\r\na,b\r\n');
  });

  it('neutralises text that a spreadsheet would run as a formula', () => {
    const c: CsvColumn<{ t: unknown }>[] = [{ header: 'x', kind: 'texto', value: (r) => r.t }];
    const out = toCsv(c, [{ t: '=HYPERLINK("http://x")' }, { t: '@SUM(A1)' }, { t: -5 }], 'padrao');
    expect(out).toBe('x\r\n"\'=HYPERLINK(""http://x"")"\r\n\'@SUM(A1)\r\n-5\r\n');
  });

  it('plain numbers keep their decimals and never use exponent notation', () => {
    const c: CsvColumn<{ n: number }>[] = [{ header: 'n', kind: 'numero', value: (r) => r.n }];
    expect(toCsv(c, [{ n: 12.5 }, { n: 1e21 }, { n: 3 }], 'pt-BR')).toBe(
      '\uFEFFn\r\n12,5\r\n1000000000000000000000\r\n3\r\n',
    );
  });

  it('centavos → reais is exact for every safe integer (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (c) => {
        const s = centavosToDecimal(c, '.');
        expect(Math.round(Number(s) * 100)).toBe(c);
        expect(s).toMatch(/^-?\d+\.\d{2}$/);
        expect(centavosToDecimal(c, ',')).toBe(s.replace('.', ','));
      }),
    );
    expect(() => centavosToDecimal(1.5, '.')).toThrow();
  });
});
