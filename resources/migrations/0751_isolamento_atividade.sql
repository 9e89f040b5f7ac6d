-- Up Migration

-- #12 round 2: nothing about another merchant's ACTIVITY reaches the analytics role.
--
-- 1. vendas_ia.id was the global bigserial of transacoes: gaps between a merchant's own ids
--    counted the other merchants' rows (and its own declined/reversed sales). It is now an
--    opaque, stable identifier: the first 63 bits of sha256(key || id), with a random key per
--    installation that the analytics role cannot read. Same 7 columns, same names and types.
-- 2. Statistics, sizes, WAL/xid positions, lock and replication state, and functions that change
--    session state are revoked from PUBLIC (balcao_app and balcao_pessoa keep what they had).
-- 3. balcao_frescor()/balcao_migracoes() are no longer executable by the analytics role: the app
--    reads freshness on the analytics endpoint before the tenant transaction (a standby's replay
--    time is cluster-wide activity).

-- The key: one row, random (gen_random_uuid draws from the server's strong random source).
CREATE TABLE vendas_ia_chave (
  unica boolean PRIMARY KEY DEFAULT true CHECK (unica),
  chave bytea NOT NULL CHECK (length(chave) >= 16)
);
INSERT INTO vendas_ia_chave (chave)
VALUES (decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));
REVOKE ALL ON vendas_ia_chave FROM PUBLIC;
GRANT SELECT ON vendas_ia_chave TO balcao_vendas_ia_dono;
COMMENT ON TABLE vendas_ia_chave IS
  'Chave dos identificadores opacos de vendas_ia (#12); nunca legível pelo papel de análise.';

-- Same columns, names and types as 0300. The key is read once per query (an InitPlan); the id is
-- computed only when a query uses the column.
CREATE OR REPLACE VIEW vendas_ia WITH (security_barrier = true) AS
SELECT ((('x' || encode(substr(sha256((SELECT k.chave FROM vendas_ia_chave k) || int8send(t.id)),
                               1, 8), 'hex'))::bit(64)::bigint) & 9223372036854775807)::bigint AS id,
       t.modalidade,
       t.bandeira,
       t.parcelas,
       t.valor_bruto_centavos,
       t.valor_liquido_centavos,
       t.aprovada_em
  FROM transacoes t
 WHERE t.merchant_id = (SELECT balcao_lojista_atual())
   AND t.status = 'aprovada';

-- 2. Revocations. PUBLIC loses EXECUTE; every role that is not the analytics role and had it
--    through PUBLIC (the app role, the people's base role) gets it back explicitly.
DO $revogar$
DECLARE
  f regprocedure;
  grantee text;
BEGIN
  FOR f IN
    SELECT p.oid::regprocedure
      FROM pg_proc p
     WHERE (p.proacl IS NULL OR EXISTS (
             SELECT 1 FROM aclexplode(p.proacl) a WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE'))
       AND (
         -- statistics: pg_stat_get_live_tuples, pg_stat_get_db_xact_commit, pg_stat_get_wal, ...
         (p.pronamespace = 'pg_catalog'::regnamespace AND p.proname LIKE 'pg\_stat\_%')
         -- sizes and files: table sizes grow with every merchant's rows
         OR (p.pronamespace = 'pg_catalog'::regnamespace AND p.proname IN (
              'pg_relation_size', 'pg_total_relation_size', 'pg_table_size', 'pg_indexes_size',
              'pg_database_size', 'pg_tablespace_size', 'pg_relation_filenode',
              'pg_relation_filepath', 'pg_filenode_relation', 'pg_tablespace_databases',
              'pg_tablespace_location'))
         -- WAL, xid, commit and snapshot positions: the global write counter
         OR (p.pronamespace = 'pg_catalog'::regnamespace AND (
              p.proname ~ '^pg_(current|last)_(wal|xact)'
              OR p.proname IN (
                'pg_last_committed_xact', 'pg_xact_status', 'txid_status',
                'pg_xact_commit_timestamp', 'pg_xact_commit_timestamp_origin',
                'pg_get_multixact_members', 'pg_get_wal_replay_pause_state',
                'pg_is_wal_replay_paused', 'pg_is_in_recovery', 'pg_control_checkpoint',
                'pg_control_system', 'pg_control_init', 'pg_control_recovery',
                'pg_get_replication_slots', 'pg_lock_status', 'pg_prepared_xact',
                'pg_isolation_test_session_is_blocked', 'pg_notification_queue_usage',
                'pg_postmaster_start_time', 'pg_conf_load_time', 'pg_show_all_settings')
              OR p.oid IN ('pg_catalog.age(xid)'::regprocedure, 'pg_catalog.mxid_age(xid)'::regprocedure)))
         -- session state a SELECT could change without set_config
         OR (p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = 'setseed')
         OR p.proname = 'set_limit'                                 -- pg_trgm's threshold
       )
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    FOREACH grantee IN ARRAY ARRAY['balcao_app', 'balcao_pessoa'] LOOP
      IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = grantee) THEN
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', f, grantee);
      END IF;
    END LOOP;
  END LOOP;

  -- 3. Freshness and migration count: read with the app role (before the tenant transaction).
  REVOKE EXECUTE ON FUNCTION balcao_frescor(), balcao_migracoes() FROM balcao_analytics;

  -- Fail closed.
  IF has_function_privilege('balcao_analytics', 'pg_catalog.pg_stat_get_live_tuples(oid)', 'EXECUTE')
     OR has_function_privilege('balcao_analytics', 'pg_catalog.pg_current_wal_lsn()', 'EXECUTE')
     OR has_function_privilege('balcao_analytics', 'pg_catalog.age(xid)', 'EXECUTE')
     OR has_function_privilege('balcao_analytics', 'pg_catalog.pg_relation_size(regclass)', 'EXECUTE')
     OR has_function_privilege('balcao_analytics', 'balcao_frescor()', 'EXECUTE') THEN
    RAISE EXCEPTION 'balcao_analytics ainda alcança estatísticas ou posições do WAL; a migração precisa de um superusuário';
  END IF;
END
$revogar$;

-- Down Migration
CREATE OR REPLACE VIEW vendas_ia WITH (security_barrier = true) AS
SELECT t.id, t.modalidade, t.bandeira, t.parcelas, t.valor_bruto_centavos,
       t.valor_liquido_centavos, t.aprovada_em
  FROM transacoes t
 WHERE t.merchant_id = (SELECT balcao_lojista_atual())
   AND t.status = 'aprovada';
DROP TABLE IF EXISTS vendas_ia_chave;
GRANT EXECUTE ON FUNCTION balcao_frescor(), balcao_migracoes() TO balcao_analytics;
