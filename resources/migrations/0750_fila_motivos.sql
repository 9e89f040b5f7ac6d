-- Up Migration
-- The queue's filter menus (issue #15, "every screen under 10 ms"): open items per merchant come
-- from the counters of 0740 (their per-merchant rows); open items per reason from `fila_motivos`,
-- maintained the same way (append-only deltas, the same fold, reads add the unfolded deltas).

CREATE TABLE fila_motivos (
  fila_estado text NOT NULL,
  motivo_codigo text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (fila_estado, motivo_codigo)
);
CREATE TABLE fila_motivos_delta (
  fila_estado text NOT NULL,
  motivo_codigo text NOT NULL,
  n int NOT NULL
);
CREATE INDEX fila_motivos_delta_chave ON fila_motivos_delta (fila_estado);

CREATE FUNCTION balcao_fila_motivos_contar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fila_motivos_delta (fila_estado, motivo_codigo, n)
    SELECT fila_estado, motivo_codigo, count(*) FROM novas
     WHERE motivo_codigo IS NOT NULL GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fila_motivos_delta (fila_estado, motivo_codigo, n)
    SELECT fila_estado, motivo_codigo, -count(*) FROM antigas
     WHERE motivo_codigo IS NOT NULL GROUP BY 1, 2;
  ELSE
    INSERT INTO fila_motivos_delta (fila_estado, motivo_codigo, n)
    SELECT fila_estado, motivo_codigo, sum(c)::int
      FROM (SELECT fila_estado, motivo_codigo, 1 AS c FROM novas
            UNION ALL SELECT fila_estado, motivo_codigo, -1 FROM antigas) x
     WHERE motivo_codigo IS NOT NULL
     GROUP BY 1, 2
    HAVING sum(c) <> 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER extracoes_motivos_ins AFTER INSERT ON extracoes
  REFERENCING NEW TABLE AS novas FOR EACH STATEMENT EXECUTE FUNCTION balcao_fila_motivos_contar();
CREATE TRIGGER extracoes_motivos_upd AFTER UPDATE ON extracoes
  REFERENCING OLD TABLE AS antigas NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION balcao_fila_motivos_contar();
CREATE TRIGGER extracoes_motivos_del AFTER DELETE ON extracoes
  REFERENCING OLD TABLE AS antigas FOR EACH STATEMENT EXECUTE FUNCTION balcao_fila_motivos_contar();

CREATE OR REPLACE FUNCTION balcao_fila_recontar() RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  LOCK TABLE extracoes IN SHARE MODE;
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  INSERT INTO fila_contagens (fila_estado, merchant_id, status, n)
  SELECT fila_estado, merchant_id, status, count(*) FROM extracoes GROUP BY 1, 2, 3
  UNION ALL
  SELECT fila_estado, 0, status, count(*) FROM extracoes GROUP BY 1, 3;
  DELETE FROM fila_motivos_delta;
  DELETE FROM fila_motivos;
  INSERT INTO fila_motivos (fila_estado, motivo_codigo, n)
  SELECT fila_estado, motivo_codigo, count(*) FROM extracoes
   WHERE motivo_codigo IS NOT NULL GROUP BY 1, 2;
  DELETE FROM relatorio_dias_delta;
  DELETE FROM relatorio_dias;
  INSERT INTO relatorio_dias
  SELECT m, dia, status, tentativas, sum(n), sum(alertas), sum(input_tokens), sum(output_tokens),
         sum(cache_read), sum(cache_write), sum(custo)
    FROM (SELECT (balcao_relatorio_linha(x, 1)).* FROM extracoes x) r,
         LATERAL (VALUES (r.merchant_id), (0)) AS k(m)
   GROUP BY 1, 2, 3, 4;
END
$$;

CREATE OR REPLACE FUNCTION balcao_fila_truncada() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  DELETE FROM fila_motivos_delta;
  DELETE FROM fila_motivos;
  DELETE FROM relatorio_dias_delta;
  DELETE FROM relatorio_dias;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION balcao_fila_consolidar() RETURNS int
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  k int;
  j int;
BEGIN
  IF NOT pg_try_advisory_xact_lock(740, 1) THEN
    RETURN -1;
  END IF;
  WITH d AS (DELETE FROM fila_contagens_delta RETURNING fila_estado, merchant_id, status, n)
  INSERT INTO fila_contagens AS f (fila_estado, merchant_id, status, n)
  SELECT fila_estado, merchant_id, status, sum(n) FROM d GROUP BY 1, 2, 3
  ON CONFLICT (fila_estado, merchant_id, status) DO UPDATE SET n = f.n + excluded.n;
  GET DIAGNOSTICS k = ROW_COUNT;
  WITH d AS (DELETE FROM relatorio_dias_delta RETURNING *)
  INSERT INTO relatorio_dias AS f
  SELECT merchant_id, dia, status, tentativas, sum(n), sum(alertas), sum(input_tokens),
         sum(output_tokens), sum(cache_read), sum(cache_write), sum(custo)
    FROM d GROUP BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, dia, status, tentativas) DO UPDATE
     SET n = f.n + excluded.n, alertas = f.alertas + excluded.alertas,
         input_tokens = f.input_tokens + excluded.input_tokens,
         output_tokens = f.output_tokens + excluded.output_tokens,
         cache_read = f.cache_read + excluded.cache_read,
         cache_write = f.cache_write + excluded.cache_write,
         custo = f.custo + excluded.custo;
  GET DIAGNOSTICS j = ROW_COUNT;
  k := k + j;
  WITH d AS (DELETE FROM fila_motivos_delta RETURNING fila_estado, motivo_codigo, n)
  INSERT INTO fila_motivos AS f (fila_estado, motivo_codigo, n)
  SELECT fila_estado, motivo_codigo, sum(n) FROM d GROUP BY 1, 2
  ON CONFLICT (fila_estado, motivo_codigo) DO UPDATE SET n = f.n + excluded.n;
  GET DIAGNOSTICS j = ROW_COUNT;
  RETURN k + j;
END
$$;

-- Items of one view per reason, and per merchant (from 0740's per-merchant rows), exact.
CREATE FUNCTION balcao_fila_motivos(p_fila_estado text)
  RETURNS TABLE (motivo_codigo text, n bigint)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT motivo_codigo, sum(n)::bigint FROM (
    SELECT motivo_codigo, n FROM fila_motivos WHERE fila_estado = p_fila_estado
    UNION ALL
    SELECT motivo_codigo, n FROM fila_motivos_delta WHERE fila_estado = p_fila_estado) x
  GROUP BY 1 HAVING sum(n) <> 0
$$;

CREATE FUNCTION balcao_fila_por_lojista(p_fila_estado text)
  RETURNS TABLE (merchant_id bigint, n bigint)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT merchant_id, sum(n)::bigint FROM (
    SELECT merchant_id, n FROM fila_contagens WHERE fila_estado = p_fila_estado AND merchant_id <> 0
    UNION ALL
    SELECT merchant_id, n FROM fila_contagens_delta
     WHERE fila_estado = p_fila_estado AND merchant_id <> 0) x
  GROUP BY 1 HAVING sum(n) <> 0
$$;

SELECT balcao_fila_recontar();

REVOKE ALL ON fila_motivos, fila_motivos_delta FROM PUBLIC;
REVOKE ALL ON FUNCTION balcao_fila_motivos_contar(), balcao_fila_motivos(text),
  balcao_fila_por_lojista(text) FROM PUBLIC;
DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['balcao_app', 'balcao_suporte', 'balcao_supervisor'] LOOP
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('GRANT EXECUTE ON FUNCTION balcao_fila_motivos(text), balcao_fila_por_lojista(text) TO %I', r);
    END IF;
  END LOOP;
END
$$;

-- Down Migration
DROP TRIGGER IF EXISTS extracoes_motivos_del ON extracoes;
DROP TRIGGER IF EXISTS extracoes_motivos_upd ON extracoes;
DROP TRIGGER IF EXISTS extracoes_motivos_ins ON extracoes;
DROP FUNCTION IF EXISTS balcao_fila_por_lojista(text);
DROP FUNCTION IF EXISTS balcao_fila_motivos(text);
DROP FUNCTION IF EXISTS balcao_fila_motivos_contar();
-- 0741's versions of the shared functions (before the tables they no longer name go).
CREATE OR REPLACE FUNCTION balcao_fila_recontar() RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  LOCK TABLE extracoes IN SHARE MODE;
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  INSERT INTO fila_contagens (fila_estado, merchant_id, status, n)
  SELECT fila_estado, merchant_id, status, count(*) FROM extracoes GROUP BY 1, 2, 3
  UNION ALL
  SELECT fila_estado, 0, status, count(*) FROM extracoes GROUP BY 1, 3;
  DELETE FROM relatorio_dias_delta;
  DELETE FROM relatorio_dias;
  INSERT INTO relatorio_dias
  SELECT m, dia, status, tentativas, sum(n), sum(alertas), sum(input_tokens), sum(output_tokens),
         sum(cache_read), sum(cache_write), sum(custo)
    FROM (SELECT (balcao_relatorio_linha(x, 1)).* FROM extracoes x) r,
         LATERAL (VALUES (r.merchant_id), (0)) AS k(m)
   GROUP BY 1, 2, 3, 4;
END
$$;

CREATE OR REPLACE FUNCTION balcao_fila_truncada() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  DELETE FROM relatorio_dias_delta;
  DELETE FROM relatorio_dias;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION balcao_fila_consolidar() RETURNS int
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  k int;
  j int;
BEGIN
  IF NOT pg_try_advisory_xact_lock(740, 1) THEN
    RETURN -1;
  END IF;
  WITH d AS (DELETE FROM fila_contagens_delta RETURNING fila_estado, merchant_id, status, n)
  INSERT INTO fila_contagens AS f (fila_estado, merchant_id, status, n)
  SELECT fila_estado, merchant_id, status, sum(n) FROM d GROUP BY 1, 2, 3
  ON CONFLICT (fila_estado, merchant_id, status) DO UPDATE SET n = f.n + excluded.n;
  GET DIAGNOSTICS k = ROW_COUNT;
  WITH d AS (DELETE FROM relatorio_dias_delta RETURNING *)
  INSERT INTO relatorio_dias AS f
  SELECT merchant_id, dia, status, tentativas, sum(n), sum(alertas), sum(input_tokens),
         sum(output_tokens), sum(cache_read), sum(cache_write), sum(custo)
    FROM d GROUP BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, dia, status, tentativas) DO UPDATE
     SET n = f.n + excluded.n, alertas = f.alertas + excluded.alertas,
         input_tokens = f.input_tokens + excluded.input_tokens,
         output_tokens = f.output_tokens + excluded.output_tokens,
         cache_read = f.cache_read + excluded.cache_read,
         cache_write = f.cache_write + excluded.cache_write,
         custo = f.custo + excluded.custo;
  GET DIAGNOSTICS j = ROW_COUNT;
  RETURN k + j;
END
$$;
DROP TABLE IF EXISTS fila_motivos_delta, fila_motivos;
