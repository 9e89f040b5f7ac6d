-- Up Migration

-- Free-SQL guard, layer 2 (database): the `vendas_ia` view is the only thing the analytics role
-- may read for model-written SQL, and nothing that role can run may change the tenant, write,
-- read catalogs, sleep, lock, notify or run SQL hidden in strings. Roles are cluster-wide and
-- many databases share one server (tests run in parallel): every role step is idempotent and
-- tolerates a concurrent creator/updater; every privilege step is per database.

-- Owner of the view: a NOLOGIN role that can only read the sales columns the view exposes.
-- The view runs with its owner's privileges on `transacoes`, so it must not be a superuser
-- (a superuser owner would also bypass row security on anything added later).
DO $roles$
BEGIN
  BEGIN
    CREATE ROLE balcao_vendas_ia_dono NOLOGIN;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
END
$roles$;

GRANT SELECT (id, merchant_id, status, modalidade, bandeira, parcelas, valor_bruto_centavos,
              valor_liquido_centavos, aprovada_em)
  ON transacoes TO balcao_vendas_ia_dono;

-- Approved sales of the current tenant only. The tenant comes from balcao_lojista_atual()
-- (set once per transaction by balcao_definir_lojista, our code's validated integer), read once
-- per query through an InitPlan; no tenant = no rows. security_barrier keeps the tenant filter
-- below any (leaky) condition of the submitted query.
CREATE VIEW vendas_ia WITH (security_barrier = true) AS
SELECT t.id,
       t.modalidade,
       t.bandeira,
       t.parcelas,
       t.valor_bruto_centavos,
       t.valor_liquido_centavos,
       t.aprovada_em
  FROM transacoes t
 WHERE t.merchant_id = (SELECT balcao_lojista_atual())
   AND t.status = 'aprovada';

ALTER VIEW vendas_ia OWNER TO balcao_vendas_ia_dono;
REVOKE ALL ON vendas_ia FROM PUBLIC;
GRANT SELECT ON vendas_ia TO balcao_analytics;

COMMENT ON VIEW vendas_ia IS
  'Vendas aprovadas do lojista da transação (balcao_definir_lojista); única relação das consultas livres.';

-- Per-database hardening against the analytics role. A function so tests can re-apply it to a
-- database cloned from a template (CREATE DATABASE ... TEMPLATE does not copy database ACLs).
CREATE FUNCTION balcao_restringir_analytics() RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  f regprocedure;
  rel regclass;
  col record;
  definer regrole;
BEGIN
  -- 1. Functions no analytics query may call. PUBLIC loses EXECUTE; balcao_app keeps exactly what
  --    it had (it is not the role under attack here). Superuser-only functions (pg_read_file,
  --    lo_import/lo_export, pg_ls_dir, ...) already have no PUBLIC grant.
  FOR f IN
    SELECT p.oid::regprocedure
      FROM pg_proc p
     WHERE p.pronamespace = 'pg_catalog'::regnamespace
       AND (p.proacl IS NULL OR EXISTS (
             SELECT 1 FROM aclexplode(p.proacl) a WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE'))
       AND (p.proname IN (
              'set_config',                                        -- changes the tenant GUC
              'pg_sleep', 'pg_sleep_for', 'pg_sleep_until',        -- timing oracles, held connections
              'pg_notify',                                         -- cross-session side channel
              'pg_terminate_backend', 'pg_cancel_backend',         -- kill other analytics sessions
              'txid_current', 'txid_current_if_assigned', 'txid_current_snapshot',
              'pg_current_xact_id', 'pg_current_xact_id_if_assigned', 'pg_current_snapshot',
              'pg_export_snapshot', 'pg_logical_emit_message',
              'pg_stat_get_activity', 'pg_blocking_pids', 'pg_safe_snapshot_blocking_pids',
              'loread', 'lowrite')
            OR p.proname LIKE 'lo\_%'                              -- large objects
            OR p.proname LIKE 'pg\_advisory\_%'                    -- advisory locks (session locks
            OR p.proname LIKE 'pg\_try\_advisory\_%'               --   survive ROLLBACK)
            OR p.proname LIKE 'pg\_stat\_get\_backend\_%'          -- other sessions' queries
            OR p.proname ~ '^(query|cursor|table|schema|database)_to_xml')  -- run SQL in strings
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO balcao_app', f);
  END LOOP;

  -- balcao_definir_lojista is SECURITY DEFINER: its owner must keep set_config.
  SELECT p.proowner::regrole INTO definer FROM pg_proc p
   WHERE p.oid = 'public.balcao_definir_lojista(bigint)'::regprocedure;
  EXECUTE format('GRANT EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) TO %s', definer);

  -- 2. Catalogs and information_schema: no SELECT through PUBLIC (table- and column-level);
  --    balcao_app keeps what it had. The planner reads catalogs internally without these grants.
  FOR rel IN
    SELECT c.oid::regclass
      FROM pg_class c
     WHERE c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
       AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
       AND EXISTS (SELECT 1 FROM aclexplode(c.relacl) a WHERE a.grantee = 0)
  LOOP
    EXECUTE format('GRANT SELECT ON %s TO balcao_app', rel);
    EXECUTE format('REVOKE ALL ON %s FROM PUBLIC', rel);
  END LOOP;
  FOR col IN
    SELECT a.attrelid::regclass AS rel, a.attname
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
       AND a.attacl IS NOT NULL
       AND EXISTS (SELECT 1 FROM aclexplode(a.attacl) x WHERE x.grantee = 0)
  LOOP
    EXECUTE format('GRANT SELECT (%I) ON %s TO balcao_app', col.attname, col.rel);
    EXECUTE format('REVOKE ALL (%I) ON %s FROM PUBLIC', col.attname, col.rel);
  END LOOP;

  -- 3. No temporary objects (a temp relation could shadow names; a temp function could carry
  --    SET clauses). The app role keeps TEMP.
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO balcao_app', current_database());

  -- Fail closed: the textbook hole (SELECT set_config(...) from the submitted SQL) must be shut.
  IF has_function_privilege('balcao_analytics', 'pg_catalog.set_config(text, text, boolean)', 'EXECUTE') THEN
    RAISE EXCEPTION 'balcao_analytics ainda pode executar set_config; a migração precisa de um superusuário';
  END IF;
END
$fn$;
REVOKE ALL ON FUNCTION balcao_restringir_analytics() FROM PUBLIC;

SELECT balcao_restringir_analytics();

-- Role limits (backstops; the executor sets its own, stricter, per transaction). ALTER ROLE
-- writes a cluster-wide catalog row: skip when already set, retry on a concurrent update.
DO $limits$
DECLARE
  item text[];
  attempt int;
BEGIN
  -- {name, value as SQL, value as stored in pg_db_role_setting}
  FOREACH item SLICE 1 IN ARRAY ARRAY[
    ['temp_file_limit', '''64MB''', '64MB'],
    ['work_mem', '''4MB''', '4MB'],
    ['idle_in_transaction_session_timeout', '''10s''', '10s'],
    ['statement_timeout', '''15s''', '15s'],
    ['standard_conforming_strings', 'on', 'on'],
    ['search_path', 'pg_catalog, public, pg_temp', 'pg_catalog, public, pg_temp']
  ] LOOP
    CONTINUE WHEN EXISTS (
      SELECT 1 FROM pg_db_role_setting s
       WHERE s.setrole = 'balcao_analytics'::regrole AND s.setdatabase = 0
         AND (item[1] || '=' || item[3]) = ANY (s.setconfig));
    FOR attempt IN 1..20 LOOP
      BEGIN
        EXECUTE format('ALTER ROLE balcao_analytics SET %I = %s', item[1], item[2]);
        EXIT;
      EXCEPTION
        WHEN insufficient_privilege THEN
          RAISE WARNING 'sem privilégio para ALTER ROLE balcao_analytics SET %', item[1];
          EXIT;
        WHEN OTHERS THEN -- "tuple concurrently updated": another database migrating right now
          IF attempt = 20 THEN RAISE; END IF;
          PERFORM pg_sleep(0.02 * attempt);
      END;
    END LOOP;
  END LOOP;
END
$limits$;

-- Down Migration
DROP VIEW IF EXISTS vendas_ia;
DROP FUNCTION IF EXISTS balcao_restringir_analytics();
