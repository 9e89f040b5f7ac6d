-- Up Migration

-- Read replicas (#16). The analytics role may point at a hot standby; every answer then says how
-- fresh its data is. The role cannot read the catalogs or statistics views (layer 2 of the
-- free-SQL guard revokes them), so the facts come from two SECURITY DEFINER functions that
-- return only replication state and the migration count: nothing of any tenant.

-- Freshness of this server's data, as of this transaction:
--   em_recuperacao: true on a standby;
--   atraso_s: 0 on a primary, and on a standby whose WAL receiver is streaming and that has
--     replayed everything it received; otherwise the age of the last replayed commit (an upper
--     bound: a primary that was idle before its latest write makes it look older), NULL when
--     nothing was replayed since the standby started;
--   dados_ate: the instant up to which the data is complete (now() when caught up, else the
--     commit time of the last replayed transaction);
--   ultima_reproducao: pg_last_xact_replay_timestamp() as is.
CREATE FUNCTION balcao_frescor(
  OUT em_recuperacao boolean,
  OUT dados_ate timestamptz,
  OUT atraso_s double precision,
  OUT ultima_reproducao timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  SELECT s.r,
         CASE WHEN NOT s.r OR s.em_dia THEN now() ELSE s.ts END,
         CASE WHEN NOT s.r OR s.em_dia THEN 0::double precision
              ELSE greatest(0, extract(epoch FROM now() - s.ts))::double precision END,
         s.ts
    FROM (SELECT pg_is_in_recovery() AS r,
                 pg_last_xact_replay_timestamp() AS ts,
                 pg_is_in_recovery()
                   AND pg_last_wal_receive_lsn() IS NOT NULL
                   AND pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn()
                   AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver w WHERE w.status = 'streaming')
                   AS em_dia) s
$fn$;
REVOKE ALL ON FUNCTION balcao_frescor() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_frescor() TO balcao_app, balcao_analytics;

-- Migrations applied on this server (a standby shows what it replayed), for `balcao db status`.
CREATE FUNCTION balcao_migracoes(OUT quantidade integer, OUT ultima text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  SELECT count(*)::integer, (SELECT m.name FROM public.pgmigrations m ORDER BY m.id DESC LIMIT 1)
    FROM public.pgmigrations
$fn$;
REVOKE ALL ON FUNCTION balcao_migracoes() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_migracoes() TO balcao_app, balcao_analytics;

-- Down Migration
DROP FUNCTION IF EXISTS balcao_migracoes();
DROP FUNCTION IF EXISTS balcao_frescor();
