-- Up Migration

-- Issue #17, Balcão's own time per message: the in-flight cap without a catalog scan per
-- request, and without a notification per request when no one waits; and the outcome's
-- one-statement write (below).
-- * The caller names the slots its session holds (it tracks them; a slot whose unlock failed
--   stays named until the session ends), instead of a pg_locks scan on every request.
-- * A session waiting for a slot holds the shared advisory lock (621, 0). A release notifies
--   'balcao_vagas' only when some other session holds it. A waiter takes the lock BEFORE its
--   last look at the slots, so a slot freed before that look is seen by it, and one freed after
--   it notifies.
CREATE FUNCTION balcao_intake_vaga(p_cap int, p_minhas int[]) RETURNS int
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  ate timestamptz;
  s int;
BEGIN
  SELECT pausado_ate INTO ate FROM intake_limites;
  IF ate IS NOT NULL AND ate > now() THEN
    -- negative: milliseconds to wait for the shared pause
    RETURN -greatest(1, ceil(extract(epoch FROM ate - now()) * 1000))::int;
  END IF;
  -- Advisory locks are re-entrant in a session: skip the slots this session already holds.
  FOR s IN 0 .. greatest(p_cap, 1) - 1 LOOP
    IF s <> ALL (coalesce(p_minhas, '{}')) AND pg_try_advisory_lock(620, s) THEN
      RETURN s;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;

-- Frees a slot; true when it notified (another session waits for a slot).
CREATE FUNCTION balcao_intake_liberar(p_vaga int) RETURNS boolean
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

-- The intake writes a new message's whole outcome in one statement, committed on its own (no
-- BEGIN/COMMIT round trips). Its last step concludes the message only while the worker's lease
-- holds; when it does not, this aborts the statement, and with it every row it wrote.
CREATE FUNCTION balcao_intake_reserva_perdida() RETURNS boolean
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'BL003',
    MESSAGE = 'A reserva da mensagem expirou; outro worker continua dela.';
END
$$;

REVOKE ALL ON FUNCTION balcao_intake_vaga(int, int[]), balcao_intake_liberar(int),
  balcao_intake_reserva_perdida() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_intake_vaga(int, int[]), balcao_intake_liberar(int),
  balcao_intake_reserva_perdida() TO balcao_app;

-- Down Migration
DROP FUNCTION IF EXISTS balcao_intake_reserva_perdida();
DROP FUNCTION IF EXISTS balcao_intake_liberar(int);
DROP FUNCTION IF EXISTS balcao_intake_vaga(int, int[]);
