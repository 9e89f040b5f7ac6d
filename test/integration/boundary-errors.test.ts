/**
 * #11 part 5: every error has a cause. Out-of-range dates, NUL bytes and lone surrogates, forged
 * cursors are refused at the boundary in pt-BR; the database errors a user can still meet are
 * mapped by the one mapper (db/errors.ts); what stays "Erro inesperado" is logged in full.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../src-shared/contract';
import { validateConsulta } from '../../src-shared/sales-dsl';
import { MSG_INVALID_CHARS } from '../../src-shared/text';
import { mapDbError } from '../../src-main/db/errors';
import { json } from '../../src-main/extraction/attempts';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { invokeChannel, toErrorShape } from '../../src-main/ipc/invoke';
import type { Handlers } from '../../src-main/ipc/types';
import { decodeCursor, encodeCursor } from '../../src-main/queue/cursor';
import type { Logger } from '../../src-main/util/logger';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants } from '../support/queue-fixtures';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  env = cliEnv(db, { BALCAO_TIME_ZONE: 'America/Sao_Paulo' });
});
afterAll(() => db.drop());

const run = (args: string[]) => runCli(args, env);

const NUL = 'Ana\u0000Maria';
const LONE = 'Ana \ud800 Maria';

describe('DSL dates out of range are refused at the boundary', () => {
  it('9999-12-31 and a year-1 "ontem" fail validation in pt-BR (nothing reaches the database)', () => {
    const far = validateConsulta(
      { metrica: 'total_bruto', data_inicio: '9999-12-01', data_fim: '9999-12-31' },
      '2026-03-16',
    );
    expect(far.ok).toBe(false);
    if (!far.ok) {
      expect(far.erros.map((e) => e.campo)).toEqual(['data_inicio', 'data_fim']);
      expect(far.erros[0]!.mensagem).toMatch(
        /fora do intervalo aceito\. Use datas entre 01\/01\/2000/,
      );
    }
    const ancient = validateConsulta({ metrica: 'total_bruto', periodo: 'ontem' }, '0001-01-01');
    expect(ancient.ok).toBe(false);
    if (!ancient.ok) expect(ancient.erros[0]!.regra).toBe('data_fora_do_intervalo');
    const edge = validateConsulta({ metrica: 'total_bruto', periodo: 'ontem' }, '2000-01-01');
    expect(edge.ok).toBe(false);
  });

  it('balcao ask --dsl with 9999-12-31 answers with the pt-BR reason, --json included', async () => {
    const r = await run([
      'ask',
      '--merchant',
      '1',
      '--json',
      '--dsl',
      '{"metrica":"total_bruto","data_inicio":"9999-12-01","data_fim":"9999-12-31"}',
    ]);
    expect(r.code).not.toBe(0);
    const j = JSON.parse(r.out) as { erro: string };
    expect(j.erro).toMatch(/fora do intervalo aceito/);
    expect(j.erro).not.toMatch(/inesperado|interno/i);
  });

  it('balcao ask --hoje 0001-01-01 is a usage error in pt-BR (exit 2)', async () => {
    const r = await run([
      'ask',
      '--merchant',
      '1',
      '--hoje',
      '0001-01-01',
      '--dsl',
      '{"metrica":"total_bruto","periodo":"ontem"}',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/use uma data entre 01\/01\/2000 e 31\/12\/2099/);
  });
});

describe('NUL bytes and lone surrogates', () => {
  it('model text in a charge is stored, never lost: NUL dropped, lone surrogate → U+FFFD', () => {
    expect(JSON.parse(json({ cliente_nome: NUL, descricao: LONE }))).toEqual({
      cliente_nome: 'AnaMaria',
      descricao: 'Ana \ufffd Maria',
    });
  });

  it('the IPC contract refuses them in detalhe, resposta, dados and the question', () => {
    const held = { id: 1, token: 'x'.repeat(10) };
    const parse = (ch: keyof typeof contract, v: unknown) =>
      (contract[ch].input as { safeParse(x: unknown): { success: boolean } }).safeParse(v).success;
    expect(parse('review/discard', { ...held, motivo: 'outro', detalhe: `abc${NUL}` })).toBe(false);
    expect(parse('review/recordAnswer', { ...held, resposta: LONE })).toBe(false);
    expect(parse('sales/ask', { pergunta: `quanto ${NUL}`, requestId: 'abcdefgh12' })).toBe(false);
    expect(parse('sales/ask', { pergunta: 'quanto vendi ontem?', requestId: 'abcdefgh12' })).toBe(
      true,
    );
  });

  it('invokeChannel refuses them in any field before the handler runs, naming the field', async () => {
    let called = false;
    const handlers = new Proxy({} as Handlers, {
      get: () => () => {
        called = true;
        return Promise.resolve({});
      },
    });
    const r = await invokeChannel(
      handlers,
      'review/list',
      { limit: 5, view: 'aberta', sort: 'recentes', search: `x${LONE}` },
      {} as never,
    );
    expect(called).toBe(false);
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'entrada_invalida',
        message: MSG_INVALID_CHARS,
        fields: { search: [MSG_INVALID_CHARS] },
      },
    });
  });

  it('a DSL whose clarification holds a NUL is refused by the DSL rules', () => {
    const r = validateConsulta({ pergunta_esclarecimento: `qual${NUL} loja?` }, '2026-03-16');
    expect(r.ok).toBe(false);
  });
});

describe('forged list cursors', () => {
  it('well-formed base64 with an impossible timestamp, a NUL or a huge id → pt-BR', () => {
    const forged = [
      encodeCursor('recentes', ['10000-01-01 00:00:00+00', 1]),
      encodeCursor('recentes', ['0000-01-01 00:00:00+00', 1]),
      encodeCursor('recentes', [`2026-01-01 00:00:00+00${NUL}`, 1]),
      Buffer.from('["recentes","2026-01-01 00:00:00+00",1e300]').toString('base64url'),
      'não é base64 🙂',
    ];
    for (const c of forged) {
      expect(() => decodeCursor(c, 'recentes', ['t', 'n'])).toThrow(
        'Cursor de paginação inválido. Recarregue a lista.',
      );
    }
    expect(
      decodeCursor(encodeCursor('recentes', ['2026-01-01 00:00:00+00', 7]), 'recentes', ['t', 'n']),
    ).toEqual(['2026-01-01 00:00:00+00', 7]);
  });
});

describe('database errors a user can meet are mapped to pt-BR', () => {
  async function dbError(sql: string): Promise<unknown> {
    return db.admin.query(sql).then(
      () => {
        throw new Error(`no error: ${sql}`);
      },
      (e: unknown) => e,
    );
  }

  it.each([
    [
      'CUBE over 13 columns (54011)',
      `SELECT count(*) FROM (SELECT 1 a,1 b,1 c,1 d,1 e,1 f,1 g,1 h,1 i,1 j,1 k,1 l,1 m) t
        GROUP BY CUBE (a,b,c,d,e,f,g,h,i,j,k,l,m)`,
      /colunas demais/,
    ],
    [
      'invalid byte sequence (22021)',
      `SELECT convert_from('\\xff'::bytea, 'UTF8')`,
      /caracteres inválidos/,
    ],
    ['NUL in jsonb (22P05)', `SELECT '{"a":"\\u0000"}'::jsonb ->> 'a'`, /caracteres inválidos/],
    ['date out of range (22008)', `SELECT make_date(0, 1, 1)`, /fora do intervalo/],
    [
      'time zone displacement (22009)',
      `SELECT '+10000-01-01'::timestamptz`,
      /fora do intervalo|data/,
    ],
    ['cursor that does not exist (34000)', `FETCH 1 FROM cursor_forjado`, /Cursor de paginação/],
  ])('%s', async (_name, sql, re) => {
    const e = await dbError(sql);
    const m = mapDbError(e);
    expect(m.message).toMatch(re);
    expect(m.code).not.toBe('interno');
    expect(JSON.stringify(m.toJSON())).not.toMatch(/ERROR|convert|jsonb|bytea/);
  });

  it('missing database, missing role and wrong password', async () => {
    const connectError = async (url: string) => {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      c.on('error', () => undefined);
      const e = await c.connect().then(
        () => null,
        (x: unknown) => x,
      );
      await c.end().catch(() => undefined);
      return e;
    };
    const missingDb = await connectError(urlForDatabase(db.adminUrl, 'balcao_nao_existe_x'));
    expect(mapDbError(missingDb).message).toMatch(/banco de dados informado não existe/);
    const missingRole = await connectError(urlForRole(db.adminUrl, 'papel_que_nao_existe', 'x'));
    expect(mapDbError(missingRole).message).toMatch(/usuário do banco|usuário ou a senha/);
    expect(mapDbError(missingRole).code).toBe('configuracao');
    const wrongPassword = await connectError(urlForRole(db.appUrl, 'balcao_app', 'senha-errada'));
    // The test server may trust local connections; when it checks passwords, 28P01 is mapped.
    if (wrongPassword) {
      expect(mapDbError(wrongPassword).message).toMatch(/usuário ou a senha|usuário do banco/);
    }
  });
});

describe('"Erro inesperado" writes the full error to the log at the default level', () => {
  it('an unmapped database error is logged with code, message and stack', async () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const logger = {
      error: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }),
    } as unknown as Logger;
    const raw = Object.assign(new Error('something odd'), { code: 'XX001' });
    const shape = toErrorShape(mapDbError(raw), 'review/list', logger);
    expect(shape).toEqual({ code: 'interno', message: 'Erro inesperado no banco de dados.' });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.obj.causa).toMatchObject({ code: 'XX001', message: 'something odd' });
    expect(String((lines[0]!.obj.causa as { stack: string }).stack)).toMatch(/something odd/);
  });
});
