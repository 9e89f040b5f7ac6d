-- Up Migration
-- The queue's situation (issue #13, "status badges and counts from one definition"): what the
-- list, the item header and the counters show, derived in ONE place — this generated column.
--   aguardando_lojista  the question went to the merchant (aguardando_desde, or the intake's
--                       fila_estado 'aguardando_lojista')
--   com_alerta          complete, with an alert (amount differs from the text…)
--   completo            complete and nothing to flag (e.g. a re-run after the merchant answered)
--   incompleto, falhou  as the status
-- `aguardando_desde` is when the question went out; a trigger keeps it (set by the intake's
-- state too, cleared when the item leaves the queue or the intake takes the answer).
-- The counters of 0740 now count the situation (their `status` key holds it): exact as before.

ALTER TABLE extracoes
  ADD COLUMN aguardando_desde timestamptz,
  ADD COLUMN situacao text GENERATED ALWAYS AS (
    CASE
      WHEN aguardando_desde IS NOT NULL OR fila_estado = 'aguardando_lojista'
        THEN 'aguardando_lojista'
      WHEN status = 'completo' AND jsonb_typeof(alertas) = 'array'
           AND jsonb_array_length(alertas) > 0
        THEN 'com_alerta'
      ELSE status
    END
  ) STORED;

COMMENT ON COLUMN extracoes.situacao IS
  'What the queue shows and counts (badge, tabs, counters): the one definition.';
COMMENT ON COLUMN fila_contagens.status IS 'The situation (extracoes.situacao) since 0800.';

CREATE FUNCTION balcao_aguardando() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF NEW.fila_estado IN ('resolvida', 'descartada', 'concluida') THEN
    NEW.aguardando_desde := NULL;
  ELSIF NEW.fila_estado = 'aguardando_lojista' THEN
    NEW.aguardando_desde := coalesce(NEW.aguardando_desde, now());
  ELSIF TG_OP = 'UPDATE' AND OLD.fila_estado = 'aguardando_lojista' THEN
    NEW.aguardando_desde := NULL; -- the intake took the merchant's answer
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER extracoes_aguardando BEFORE INSERT OR UPDATE ON extracoes
  FOR EACH ROW EXECUTE FUNCTION balcao_aguardando();

CREATE INDEX extracoes_fila_situacao ON extracoes (fila_estado, situacao, criada_em DESC, id DESC);

CREATE OR REPLACE FUNCTION balcao_fila_contar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fila_contagens_delta (fila_estado, merchant_id, status, n)
    SELECT fila_estado, m, situacao, sum(c)::int
      FROM (SELECT fila_estado, merchant_id AS m, situacao, 1 AS c FROM novas
            UNION ALL SELECT fila_estado, 0, situacao, 1 FROM novas) x
     GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fila_contagens_delta (fila_estado, merchant_id, status, n)
    SELECT fila_estado, m, situacao, -sum(c)::int
      FROM (SELECT fila_estado, merchant_id AS m, situacao, 1 AS c FROM antigas
            UNION ALL SELECT fila_estado, 0, situacao, 1 FROM antigas) x
     GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO fila_contagens_delta (fila_estado, merchant_id, status, n)
    SELECT fila_estado, m, situacao, sum(c)::int
      FROM (SELECT fila_estado, merchant_id AS m, situacao, 1 AS c FROM novas
            UNION ALL SELECT fila_estado, 0, situacao, 1 FROM novas
            UNION ALL SELECT fila_estado, merchant_id, situacao, -1 FROM antigas
            UNION ALL SELECT fila_estado, 0, situacao, -1 FROM antigas) x
     GROUP BY 1, 2, 3
    HAVING sum(c) <> 0;
  END IF;
  RETURN NULL;
END
$$;

-- 0750's recount, counting the situation.
CREATE OR REPLACE FUNCTION balcao_fila_recontar() RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  LOCK TABLE extracoes IN SHARE MODE;
  DELETE FROM fila_contagens_delta;
  DELETE FROM fila_contagens;
  INSERT INTO fila_contagens (fila_estado, merchant_id, status, n)
  SELECT fila_estado, merchant_id, situacao, count(*) FROM extracoes GROUP BY 1, 2, 3
  UNION ALL
  SELECT fila_estado, 0, situacao, count(*) FROM extracoes GROUP BY 1, 3;
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

SELECT balcao_fila_recontar();

-- Down Migration
CREATE OR REPLACE FUNCTION balcao_fila_contar() RETURNS trigger
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
DROP INDEX IF EXISTS extracoes_fila_situacao;
DROP TRIGGER IF EXISTS extracoes_aguardando ON extracoes;
DROP FUNCTION IF EXISTS balcao_aguardando();
ALTER TABLE extracoes DROP COLUMN IF EXISTS situacao, DROP COLUMN IF EXISTS aguardando_desde;
SELECT balcao_fila_recontar();
