-- Up Migration
-- Review-queue counters (issue #15): the queue's first page shows counts per status without
-- counting 700k open rows. Same design as the sales rollups (0580): writers only APPEND deltas
-- (no upsert, no shared row, so two agents never wait on each other), a background fold moves
-- them into `fila_contagens`, and a read sums the folded counts and the unfolded deltas in one
-- statement (one snapshot): exact for every committed claim, confirm, discard or re-run.
--
-- Keys: (fila_estado, merchant_id, status); merchant_id 0 holds every merchant's total, so the
-- unfiltered first page reads 3 rows (+ the few deltas not folded yet).

CREATE TABLE fila_contagens (
  fila_estado text NOT NULL,
  merchant_id bigint NOT NULL,
  status text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (fila_estado, merchant_id, status)
);

CREATE TABLE fila_contagens_delta (
  fila_estado text NOT NULL,
  merchant_id bigint NOT NULL,
  status text NOT NULL,
  n int NOT NULL
);
CREATE INDEX fila_contagens_delta_chave ON fila_contagens_delta (fila_estado, merchant_id);

-- One trigger function for INSERT, UPDATE and DELETE (statement level, transition tables): the
-- rows' keys before (−1) and after (+1), per merchant and in total; unchanged keys cancel out.
CREATE FUNCTION balcao_fila_contar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fila_contagens_delta (fila_estado, merchant_id, status, n)
    SELECT fila_estado, m, status, sum(c)::int
      FROM (SELECT fila_estado, merchant_id AS m, status, 1 AS c FROM novas
            UNION ALL SELECT fila_estado, 0, status, 1 FROM novas) x
     GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fila_contagens_delta (fila_estado, merchant_id, status, n)
    SELECT fila_estado, m, status, -sum(c)::int
      FROM (SELECT fila_estado, merchant_id AS m, status, 1 AS c FROM antigas
            UNION ALL SELECT fila_estado, 0, status, 1 FROM antigas) x
     GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO fila_contagens_delta (fila_estado, merchant_id, status, n)
    SELECT fila_estado, m, status, sum(c)::int
      FROM (SELECT fila_estado, merchant_id AS m, status, 1 AS c FROM novas
            UNION ALL SELECT fila_estado, 0, status, 1 FROM novas
            UNION ALL SELECT fila_estado, merchant_id, status, -1 FROM antigas
            UNION ALL SELECT fila_estado, 0, status, -1 FROM antigas) x
     GROUP BY 1, 2, 3
    HAVING sum(c) <> 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER extracoes_contar_ins AFTER INSERT ON extracoes
  REFERENCING NEW TABLE AS novas FOR EACH STATEMENT EXECUTE FUNCTION balcao_fila_contar();
CREATE TRIGGER extracoes_contar_upd AFTER UPDATE ON extracoes
  REFERENCING OLD TABLE AS antigas NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION balcao_fila_contar();
CREATE TRIGGER extracoes_contar_del AFTER DELETE ON extracoes
  REFERENCING OLD TABLE AS antigas FOR EACH STATEMENT EXECUTE FUNCTION balcao_fila_contar();

-- Recount from the table (after TRUNCATE, a bulk load with triggers off, or by hand). Takes a
-- SHARE lock on extracoes for the count so no write slips between the count and the swap.
CREATE FUNCTION balcao_fila_recontar() RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  LOCK TABLE extracoes IN SHARE MODE;
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  INSERT INTO fila_contagens (fila_estado, merchant_id, status, n)
  SELECT fila_estado, merchant_id, status, count(*) FROM extracoes GROUP BY 1, 2, 3
  UNION ALL
  SELECT fila_estado, 0, status, count(*) FROM extracoes GROUP BY 1, 3;
END
$$;

CREATE FUNCTION balcao_fila_truncada() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  RETURN NULL;
END
$$;
CREATE TRIGGER extracoes_contar_truncate AFTER TRUNCATE ON extracoes
  FOR EACH STATEMENT EXECUTE FUNCTION balcao_fila_truncada();

-- The fold: moves every delta this snapshot sees into the counts, in one statement (a reader
-- sees either both sides before or both after). One folder at a time (try-lock: a second one
-- returns -1 at once). A kill midway rolls the whole statement back.
CREATE FUNCTION balcao_fila_consolidar() RETURNS int
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  k int;
BEGIN
  IF NOT pg_try_advisory_xact_lock(740, 1) THEN
    RETURN -1;
  END IF;
  WITH d AS (DELETE FROM fila_contagens_delta RETURNING fila_estado, merchant_id, status, n)
  INSERT INTO fila_contagens AS f (fila_estado, merchant_id, status, n)
  SELECT fila_estado, merchant_id, status, sum(n) FROM d GROUP BY 1, 2, 3
  ON CONFLICT (fila_estado, merchant_id, status) DO UPDATE SET n = f.n + excluded.n;
  GET DIAGNOSTICS k = ROW_COUNT;
  RETURN k;
END
$$;

-- The counts of one part of the queue (merchant 0 = all), exact in one snapshot.
CREATE FUNCTION balcao_fila_contagens(p_fila_estado text, p_merchant bigint)
  RETURNS TABLE (status text, n bigint)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT status, sum(n)::bigint FROM (
    SELECT status, n FROM fila_contagens
     WHERE fila_estado = p_fila_estado AND merchant_id = p_merchant
    UNION ALL
    SELECT status, n FROM fila_contagens_delta
     WHERE fila_estado = p_fila_estado AND merchant_id = p_merchant) x
  GROUP BY status
$$;

SELECT balcao_fila_recontar();

REVOKE ALL ON fila_contagens, fila_contagens_delta FROM PUBLIC;
REVOKE ALL ON FUNCTION balcao_fila_contar(), balcao_fila_truncada(), balcao_fila_recontar(),
  balcao_fila_consolidar(), balcao_fila_contagens(text, bigint) FROM PUBLIC;
DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['balcao_app', 'balcao_suporte', 'balcao_supervisor'] LOOP
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('GRANT EXECUTE ON FUNCTION balcao_fila_contagens(text, bigint), balcao_fila_consolidar() TO %I', r);
    END IF;
  END LOOP;
END
$$;

-- Down Migration
DROP TRIGGER IF EXISTS extracoes_contar_truncate ON extracoes;
DROP TRIGGER IF EXISTS extracoes_contar_del ON extracoes;
DROP TRIGGER IF EXISTS extracoes_contar_upd ON extracoes;
DROP TRIGGER IF EXISTS extracoes_contar_ins ON extracoes;
DROP FUNCTION IF EXISTS balcao_fila_contagens(text, bigint);
DROP FUNCTION IF EXISTS balcao_fila_consolidar();
DROP FUNCTION IF EXISTS balcao_fila_truncada();
DROP FUNCTION IF EXISTS balcao_fila_recontar();
DROP FUNCTION IF EXISTS balcao_fila_contar();
DROP TABLE IF EXISTS fila_contagens_delta, fila_contagens;
