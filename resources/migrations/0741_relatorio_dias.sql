-- Up Migration
-- "Falhas de validação" per local day (issue #15: the 30-day report at 100k items), maintained
-- like the queue's counters (0740): writers append deltas, the background fold folds them, a read
-- sums both in one statement. Per (merchant_id — 0 = every merchant —, local day in
-- America/Sao_Paulo, status, attempts): extractions, with an amount alert, tokens and cost. The
-- report reads them when its zone is America/Sao_Paulo (the rollups' fixed zone); another zone
-- counts the rows. The most-failed rules still read the attempts of the period.

CREATE TABLE relatorio_dias (
  merchant_id bigint NOT NULL,
  dia date NOT NULL,
  status text NOT NULL,
  tentativas int NOT NULL,
  n bigint NOT NULL,
  alertas bigint NOT NULL,
  input_tokens bigint NOT NULL,
  output_tokens bigint NOT NULL,
  cache_read bigint NOT NULL,
  cache_write bigint NOT NULL,
  custo numeric NOT NULL,
  PRIMARY KEY (merchant_id, dia, status, tentativas)
);

CREATE TABLE relatorio_dias_delta (LIKE relatorio_dias);
CREATE INDEX relatorio_dias_delta_chave ON relatorio_dias_delta (merchant_id, dia);

-- One row's contribution; the same expressions as the report's own query.
CREATE FUNCTION balcao_relatorio_linha(e extracoes, s int)
  RETURNS relatorio_dias LANGUAGE sql STABLE AS $$
  SELECT ROW(e.merchant_id, (e.criada_em AT TIME ZONE 'America/Sao_Paulo')::date, e.status,
             e.tentativas, s,
             CASE WHEN jsonb_typeof(e.alertas) = 'array' AND jsonb_array_length(e.alertas) > 0
                  THEN s ELSE 0 END,
             s * coalesce((e.uso ->> 'input_tokens')::bigint, 0),
             s * coalesce((e.uso ->> 'output_tokens')::bigint, 0),
             s * coalesce((e.uso ->> 'cache_read_input_tokens')::bigint, 0),
             s * coalesce((e.uso ->> 'cache_creation_input_tokens')::bigint, 0),
             s * coalesce(e.custo_estimado_usd, 0))::relatorio_dias
$$;

CREATE FUNCTION balcao_relatorio_contar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO relatorio_dias_delta
    SELECT m, dia, status, tentativas, sum(n), sum(alertas), sum(input_tokens), sum(output_tokens),
           sum(cache_read), sum(cache_write), sum(custo)
      FROM (SELECT (balcao_relatorio_linha(x, 1)).* FROM novas x) r,
           LATERAL (VALUES (r.merchant_id), (0)) AS k(m)
     GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO relatorio_dias_delta
    SELECT m, dia, status, tentativas, sum(n), sum(alertas), sum(input_tokens), sum(output_tokens),
           sum(cache_read), sum(cache_write), sum(custo)
      FROM (SELECT (balcao_relatorio_linha(x, -1)).* FROM antigas x) r,
           LATERAL (VALUES (r.merchant_id), (0)) AS k(m)
     GROUP BY 1, 2, 3, 4;
  ELSE
    INSERT INTO relatorio_dias_delta
    SELECT m, dia, status, tentativas, sum(n), sum(alertas), sum(input_tokens), sum(output_tokens),
           sum(cache_read), sum(cache_write), sum(custo)
      FROM (SELECT (balcao_relatorio_linha(x, 1)).* FROM novas x
            UNION ALL SELECT (balcao_relatorio_linha(x, -1)).* FROM antigas x) r,
           LATERAL (VALUES (r.merchant_id), (0)) AS k(m)
     GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(alertas) <> 0 OR sum(input_tokens) <> 0 OR sum(output_tokens) <> 0
        OR sum(cache_read) <> 0 OR sum(cache_write) <> 0 OR sum(custo) <> 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER extracoes_relatorio_ins AFTER INSERT ON extracoes
  REFERENCING NEW TABLE AS novas FOR EACH STATEMENT EXECUTE FUNCTION balcao_relatorio_contar();
CREATE TRIGGER extracoes_relatorio_upd AFTER UPDATE ON extracoes
  REFERENCING OLD TABLE AS antigas NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION balcao_relatorio_contar();
CREATE TRIGGER extracoes_relatorio_del AFTER DELETE ON extracoes
  REFERENCING OLD TABLE AS antigas FOR EACH STATEMENT EXECUTE FUNCTION balcao_relatorio_contar();

-- Recount (both the queue's counters and these) and TRUNCATE: as in 0740.
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

-- The fold: the queue's counters and these, each in one statement.
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

-- The report's rows for local days [de, ate] (merchant 0 = all), exact in one snapshot.
CREATE FUNCTION balcao_relatorio_dias(p_de date, p_ate date, p_merchant bigint)
  RETURNS TABLE (dia date, status text, tentativas int, n bigint, alertas bigint,
                 input_tokens bigint, output_tokens bigint, cache_read bigint,
                 cache_write bigint, custo numeric)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT dia, status, tentativas, sum(n)::bigint, sum(alertas)::bigint, sum(input_tokens)::bigint,
         sum(output_tokens)::bigint, sum(cache_read)::bigint, sum(cache_write)::bigint, sum(custo)
    FROM (SELECT * FROM relatorio_dias
           WHERE merchant_id = p_merchant AND dia BETWEEN p_de AND p_ate
          UNION ALL
          SELECT * FROM relatorio_dias_delta
           WHERE merchant_id = p_merchant AND dia BETWEEN p_de AND p_ate) x
   GROUP BY 1, 2, 3
  HAVING sum(n) <> 0
$$;

SELECT balcao_fila_recontar();

REVOKE ALL ON relatorio_dias, relatorio_dias_delta FROM PUBLIC;
REVOKE ALL ON FUNCTION balcao_relatorio_contar(), balcao_relatorio_dias(date, date, bigint)
  FROM PUBLIC;
DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['balcao_app', 'balcao_suporte', 'balcao_supervisor'] LOOP
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('GRANT EXECUTE ON FUNCTION balcao_relatorio_dias(date, date, bigint) TO %I', r);
    END IF;
  END LOOP;
END
$$;

-- Down Migration
DROP TRIGGER IF EXISTS extracoes_relatorio_del ON extracoes;
DROP TRIGGER IF EXISTS extracoes_relatorio_upd ON extracoes;
DROP TRIGGER IF EXISTS extracoes_relatorio_ins ON extracoes;
DROP FUNCTION IF EXISTS balcao_relatorio_dias(date, date, bigint);
DROP FUNCTION IF EXISTS balcao_relatorio_contar();
DROP TABLE IF EXISTS relatorio_dias_delta;
DROP FUNCTION IF EXISTS balcao_relatorio_linha(extracoes, int);
DROP TABLE IF EXISTS relatorio_dias;
-- 0740's versions of the shared functions.
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
END
$$;
CREATE OR REPLACE FUNCTION balcao_fila_truncada() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION balcao_fila_consolidar() RETURNS int
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
