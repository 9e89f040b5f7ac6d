/**
 * Layer 2 on its own: what the analytics role can and cannot do, asserted straight through SQL
 * on a raw analytics connection (no parser, no executor).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { M1, M2, NORMAL_SQL, seedCanaries } from '../support/sqlguard';

let db: TestDatabase;
let c: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedCanaries(db.admin);
  c = new pg.Client({ connectionString: db.analyticsUrl });
  c.on('error', () => undefined);
  await c.connect();
});
afterAll(async () => {
  await c.end().catch(() => undefined);
  await db.drop();
});

/** Runs `sql` in a fresh tenant transaction for merchant 1; always rolls back. */
async function asTenant(sql: string, merchantId = 1): Promise<pg.QueryResult> {
  await c.query('BEGIN READ ONLY');
  try {
    await c.query({ text: 'SELECT balcao_definir_lojista($1)', values: [merchantId] });
    return await c.query(sql);
  } finally {
    await c.query('ROLLBACK');
  }
}

describe('the textbook hole is closed', () => {
  it('a SELECT calling set_config itself cannot switch the tenant (permission denied)', async () => {
    await expect(
      asTenant(
        `SELECT * FROM (SELECT set_config('balcao.merchant_id', '2', true)) s, LATERAL (SELECT * FROM vendas_ia) v`,
      ),
    ).rejects.toThrow(/permission denied for function set_config/);
    await expect(
      asTenant(`SELECT pg_catalog.set_config('balcao.merchant_id', '2', false)`),
    ).rejects.toThrow(/permission denied/);
  });

  it('UPDATE pg_settings (the other road to set_config) is denied too', async () => {
    await expect(
      asTenant(`UPDATE pg_settings SET setting = '2' WHERE name = 'balcao.merchant_id'`),
    ).rejects.toThrow(/permission denied/);
  });

  it('the tenant function refuses a second tenant in the same transaction', async () => {
    await expect(asTenant('SELECT balcao_definir_lojista(2)')).rejects.toThrow(/já definido/);
  });

  it('the view shows only approved sales of the tenant our code set, nothing without one', async () => {
    expect((await asTenant(NORMAL_SQL, 1)).rows[0]).toEqual(M1);
    expect((await asTenant(NORMAL_SQL, 2)).rows[0]).toEqual(M2);
    expect((await c.query('SELECT count(*)::int AS n FROM vendas_ia')).rows[0]).toEqual({ n: 0 });
  });
});

describe('role privileges', () => {
  it('logs in as itself: no superuser, no role membership to SET ROLE into', async () => {
    const r = await c
      .query(
        `SELECT current_user::text AS u, session_user::text AS s, r.rolsuper, r.rolcreaterole,
              r.rolcreatedb, r.rolinherit, r.rolbypassrls,
              (SELECT count(*)::int FROM pg_auth_members m WHERE m.member = r.oid) AS memberships
         FROM pg_roles r WHERE r.rolname = current_user`,
      )
      .catch(() => undefined);
    // pg_roles is not readable by the role any more: ask as admin instead.
    expect(r).toBeUndefined();
    const a = await db.admin.query(
      `SELECT r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolinherit, r.rolbypassrls,
              (SELECT count(*)::int FROM pg_auth_members m WHERE m.member = r.oid) AS memberships
         FROM pg_roles r WHERE r.rolname = 'balcao_analytics'`,
    );
    expect(a.rows[0]).toEqual({
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolinherit: false,
      rolbypassrls: false,
      memberships: 0,
    });
    await expect(c.query('SET ROLE postgres')).rejects.toThrow(/permission denied/);
    await expect(c.query('SET ROLE balcao_vendas_ia_dono')).rejects.toThrow(/permission denied/);
  });

  it('reads no base table, not even through the view owner', async () => {
    for (const t of [
      'transacoes',
      'merchants',
      'extracoes',
      'extracao_tentativas',
      'cobrancas',
      'auditoria',
      'consultas_livres',
      'pgmigrations',
    ]) {
      await expect(asTenant(`SELECT 1 FROM ${t} LIMIT 1`), t).rejects.toThrow(/permission denied/);
    }
  });

  it('the only relation it may SELECT in public is vendas_ia (plus other views granted on purpose)', async () => {
    const r = await db.admin.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace
          AND has_table_privilege('balcao_analytics', c.oid, 'SELECT,INSERT,UPDATE,DELETE,TRUNCATE,REFERENCES,TRIGGER')
        ORDER BY 1`,
    );
    const names = r.rows.map((x) => x.relname);
    expect(names).toContain('vendas_ia');
    const kinds = await db.admin.query<{ relname: string; relkind: string }>(
      `SELECT relname, relkind::text FROM pg_class WHERE relname = ANY($1) AND relnamespace = 'public'::regnamespace`,
      [names],
    );
    // Tenant views only (the DSL path may add its own): never a table.
    for (const k of kinds.rows) expect(k.relkind, k.relname).toBe('v');
    expect(
      (
        await db.admin.query(
          `SELECT has_table_privilege('balcao_analytics', 'vendas_ia', 'INSERT,UPDATE,DELETE') AS w`,
        )
      ).rows[0],
    ).toEqual({ w: false });
  });

  it('vendas_ia is a security_barrier view with exactly the contract columns, owned by a NOLOGIN non-superuser', async () => {
    const r = await db.admin.query(
      `SELECT c.reloptions, o.rolname AS dono, o.rolsuper, o.rolcanlogin
         FROM pg_class c JOIN pg_roles o ON o.oid = c.relowner WHERE c.oid = 'public.vendas_ia'::regclass`,
    );
    expect(r.rows[0]).toEqual({
      reloptions: ['security_barrier=true'],
      dono: 'balcao_vendas_ia_dono',
      rolsuper: false,
      rolcanlogin: false,
    });
    const cols = await db.admin.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = 'vendas_ia' ORDER BY ordinal_position`,
    );
    expect(cols.rows.map((x) => x.column_name)).toEqual([
      'id',
      'modalidade',
      'bandeira',
      'parcelas',
      'valor_bruto_centavos',
      'valor_liquido_centavos',
      'aprovada_em',
    ]);
  });

  it('cannot read catalogs or information_schema', async () => {
    for (const rel of [
      'pg_class',
      'pg_proc',
      'pg_roles',
      'pg_namespace',
      'pg_stat_activity',
      'pg_settings',
      'pg_views',
      'pg_locks',
      'pg_stats',
      'pg_database',
      'information_schema.tables',
      'information_schema.columns',
      'information_schema.routines',
    ]) {
      await expect(asTenant(`SELECT 1 FROM ${rel} LIMIT 1`), rel).rejects.toThrow(
        /permission denied/,
      );
    }
    // …and functions reading catalogs through SPI fail with it.
    await expect(asTenant(`SELECT pg_get_viewdef('vendas_ia'::regclass)`)).rejects.toThrow(
      /permission denied/,
    );
  });

  it('the app role keeps what it had (catalog reads, set_config, advisory locks, TEMP)', async () => {
    await db.app.query('SELECT count(*) FROM pg_class');
    await db.app.query(`SELECT set_config('balcao.teste', '1', true)`);
    await db.app.query('SELECT pg_try_advisory_xact_lock(1)');
    const t = await db.admin.query(
      `SELECT has_database_privilege('balcao_app', current_database(), 'TEMP') AS app,
              has_database_privilege('balcao_analytics', current_database(), 'TEMP') AS analytics`,
    );
    expect(t.rows[0]).toEqual({ app: true, analytics: false });
  });

  it.each([
    ['set_config', `SELECT set_config('x.y', '1', false)`],
    ['pg_sleep', 'SELECT pg_sleep(0)'],
    ['pg_sleep_for', `SELECT pg_sleep_for('0')`],
    ['advisory lock', 'SELECT pg_advisory_lock(1)'],
    ['advisory xact lock', 'SELECT pg_try_advisory_xact_lock(1)'],
    ['query_to_xml', `SELECT query_to_xml('select 1', true, true, '')`],
    ['table_to_xml', `SELECT table_to_xml('vendas_ia', true, true, '')`],
    ['lo_creat', 'SELECT lo_creat(-1)'],
    ['lo_get', 'SELECT lo_get(1)'],
    ['lo_import', `SELECT lo_import('/etc/passwd')`],
    ['pg_read_file', `SELECT pg_read_file('/etc/passwd')`],
    ['pg_ls_dir', `SELECT pg_ls_dir('.')`],
    ['pg_notify', `SELECT pg_notify('c', 'x')`],
    ['pg_terminate_backend', 'SELECT pg_terminate_backend(1)'],
    ['pg_cancel_backend', 'SELECT pg_cancel_backend(1)'],
    ['txid_current', 'SELECT txid_current()'],
    ['pg_current_xact_id', 'SELECT pg_current_xact_id()'],
    ['pg_stat_get_activity', 'SELECT * FROM pg_stat_get_activity(NULL)'],
    ['pg_stat_get_backend_activity', 'SELECT pg_stat_get_backend_activity(1)'],
    ['nextval', `SELECT nextval('transacoes_id_seq')`],
    // #12 round 2: statistics, sizes, WAL/xid positions, locks, session state.
    ['pg_stat_get_live_tuples', `SELECT pg_stat_get_live_tuples('transacoes'::regclass)`],
    ['pg_stat_get_tuples_inserted', `SELECT pg_stat_get_tuples_inserted('transacoes'::regclass)`],
    ['pg_stat_get_db_xact_commit', 'SELECT pg_stat_get_db_xact_commit(1)'],
    ['pg_stat_get_numscans', `SELECT pg_stat_get_numscans('transacoes'::regclass)`],
    ['pg_relation_size', `SELECT pg_relation_size('transacoes'::regclass)`],
    ['pg_total_relation_size', `SELECT pg_total_relation_size('transacoes'::regclass)`],
    ['pg_database_size', 'SELECT pg_database_size(current_database())'],
    ['pg_current_wal_lsn', 'SELECT pg_current_wal_lsn()'],
    ['pg_current_wal_insert_lsn', 'SELECT pg_current_wal_insert_lsn()'],
    ['pg_last_wal_replay_lsn', 'SELECT pg_last_wal_replay_lsn()'],
    ['pg_last_xact_replay_timestamp', 'SELECT pg_last_xact_replay_timestamp()'],
    ['age(xid)', `SELECT age('3'::xid)`],
    ['mxid_age(xid)', `SELECT mxid_age('1'::xid)`],
    ['txid_status', 'SELECT txid_status(3)'],
    ['pg_xact_status', `SELECT pg_xact_status('3'::xid8)`],
    ['pg_current_snapshot', 'SELECT pg_current_snapshot()'],
    ['pg_lock_status', 'SELECT * FROM pg_lock_status()'],
    ['pg_control_checkpoint', 'SELECT * FROM pg_control_checkpoint()'],
    ['pg_show_all_settings', 'SELECT * FROM pg_show_all_settings()'],
    ['set_limit (pg_trgm)', 'SELECT set_limit(0.9)'],
    ['setseed', 'SELECT setseed(0.5)'],
    ['balcao_frescor (read by the app role instead)', 'SELECT * FROM balcao_frescor()'],
    ['balcao_migracoes', 'SELECT * FROM balcao_migracoes()'],
    ['balcao_restringir_analytics', 'SELECT balcao_restringir_analytics()'],
  ])('cannot execute %s', async (_n, sql) => {
    await expect(asTenant(sql)).rejects.toThrow(/permission denied/);
  });

  it('cannot write, create or copy anything', async () => {
    for (const sql of [
      `INSERT INTO vendas_ia (id) VALUES (1)`,
      `CREATE TEMP TABLE t (a int)`,
      `CREATE TABLE public.t (a int)`,
      `CREATE EXTENSION dblink`,
      `COPY (SELECT 1) TO '/tmp/balcao-x'`,
      `COPY (SELECT 1) TO PROGRAM 'id'`,
    ]) {
      await expect(asTenant(sql), sql).rejects.toThrow();
    }
    // Even outside our read-only transaction, with the session made read-write:
    await c.query('SET default_transaction_read_only = off');
    try {
      await expect(c.query('CREATE TEMP TABLE t (a int)')).rejects.toThrow(/permission denied/);
      await expect(c.query('CREATE TABLE public.t (a int)')).rejects.toThrow(/permission denied/);
      await expect(
        c.query(`CREATE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql AS 'select 1'`),
      ).rejects.toThrow(/permission denied/);
      await expect(c.query(`UPDATE transacoes SET merchant_id = 1`)).rejects.toThrow(
        /permission denied/,
      );
    } finally {
      await c.query('RESET default_transaction_read_only');
    }
  });

  it('has role limits it cannot raise (temp_file_limit) and backstops for the rest', async () => {
    const show = async (p: string) =>
      (await c.query(`SHOW ${p}`)).rows[0] as Record<string, string>;
    expect(await show('temp_file_limit')).toEqual({ temp_file_limit: '64MB' });
    expect(await show('work_mem')).toEqual({ work_mem: '4MB' });
    expect(await show('idle_in_transaction_session_timeout')).toEqual({
      idle_in_transaction_session_timeout: '10s',
    });
    expect(await show('statement_timeout')).toEqual({ statement_timeout: '15s' });
    expect(await show('default_transaction_read_only')).toEqual({
      default_transaction_read_only: 'on',
    });
    await expect(c.query(`SET temp_file_limit = '10GB'`)).rejects.toThrow(/permission denied/);
  });

  it('temp_file_limit really stops a query that spills to disk', async () => {
    await c.query('BEGIN READ ONLY');
    try {
      await c.query('SELECT balcao_definir_lojista(1)');
      await c.query('SET LOCAL statement_timeout = 20000');
      await expect(
        c.query(
          `SELECT g, repeat('x', 500) AS pad FROM generate_series(1, 400000) g ORDER BY g DESC`,
        ),
      ).rejects.toMatchObject({ code: '53400' });
    } finally {
      await c.query('ROLLBACK');
    }
  });

  it('no callable SECURITY DEFINER function in public is executable by it but the tenant setter and the current rollups', async () => {
    const r = await db.admin.query<{ f: string }>(
      `SELECT p.oid::regprocedure::text AS f FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace AND p.prosecdef
          AND p.prorettype <> 'trigger'::regtype -- trigger functions cannot be called directly
          AND has_function_privilege('balcao_analytics', p.oid, 'EXECUTE') ORDER BY 1`,
    );
    // balcao_frescor()/balcao_migracoes() (issue #16) are read by the APP role on the analytics
    // endpoint since #12 round 2 (a standby's replay time is cluster-wide activity).
    // vendas_pendentes_lojista() (issue #15) is no longer one of them (migration 0790): read apart
    // from the folded rollups it told reversed sales. The current-state rollups return only sums
    // of the tenant's approved sales (test/integration/vendas-atuais-isolamento.test.ts).
    expect(r.rows.map((x) => x.f)).toEqual([
      'balcao_definir_lojista(bigint)',
      'vendas_dia_modalidade_atuais(date,date)',
      'vendas_dia_totais_atuais(date,date)',
      'vendas_diarias_atuais(date,date)',
      'vendas_horarias_atuais(date,date)',
      'vendas_mensais_atuais(date,date)',
      'vendas_mes_hora_atuais(date,date)',
    ]);
  });

  it('the app role keeps the statistics and WAL functions PUBLIC lost (#12)', async () => {
    await db.app.query(`SELECT pg_stat_get_live_tuples('transacoes'::regclass)`);
    await db.app.query('SELECT pg_current_wal_lsn(), pg_is_in_recovery()');
    await db.app.query('SELECT * FROM balcao_frescor()');
    await db.app.query('SELECT count(*) FROM pg_stat_activity');
    await db.app.query('SELECT count(*) FROM pg_locks');
  });
});

describe('the whole reach, pinned (#12 point 2): a new view, extension or upgrade must be looked at', () => {
  it('the relations it may read, in every schema, are exactly the two tenant views', async () => {
    const r = await db.admin.query<{ rel: string }>(
      `SELECT n.nspname || '.' || c.relname AS rel
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE has_schema_privilege('balcao_analytics', n.oid, 'USAGE')
          AND has_table_privilege('balcao_analytics', c.oid, 'SELECT,INSERT,UPDATE,DELETE,TRUNCATE,REFERENCES,TRIGGER')
        ORDER BY 1`,
    );
    // pg_catalog and information_schema included: their catalogs and pg_stat* views are revoked.
    expect(r.rows.map((x) => x.rel)).toEqual(['public.vendas_aprovadas', 'public.vendas_ia']);
  });

  it('no function it may execute reads activity: statistics, sizes, WAL/xid/commit positions, locks, files, sleeps, session setters', async () => {
    const r = await db.admin.query<{ f: string }>(
      `SELECT p.oid::regprocedure::text AS f FROM pg_proc p
        WHERE has_schema_privilege('balcao_analytics', p.pronamespace, 'USAGE')
          AND has_function_privilege('balcao_analytics', p.oid, 'EXECUTE')
          AND (p.proname ~ $1
               OR p.oid IN ('pg_catalog.age(xid)'::regprocedure, 'pg_catalog.mxid_age(xid)'::regprocedure))
        ORDER BY 1`,
      [
        '^(pg_stat_|pg_stat$|pg_.*_size$|pg_(current|last)_|txid_current|pg_xact_|pg_control_|' +
          'pg_is_in_recovery|pg_is_wal|pg_get_wal_replay|pg_lock_status|pg_blocking_pids|' +
          'pg_safe_snapshot|pg_postmaster_start_time|pg_conf_load_time|pg_show_all_settings|' +
          'pg_notification_queue_usage|pg_relation_file|pg_filenode|pg_tablespace_(databases|location)|' +
          'pg_get_replication_slots|pg_prepared_xact|pg_get_multixact|setseed$|set_config$|set_limit$|' +
          'pg_(try_)?advisory|pg_sleep|pg_notify$|pg_terminate_backend|pg_cancel_backend|' +
          'pg_read_|pg_ls_|lo_|balcao_frescor|balcao_migracoes)',
      ],
    );
    // pg_column_size measures its own argument. PostgreSQL 15 (not 18) still has
    // pg_read_file_old, which refuses a non-superuser inside.
    const found = r.rows.map((x) => x.f);
    const OLD = 'pg_read_file_old(text,bigint,bigint)';
    expect(found.filter((f) => f !== OLD)).toEqual(['pg_column_size("any")']);
    if (found.includes(OLD)) {
      await expect(asTenant(`SELECT pg_read_file_old('postgresql.conf', 0, 10)`)).rejects.toThrow(
        /permission denied|must be superuser/,
      );
    }
  });

  it('outside the catalog it may execute only the tenant setter, the current rollups, pg_trgm and trigger functions', async () => {
    const r = await db.admin.query<{ f: string }>(
      `SELECT p.oid::regprocedure::text AS f FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND has_schema_privilege('balcao_analytics', n.oid, 'USAGE')
          AND has_function_privilege('balcao_analytics', p.oid, 'EXECUTE')
          AND p.prorettype <> 'trigger'::regtype -- callable only by their triggers
          AND p.oid NOT IN (SELECT objid FROM pg_depend
                             WHERE classid = 'pg_proc'::regclass AND deptype = 'e'
                               AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_trgm'))
        ORDER BY 1`,
    );
    expect(r.rows.map((x) => x.f)).toEqual([
      'balcao_definir_lojista(bigint)',
      'balcao_lojista_atual()',
      'balcao_lojista_rollup()',
      'balcao_normalizar_pergunta(text)',
      'balcao_relatorio_linha(extracoes,integer)',
      'balcao_rollup_zona()',
      'vendas_dia_modalidade_atuais(date,date)',
      'vendas_dia_totais_atuais(date,date)',
      'vendas_diarias_atuais(date,date)',
      'vendas_horarias_atuais(date,date)',
      'vendas_mensais_atuais(date,date)',
      'vendas_mes_hora_atuais(date,date)',
    ]);
  });
});

describe('opaque ids (#12 point 1)', () => {
  it('vendas_ia.id is not the global id, is stable, and its key is unreadable', async () => {
    const real = await db.admin.query<{ id: string }>(
      `SELECT id::text FROM transacoes WHERE merchant_id = 1 AND status = 'aprovada' ORDER BY id`,
    );
    const ids = async () =>
      (await asTenant('SELECT id::text AS id FROM vendas_ia ORDER BY aprovada_em')).rows.map(
        (x: { id: string }) => x.id,
      );
    const a = await ids();
    expect(a).toHaveLength(real.rows.length);
    expect(new Set(a).size).toBe(a.length);
    for (const id of a) {
      expect(real.rows.map((x) => x.id)).not.toContain(id);
      expect(BigInt(id) > 0n).toBe(true);
    }
    expect(await ids()).toEqual(a);
    // Consecutive global ids are not consecutive opaque ids: no gap arithmetic.
    const gaps = (
      await asTenant('SELECT (max(id) - min(id) - count(*) + 1)::text AS buraco FROM vendas_ia')
    ).rows[0] as { buraco: string };
    expect(BigInt(gaps.buraco) > 1_000_000n).toBe(true);
    await expect(asTenant('SELECT chave FROM vendas_ia_chave')).rejects.toThrow(
      /permission denied/,
    );
    const types = await db.admin.query<{ t: string }>(
      `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute
        WHERE attrelid = 'vendas_ia'::regclass AND attname = 'id'`,
    );
    expect(types.rows[0]?.t).toBe('bigint');
  });
});
