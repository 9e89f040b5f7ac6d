/** Layer 1 (parser guard): examples and property-based fuzzing (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSql, MAX_SQL_LENGTH } from '../../src-main/sqlguard/guard';

const OWN_MESSAGE = /^consulta recusada: [^\n]{5,120}$/;

async function refused(sql: string) {
  const v = await checkSql(sql);
  expect(v.ok, sql).toBe(false);
  if (v.ok) throw new Error('unreachable');
  expect(v.motivo).toMatch(OWN_MESSAGE);
  return v;
}

describe('accepts plain SELECTs over vendas_ia', () => {
  it.each([
    'select * from vendas_ia',
    'SELECT * FROM public.vendas_ia;',
    'select * from "public"."vendas_ia" v where v.id > 0',
    `select date_trunc('month', aprovada_em) as mes, sum(valor_bruto_centavos) from vendas_ia group by 1 order by 1`,
    `select extract(year from aprovada_em), count(*) filter (where parcelas > 1) from vendas_ia group by 1`,
    `with m as (select modalidade, avg(valor_liquido_centavos) x from vendas_ia group by 1) select * from m where x > (select avg(x) from m)`,
    `select bandeira, percentile_disc(0.9) within group (order by valor_bruto_centavos) from vendas_ia group by bandeira`,
    `select id, lag(valor_bruto_centavos) over (order by aprovada_em) from vendas_ia`,
    `select d::date, count(v.id) from generate_series('2026-03-01'::date, '2026-03-31'::date, interval '1 day') d
       left join vendas_ia v on v.aprovada_em::date = d::date group by 1 order by 1`,
    `select coalesce(bandeira, 'pix'), round(avg(valor_bruto_centavos) / 100.0, 2) from vendas_ia group by 1`,
    `select * from vendas_ia a join lateral (select count(*) from vendas_ia b where b.id < a.id) c on true`,
    `select to_char(aprovada_em at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') from vendas_ia`,
    `select modalidade from vendas_ia union select bandeira from vendas_ia`,
    `/* comentário */ select -- outro
       count(*) from vendas_ia`,
  ])('%s', async (sql) => {
    expect(await checkSql(sql)).toEqual({ ok: true, sql });
  });
});

describe('refuses', () => {
  it.each([
    ['select * from transacoes', 'relacao'],
    ['select * from vendas_ia v, public.transacoes t', 'relacao'],
    ['select * from "pg_catalog".pg_class', 'relacao'],
    ['select * from information_schema.tables', 'relacao'],
    ['with x as (select * from vendas_ia) select * from x, merchants', 'relacao'],
    ['select * from (with merchants as (select 1) select 1) a, merchants', 'relacao'],
    [`select set_config('balcao.merchant_id', '2', true)`, 'funcao'],
    [`select * from vendas_ia where "pg_catalog"."set_config"('a', 'b', true) is null`, 'funcao'],
    [`select current_setting('balcao.merchant_id')`, 'funcao'],
    [`select query_to_xml('select 1', true, true, '')`, 'funcao'],
    [`select pg_sleep(1)`, 'funcao'],
    [`select balcao_definir_lojista(2)`, 'funcao'],
    [`select public.sum(valor_bruto_centavos) from vendas_ia`, 'funcao'],
    [`select date_trunc(modalidade, aprovada_em) from vendas_ia`, 'funcao'],
    [`select current_user`, 'funcao'],
    ['select 1; select 2', 'varios_comandos'],
    ['delete from vendas_ia', 'nao_select'],
    ['with d as (delete from transacoes returning *) select * from d', 'nao_select'],
    ['select * from vendas_ia for update', 'bloqueio'],
    ['select * into t from vendas_ia', 'into'],
    ['select ctid from vendas_ia', 'coluna_sistema'],
    [`select 'transacoes'::regclass`, 'tipo'],
    [`select * from vendas_ia where modalidade ~ 'x'`, 'operador'],
    [
      'with recursive r(n) as (select 1 union all select n + 1 from r) select * from r',
      'construcao',
    ],
    ['select * from vendas_ia where id = $1', 'construcao'],
    ['selec 1', 'sintaxe'],
    ['', 'vazio'],
    ['-- nada', 'vazio'],
    ['select 1\u0000', 'sintaxe'],
    [`select ${'x,'.repeat(MAX_SQL_LENGTH)} 1`, 'tamanho'],
    [`select 1 where ${'exists (select 1 where '.repeat(12)}true${')'.repeat(12)}`, 'tamanho'],
  ])('%s', async (sql, code) => {
    expect((await refused(sql)).code).toBe(code);
  });

  it('says exactly the message of the issue for other relations', async () => {
    expect((await refused('select * from transacoes')).motivo).toBe(
      'consulta recusada: só é permitido ler a visão de vendas',
    );
  });

  it('never echoes more than a short identifier of the submitted text', async () => {
    const v = await refused(`select "x');drop table y;--"(1)`);
    expect(v.motivo).not.toContain('drop');
  });
});

// ---------------------------------------------------------------------------------------------
// Property-based fuzzing

const ALLOWED_EXPR = [
  'id',
  'valor_bruto_centavos',
  'valor_liquido_centavos',
  'parcelas',
  `date_trunc('month', aprovada_em)`,
  `extract(dow from aprovada_em)`,
  'coalesce(bandeira, modalidade)',
  'round(valor_liquido_centavos / 100.0, 2)',
  '1',
  `'pix'`,
  'null',
];
const FORBIDDEN_FUNCS = [
  'set_config',
  'pg_catalog.set_config',
  '"set_config"',
  'current_setting',
  'pg_sleep',
  'query_to_xml',
  'dblink',
  'pg_read_file',
  'lo_import',
  'pg_advisory_lock',
  'nextval',
  'txid_current',
  'balcao_definir_lojista',
  'public.balcao_lojista_atual',
  'format',
  'repeat',
  'pg_catalog.pg_get_viewdef',
  'version',
];
const FORBIDDEN_RELS = [
  'transacoes',
  'public.transacoes',
  '"transacoes"',
  'merchants',
  'pg_class',
  'pg_catalog.pg_roles',
  'information_schema.tables',
  'pg_stat_activity',
  'extracoes',
  '"public"."cobrancas"',
  'pg_temp.vendas_ia',
  'outro.vendas_ia',
];

const expr = fc.constantFrom(...ALLOWED_EXPR);
const forbiddenCall = fc
  .tuple(fc.constantFrom(...FORBIDDEN_FUNCS), fc.array(expr, { maxLength: 3 }))
  .map(([f, args]) => `${f}(${args.join(', ')})`);
const filler = fc.constantFrom(' ', '\n', '\t', ' /* c */ ', ' -- c\n');

/** A SELECT over vendas_ia where `slot` is placed in one of many positions. */
function queryWith(slot: string, position: number, ws: string): string {
  const templates = [
    `select ${slot}${ws}from vendas_ia`,
    `select id from vendas_ia where ${slot} is not null`,
    `select count(*) from vendas_ia group by ${slot}`,
    `select id from vendas_ia order by ${slot}`,
    `select id from vendas_ia having count(*) > 0 or ${slot} is null`,
    `with c as (select ${slot} as x from vendas_ia) select * from c`,
    `select * from vendas_ia, lateral (select ${slot} as x) l`,
    `select (select ${slot}) from vendas_ia`,
    `select id from vendas_ia where id in (select ${slot})`,
    `select case when id > 0 then ${slot} end from vendas_ia`,
    `select sum(valor_bruto_centavos) filter (where ${slot} is null) from vendas_ia`,
    `select row_number() over (partition by ${slot}) from vendas_ia`,
    `select id from vendas_ia a join vendas_ia b using (id) where ${slot} = ${slot}`,
    `select id from vendas_ia${ws}union all${ws}select ${slot} from vendas_ia`,
    `select id from vendas_ia limit (select ${slot})`,
  ];
  return templates[position % templates.length] as string;
}

describe('fuzzing (fast-check)', () => {
  it('anything calling a forbidden function, in any position, is refused', async () => {
    await fc.assert(
      fc.asyncProperty(forbiddenCall, fc.nat(), filler, async (call, pos, ws) => {
        const v = await checkSql(queryWith(call, pos, ws));
        expect(v.ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('anything reading a forbidden relation, in any position, is refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FORBIDDEN_RELS),
        fc.nat(),
        filler,
        async (rel, pos, ws) => {
          const slot = `(select count(*) from ${rel})`;
          const direct = [
            `select * from ${rel}`,
            `select * from vendas_ia,${ws}${rel}`,
            `select * from vendas_ia join ${rel} on true`,
            `with x as (select * from ${rel}) select * from x`,
          ];
          for (const q of [queryWith(slot, pos, ws), direct[pos % direct.length] as string]) {
            const v = await checkSql(q);
            expect(v.ok, q).toBe(false);
            if (!v.ok) expect(v.motivo).toMatch(OWN_MESSAGE);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('compositions of allowed fragments only are accepted, whatever the whitespace and comments', async () => {
    await fc.assert(
      fc.asyncProperty(expr, fc.nat(), filler, async (e, pos, ws) => {
        const q = queryWith(e, pos, ws);
        const v = await checkSql(q);
        expect(v.ok, q).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and only ever answers with its own messages, whatever the input', async () => {
    const tokens = fc.constantFrom(
      'select',
      'from',
      'vendas_ia',
      'transacoes',
      'set_config',
      '(',
      ')',
      ',',
      ';',
      "'",
      '"',
      '$$',
      '/*',
      '*/',
      '--',
      '\n',
      'with',
      'as',
      'union',
      'where',
      '1',
      '::',
      'regclass',
      'for update',
      'into',
      '*',
      'lateral',
      'pg_catalog.',
      "E'\\'",
      'U&"',
      'copy',
      'do',
      'begin',
      '$1',
      '[',
      ']',
    );
    const input = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.array(tokens, { maxLength: 40 }).map((t) => t.join(' ')),
      fc.anything().map((x) => x as unknown as string),
    );
    await fc.assert(
      fc.asyncProperty(input, async (s) => {
        const v = await checkSql(s);
        if (v.ok) {
          expect(typeof s).toBe('string');
          expect(v.sql).toBe(s);
        } else {
          expect(v.motivo).toMatch(OWN_MESSAGE);
        }
      }),
      { numRuns: 1_500 },
    );
  });

  it('deep nesting is refused, not a crash', async () => {
    for (const n of [100, 500, 1_500, 3_000]) {
      const q = `select ${'abs('.repeat(n)}1${')'.repeat(n)} from vendas_ia`;
      const v = await checkSql(q);
      expect(v.ok).toBe(false);
    }
  });
});
