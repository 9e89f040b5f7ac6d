-- Up Migration

-- #11 Bounded waits. The app sets its configured timeouts per transaction with SET LOCAL
-- (BALCAO_DB_*_TIMEOUT_MS; works through PgBouncer transaction pooling, unlike startup
-- parameters). These role defaults are the backstop for any statement outside such a
-- transaction: no lock wait, statement or idle transaction of the app role is unbounded.
-- ALTER ROLE writes a cluster-wide catalog row: skip when already set, retry on a concurrent
-- update, warn (not fail) without the privilege.
DO $limits$
DECLARE
  item text[];
  attempt int;
BEGIN
  -- {role, name, value as SQL, value as stored in pg_db_role_setting}
  FOREACH item SLICE 1 IN ARRAY ARRAY[
    ['balcao_app', 'statement_timeout', '''15s''', '15s'],
    ['balcao_app', 'lock_timeout', '''3s''', '3s'],
    ['balcao_app', 'idle_in_transaction_session_timeout', '''30s''', '30s'],
    ['balcao_analytics', 'lock_timeout', '''3s''', '3s']
  ] LOOP
    CONTINUE WHEN EXISTS (
      SELECT 1 FROM pg_db_role_setting s
       WHERE s.setrole = item[1]::regrole AND s.setdatabase = 0
         AND (item[2] || '=' || item[4]) = ANY (s.setconfig));
    FOR attempt IN 1..20 LOOP
      BEGIN
        EXECUTE format('ALTER ROLE %I SET %I = %s', item[1], item[2], item[3]);
        EXIT;
      EXCEPTION
        WHEN insufficient_privilege THEN
          RAISE WARNING 'sem privilégio para ALTER ROLE % SET %', item[1], item[2];
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
-- Role settings are cluster-wide and harmless; they stay.
SELECT 1;
