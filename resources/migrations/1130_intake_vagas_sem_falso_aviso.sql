-- Up Migration
-- A release asked "does another session wait for a slot?" by trying the exclusive advisory lock
-- (621, 0) that waiters hold shared. Two releases asking at the same moment took each other for
-- a waiter: each one's try failed on the other's, and both notified 'balcao_vagas', waking every
-- worker for nothing (5 of 400 releases in pairs, measured by the intake test that found it).
-- Now the question is asked per slot: a waiter holds (621, k) shared for every k < least(cap, 16)
-- (its cap, BALCAO_MAX_EM_VOO), and the release of slot s tries (621, s % 16). Two sessions
-- never hold the same slot, so with caps up to 16 releases never meet; above 16 two releases meet
-- only on slots 16 apart (a spurious wake, never a missed one). A waiter that could take slot s
-- (s < its cap) always holds (621, s % 16): no freed slot it could use goes unannounced. At most
-- 16 locks per waiting session, whatever the cap.
CREATE OR REPLACE FUNCTION balcao_intake_liberar(p_vaga int) RETURNS boolean
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_unlock(620, p_vaga);
  IF pg_try_advisory_xact_lock(621, p_vaga % 16) THEN
    RETURN false;
  END IF;
  PERFORM pg_notify('balcao_vagas', '');
  RETURN true;
END
$$;

-- Says this session waits for one of the first p_cap slots (taken before its last look at them).
CREATE FUNCTION balcao_intake_espera(p_cap int) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_lock_shared(621, k) FROM generate_series(0, least(greatest(p_cap, 1), 16) - 1) k;
END
$$;

-- No longer waits.
CREATE FUNCTION balcao_intake_espera_fim(p_cap int) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_unlock_shared(621, k) FROM generate_series(0, least(greatest(p_cap, 1), 16) - 1) k;
END
$$;

REVOKE ALL ON FUNCTION balcao_intake_espera(int), balcao_intake_espera_fim(int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_intake_espera(int), balcao_intake_espera_fim(int) TO balcao_app;

-- Down Migration
DROP FUNCTION IF EXISTS balcao_intake_espera_fim(int);
DROP FUNCTION IF EXISTS balcao_intake_espera(int);
CREATE OR REPLACE FUNCTION balcao_intake_liberar(p_vaga int) RETURNS boolean
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_unlock(620, p_vaga);
  IF pg_try_advisory_xact_lock(621, 0) THEN
    RETURN false;
  END IF;
  PERFORM pg_notify('balcao_vagas', '');
  RETURN true;
END
$$;
