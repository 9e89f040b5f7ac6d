import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src-main/db/migrate';
import { urlForDatabase } from '../../src-main/db/urls';
import { seedDemo } from '../../src-main/db/seed';
import { withTenantReadOnly } from '../../src-main/db/tenant';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { queryOnce } from '../support/pg-server';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('schema and migrations', () => {
  it('is idempotent: a second migrate applies nothing', async () => {
    expect((await migrate(db.adminUrl)).applied).toEqual([]);
  });

  it('processes starting at once wait for the one migrating instead of failing (bounded)', async () => {
    // node-pg-migrate's own lock: held here as another process migrating would hold it.
    const holder = new pg.Client({ connectionString: db.adminUrl });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(7241865325823964)');
      const t = Date.now();
      const waiting = Promise.all([migrate(db.adminUrl), migrate(db.adminUrl)]);
      await new Promise((r) => setTimeout(r, 700));
      await holder.query('SELECT pg_advisory_unlock(7241865325823964)');
      const done = await waiting;
      expect(done.map((d) => d.applied)).toEqual([[], []]);
      expect(Date.now() - t).toBeGreaterThanOrEqual(700);
      // Bounded: a lock never released ends in an error, not a hang.
      await holder.query('SELECT pg_advisory_lock(7241865325823964)');
      await expect(migrate(db.adminUrl, { lockWaitMs: 300 })).rejects.toThrow(
        /Another migration is already running/,
      );
    } finally {
      await holder.end();
    }
  });

  it('has transacoes with exactly the contract columns (extra ones have defaults)', async () => {
    const r = await db.admin.query<{
      column_name: string;
      column_default: string | null;
      is_nullable: string;
    }>(
      `SELECT column_name, column_default, is_nullable FROM information_schema.columns
        WHERE table_name = 'transacoes' AND table_schema = 'public' ORDER BY ordinal_position`,
    );
    const required = [
      'id',
      'merchant_id',
      'status',
      'modalidade',
      'bandeira',
      'parcelas',
      'valor_bruto_centavos',
      'valor_liquido_centavos',
      'aprovada_em',
    ];
    const names = r.rows.map((c) => c.column_name);
    for (const c of required) expect(names).toContain(c);
    for (const c of r.rows.filter((x) => !required.includes(x.column_name))) {
      expect(
        c.column_default ?? (c.is_nullable === 'YES' ? 'null' : null),
        c.column_name,
      ).not.toBeNull();
    }
    const idx = await db.admin.query(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'transacoes'`,
    );
    expect(idx.rows.map((x: { indexdef: string }) => x.indexdef).join('\n')).toMatch(
      /\(merchant_id, status, aprovada_em\)/,
    );
  });

  it('keeps the audit log append-only, even for the owner', async () => {
    await db.admin.query(
      `INSERT INTO merchants (id, nome) VALUES (900, 'Loja Auditoria') ON CONFLICT DO NOTHING`,
    );
    await db.app.query(`INSERT INTO auditoria (operador, acao) VALUES ('ana', 'teste')`);
    await expect(db.app.query(`UPDATE auditoria SET acao = 'x'`)).rejects.toThrow();
    await expect(db.admin.query(`DELETE FROM auditoria`)).rejects.toThrow(/somente inserção/);
    await expect(db.app.query(`DELETE FROM auditoria`)).rejects.toThrow();
  });

  it('the app role cannot read sales; the analytics role cannot read base tables', async () => {
    await expect(db.app.query('SELECT count(*) FROM transacoes')).rejects.toThrow(
      /permission denied/,
    );
    await expect(db.analytics.query('SELECT count(*) FROM transacoes')).rejects.toThrow(
      /permission denied/,
    );
    await expect(db.analytics.query('SELECT count(*) FROM extracoes')).rejects.toThrow(
      /permission denied/,
    );
  });
});

describe('tenant-scoped read-only transaction', () => {
  it('sets the tenant once, refuses writes and a second tenant, and leaves the connection clean', async () => {
    const seen = await withTenantReadOnly(
      db.analytics,
      { merchantId: 7, timeoutMs: 1000 },
      async (c) => {
        const r = await c.query<{ m: string }>('SELECT balcao_lojista_atual()::text AS m');
        await expect(c.query('SELECT balcao_definir_lojista(8)')).rejects.toThrow();
        return r.rows[0]?.m;
      },
    );
    expect(seen).toBe('7');
    // The pool's next user sees no tenant.
    const c = await db.analytics.connect();
    try {
      const r = await c.query<{ m: string | null }>('SELECT balcao_lojista_atual()::text AS m');
      expect(r.rows[0]?.m).toBeNull();
    } finally {
      c.release();
    }
    await expect(
      withTenantReadOnly(db.analytics, { merchantId: 7, timeoutMs: 1000 }, (c) =>
        c.query(`CREATE TEMP TABLE x (a int)`),
      ),
    ).rejects.toMatchObject({ code: expect.any(String) });
  });

  it('enforces the statement timeout with a pt-BR error', async () => {
    await expect(
      withTenantReadOnly(db.analytics, { merchantId: 1, timeoutMs: 200 }, (c) =>
        c.query('SELECT count(*) FROM generate_series(1, 10000) a, generate_series(1, 10000) b'),
      ),
    ).rejects.toMatchObject({ code: 'tempo_esgotado' });
  });

  it('rejects a non-integer tenant before touching the database', async () => {
    await expect(
      withTenantReadOnly(db.analytics, { merchantId: 1.5, timeoutMs: 200 }, async () => 1),
    ).rejects.toMatchObject({ code: 'entrada_invalida' });
  });
});

describe('demo data', () => {
  it('refuses to replace data in a database that already has audited work', async () => {
    await db.app.query(`INSERT INTO auditoria (operador, acao) VALUES ('ana', 'trabalho')`);
    await expect(
      seedDemo(db.admin, {
        now: new Date(),
        timeZone: 'America/Sao_Paulo',
        merchants: 1,
        transactions: 10,
      }),
    ).rejects.toMatchObject({ code: 'conflito' });
  });

  it('is deterministic and realistic', async () => {
    const fresh = await createTestDatabase();
    try {
      await checkDemo(fresh);
    } finally {
      await fresh.drop();
    }
  });
});

async function checkDemo(db: TestDatabase) {
  {
    const now = new Date('2026-11-30T15:00:00Z');
    const r = await seedDemo(db.admin, {
      now,
      timeZone: 'America/Sao_Paulo',
      merchants: 4,
      transactions: 5000,
    });
    expect(r).toMatchObject({ merchants: 4, transactions: 5000 });
    const sum1 = await db.admin.query(
      'SELECT sum(valor_bruto_centavos)::text AS s, count(*)::int AS n FROM transacoes',
    );
    await seedDemo(db.admin, {
      now,
      timeZone: 'America/Sao_Paulo',
      merchants: 4,
      transactions: 5000,
    });
    const sum2 = await db.admin.query(
      'SELECT sum(valor_bruto_centavos)::text AS s, count(*)::int AS n FROM transacoes',
    );
    expect(sum2.rows[0]).toEqual(sum1.rows[0]);
    const mix = await db.admin.query<{ modalidade: string; status: string; n: number }>(
      'SELECT modalidade, status, count(*)::int AS n FROM transacoes GROUP BY 1, 2',
    );
    const modalidades = new Set(mix.rows.map((x) => x.modalidade));
    expect(modalidades).toEqual(new Set(['debito', 'credito_avista', 'credito_parcelado', 'pix']));
    expect(mix.rows.some((x) => x.status === 'estornada')).toBe(true);
    const span = await db.admin.query<{ d: number; future: number; net_ok: boolean }>(
      `SELECT (max(aprovada_em)::date - min(aprovada_em)::date) AS d,
              count(*) FILTER (WHERE aprovada_em > $1)::int AS future,
              bool_and(valor_liquido_centavos < valor_bruto_centavos) AS net_ok FROM transacoes`,
      [now.toISOString()],
    );
    expect(span.rows[0]?.d).toBeGreaterThan(500);
    expect(span.rows[0]?.future).toBe(0);
    expect(span.rows[0]?.net_ok).toBe(true);
    const queue = await db.admin.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM extracoes WHERE fila_estado = 'aberta' GROUP BY 1`,
    );
    expect(queue.rows.map((x) => x.status).sort()).toEqual(['completo', 'falhou', 'incompleto']);
  }
}

describe('migration history', () => {
  it('databases of one server migrated at the same moment all end up migrated (roles are the server’s)', async () => {
    // Each migration updates the same server-wide role rows (ALTER ROLE … SET, grants): the later
    // ones used to fail with "tuple concurrently updated" once the first committed.
    const names = [0, 1, 2, 3].map((i) => `balcao_mig_${randomBytes(4).toString('hex')}_${i}`);
    const files = readdirSync('resources/migrations').filter((f) => f.endsWith('.sql'));
    for (const n of names) await queryOnce(db.adminUrl, `CREATE DATABASE ${n}`);
    try {
      const done = await Promise.all(names.map((n) => migrate(urlForDatabase(db.adminUrl, n))));
      expect(done.map((d) => d.applied.length)).toEqual(names.map(() => files.length));
      for (const n of names) {
        const r = await queryOnce<{ n: number }>(
          urlForDatabase(db.adminUrl, n),
          'SELECT count(*)::int AS n FROM pgmigrations',
        );
        expect(r.rows[0]!.n).toBe(files.length);
      }
    } finally {
      for (const n of names)
        await queryOnce(db.adminUrl, `DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
    }
  });
  it('refuses a database whose applied migrations disagree with the files, in pt-BR', async () => {
    const fresh = await createTestDatabase();
    try {
      await fresh.admin.query(`DELETE FROM pgmigrations WHERE name = '0001_foundation'`);
      await expect(migrate(fresh.adminUrl)).rejects.toMatchObject({
        code: 'configuracao',
        message: expect.stringContaining('0001_foundation ainda não foi aplicada'),
      });
    } finally {
      await fresh.drop();
    }
    const newer = await createTestDatabase();
    try {
      await newer.admin.query(
        `INSERT INTO pgmigrations (name, run_on) VALUES ('9999_do_futuro', now() + interval '1 day')`,
      );
      await expect(migrate(newer.adminUrl)).rejects.toMatchObject({
        code: 'configuracao',
        message: expect.stringContaining('versão mais nova do Balcão (9999_do_futuro)'),
      });
    } finally {
      await newer.drop();
    }
  });
});
