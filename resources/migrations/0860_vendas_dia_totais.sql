-- Up Migration

-- #15: the year-long answers by day. `dia` and `dia_da_semana` over a year read the biggest
-- merchant's ~1,460 day × modality rows and grouped them into 365 days on every question (the
-- grouping alone ~0.5 ms, the function's rows ~0.45 ms on the server; measured at 20M rows, p95 up
-- to 7 ms end to end on a slower day of this machine). Without a modality filter (the common
-- question) nothing needs the modality: vendas_dia_totais holds one row per merchant and local
-- day, read through its tenant function of the same shape as 0840's
-- (`vendas_dia_totais_atuais(inicio, fim)`: folded rows as they are when the tenant has nothing
-- pending, folded + pending netted per day otherwise). Filled by the same one-pass fold (one
-- more data-modifying CTE over the batch's finest-grain groups), emptied by the same TRUNCATE
-- trigger and rebuilt by the same rebuild. The writers' path is unchanged (no trigger on INSERT).

CREATE TABLE vendas_dia_totais (
  merchant_id bigint NOT NULL,
  dia date NOT NULL,
  quantidade bigint NOT NULL,
  bruto_centavos bigint NOT NULL,
  liquido_centavos bigint NOT NULL,
  CONSTRAINT vendas_dia_totais_chave PRIMARY KEY (merchant_id, dia)
) WITH (fillfactor = 85, parallel_workers = 0);

-- Backfill from vendas_dia_modalidade, which holds every sale up to the watermark (plus the log
-- entries the next fold applies to all rollups alike). Touching the state row makes a fold whose
-- snapshot predates this commit fail with a serialization error (skipped, retried) instead of
-- folding a batch into a table it saw empty (as in 0840).
UPDATE vendas_consolidacao SET consolidada_em = consolidada_em;
INSERT INTO vendas_dia_totais (merchant_id, dia, quantidade, bruto_centavos, liquido_centavos)
SELECT merchant_id, dia, sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
  FROM vendas_dia_modalidade
 GROUP BY 1, 2 HAVING sum(quantidade) <> 0 OR sum(bruto_centavos) <> 0 OR sum(liquido_centavos) <> 0
 ORDER BY 1, 2;
ANALYZE vendas_dia_totais;

-- 0840's one-pass fold, spreading the batch into the day totals too.
CREATE OR REPLACE FUNCTION balcao_vendas_aplicar_lote(de bigint, ate bigint) RETURNS bigint
  LANGUAGE plpgsql SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  n bigint;
BEGIN
  -- The bounds are spliced as numbers so the batch is read by primary-key range.
  EXECUTE format($q$
    WITH lote AS MATERIALIZED (
      SELECT t.merchant_id, t.aprovada_em, t.modalidade, t.bandeira, t.status,
             t.valor_bruto_centavos, t.valor_liquido_centavos
        FROM transacoes t WHERE t.id > %1$s AND t.id <= %2$s),
    x AS MATERIALIZED (
      SELECT s.merchant_id, (s.aprovada_em AT TIME ZONE balcao_rollup_zona())::date AS dia,
             extract(hour FROM s.aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint AS hora,
             s.modalidade, s.bandeira, sum(s.sinal)::bigint AS q, sum(s.sinal * s.b)::bigint AS b,
             sum(s.sinal * s.l)::bigint AS l
        FROM (SELECT merchant_id, aprovada_em, modalidade, bandeira, 1 AS sinal,
                     valor_bruto_centavos AS b, valor_liquido_centavos AS l
                FROM lote WHERE status = 'aprovada'
              UNION ALL
              SELECT merchant_id, aprovada_em, modalidade, bandeira, sinal, bruto_centavos,
                     liquido_centavos
                FROM vendas_ajustes WHERE transacao_id <= %1$s) s
       GROUP BY 1, 2, 3, 4, 5),
    d AS (
      INSERT INTO vendas_diarias AS v
        (merchant_id, dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, dia, modalidade, bandeira, sum(q), sum(b), sum(l) FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, dia, modalidade, bandeira) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    h AS (
      INSERT INTO vendas_horarias AS v
        (merchant_id, dia, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, dia, hora, modalidade, sum(q), sum(b), sum(l) FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, dia, hora, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    mh AS (
      INSERT INTO vendas_mes_hora AS v
        (merchant_id, mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, date_trunc('month', dia)::date, hora, modalidade, sum(q), sum(b), sum(l)
        FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, mes, hora, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    dm AS (
      INSERT INTO vendas_dia_modalidade AS v
        (merchant_id, dia, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, dia, modalidade, sum(q), sum(b), sum(l) FROM x
       GROUP BY 1, 2, 3 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, dia, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    mm AS (
      INSERT INTO vendas_mensais AS v
        (merchant_id, mes, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, date_trunc('month', dia)::date, modalidade, bandeira, sum(q), sum(b),
             sum(l)
        FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, mes, modalidade, bandeira) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    dt AS (
      INSERT INTO vendas_dia_totais AS v
        (merchant_id, dia, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, dia, sum(q), sum(b), sum(l) FROM x
       GROUP BY 1, 2 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, dia) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos)
    SELECT count(*) FROM lote$q$, de, ate) INTO n;
  RETURN n;
END
$$;
REVOKE ALL ON FUNCTION balcao_vendas_aplicar_lote(bigint, bigint) FROM PUBLIC;

CREATE OR REPLACE FUNCTION transacoes_ajustes_truncar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_dia_modalidade,
           vendas_mensais, vendas_dia_totais, vendas_ajustes;
  UPDATE vendas_consolidacao
     SET marca = 0, candidata = NULL, candidata_vxids = '{}', consolidada_em = now();
  RETURN NULL;
END
$$;


-- 0840's rebuild, filling the day totals from the day × modality rollup it has just built.
CREATE OR REPLACE FUNCTION balcao_rollups_reconstruir() RETURNS void
  LANGUAGE plpgsql SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  LOCK TABLE transacoes IN SHARE MODE;
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_dia_modalidade,
           vendas_mensais, vendas_dia_totais, vendas_ajustes;
  INSERT INTO vendas_diarias
    (merchant_id, dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, (aprovada_em AT TIME ZONE balcao_rollup_zona())::date, modalidade, bandeira,
         count(*), sum(valor_bruto_centavos), sum(valor_liquido_centavos)
    FROM transacoes WHERE status = 'aprovada'
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_horarias
    (merchant_id, dia, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, (aprovada_em AT TIME ZONE balcao_rollup_zona())::date,
         extract(hour FROM aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint, modalidade,
         count(*), sum(valor_bruto_centavos), sum(valor_liquido_centavos)
    FROM transacoes WHERE status = 'aprovada'
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_mes_hora
    (merchant_id, mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, date_trunc('month', dia)::date, hora, modalidade,
         sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_horarias
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_dia_modalidade
    (merchant_id, dia, modalidade, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, dia, modalidade, sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_diarias
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
  INSERT INTO vendas_mensais
    (merchant_id, mes, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, date_trunc('month', dia)::date, modalidade, bandeira, sum(quantidade),
         sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_diarias
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_dia_totais (merchant_id, dia, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, dia, sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_dia_modalidade
   GROUP BY 1, 2 ORDER BY 1, 2;
  INSERT INTO vendas_consolidacao (marca) VALUES (greatest(balcao_vendas_ultimo_id(), 0))
  ON CONFLICT (unica) DO UPDATE
    SET marca = excluded.marca, candidata = NULL, candidata_vxids = '{}', consolidada_em = now();
END
$$;
REVOKE ALL ON FUNCTION balcao_rollups_reconstruir() FROM PUBLIC;

-- Local day totals (every modality), days in [inicio, fim): same shape and guarantees as 0840's
-- tenant functions — only days holding approved sales, current state only.
CREATE FUNCTION vendas_dia_totais_atuais(inicio date, fim date)
  RETURNS TABLE (dia date, quantidade bigint, bruto_centavos bigint, liquido_centavos bigint)
  LANGUAGE plpgsql STABLE SECURITY DEFINER PARALLEL UNSAFE ROWS 100
  SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  m bigint := balcao_lojista_atual();
  w bigint;
BEGIN
  IF m IS NULL OR inicio IS NULL OR fim IS NULL THEN
    RETURN;
  END IF;
  SELECT c.marca INTO STRICT w FROM vendas_consolidacao c;
  IF NOT balcao_vendas_tem_pendentes(m, w) THEN
    RETURN QUERY SELECT r.dia, r.quantidade, r.bruto_centavos, r.liquido_centavos
                   FROM vendas_dia_totais r
                  WHERE r.merchant_id = m AND r.dia >= inicio AND r.dia < fim
                    AND r.quantidade > 0;
    RETURN;
  END IF;
  RETURN QUERY EXECUTE format($q$
    WITH p AS MATERIALIZED (
      SELECT p.dia, sum(p.q)::bigint AS q, sum(p.b)::bigint AS b, sum(p.l)::bigint AS l
        FROM (%s) p
       WHERE p.dia >= $2 AND p.dia < $3
       GROUP BY 1)
    SELECT coalesce(d.dia, p.dia),
           coalesce(d.quantidade, 0) + coalesce(p.q, 0),
           coalesce(d.bruto_centavos, 0) + coalesce(p.b, 0),
           coalesce(d.liquido_centavos, 0) + coalesce(p.l, 0)
      FROM (SELECT r.dia, r.quantidade, r.bruto_centavos, r.liquido_centavos
              FROM vendas_dia_totais r
             WHERE r.merchant_id = $1 AND r.dia >= $2 AND r.dia < $3) d
      FULL JOIN p ON p.dia = d.dia
     WHERE coalesce(d.quantidade, 0) + coalesce(p.q, 0) > 0$q$, balcao_vendas_pendentes_sql(w))
    USING m, inicio, fim;
END
$$;

REVOKE ALL ON FUNCTION vendas_dia_totais_atuais(date, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendas_dia_totais_atuais(date, date) TO balcao_analytics;

-- Down Migration
REVOKE EXECUTE ON FUNCTION vendas_dia_totais_atuais(date, date) FROM balcao_analytics;
DROP FUNCTION IF EXISTS vendas_dia_totais_atuais(date, date);
CREATE OR REPLACE FUNCTION transacoes_ajustes_truncar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_dia_modalidade,
           vendas_mensais, vendas_ajustes;
  UPDATE vendas_consolidacao
     SET marca = 0, candidata = NULL, candidata_vxids = '{}', consolidada_em = now();
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION balcao_rollups_reconstruir() RETURNS void
  LANGUAGE plpgsql SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  LOCK TABLE transacoes IN SHARE MODE;
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_dia_modalidade,
           vendas_mensais, vendas_ajustes;
  INSERT INTO vendas_diarias
    (merchant_id, dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, (aprovada_em AT TIME ZONE balcao_rollup_zona())::date, modalidade, bandeira,
         count(*), sum(valor_bruto_centavos), sum(valor_liquido_centavos)
    FROM transacoes WHERE status = 'aprovada'
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_horarias
    (merchant_id, dia, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, (aprovada_em AT TIME ZONE balcao_rollup_zona())::date,
         extract(hour FROM aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint, modalidade,
         count(*), sum(valor_bruto_centavos), sum(valor_liquido_centavos)
    FROM transacoes WHERE status = 'aprovada'
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_mes_hora
    (merchant_id, mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, date_trunc('month', dia)::date, hora, modalidade,
         sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_horarias
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_dia_modalidade
    (merchant_id, dia, modalidade, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, dia, modalidade, sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_diarias
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
  INSERT INTO vendas_mensais
    (merchant_id, mes, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, date_trunc('month', dia)::date, modalidade, bandeira, sum(quantidade),
         sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_diarias
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO vendas_consolidacao (marca) VALUES (greatest(balcao_vendas_ultimo_id(), 0))
  ON CONFLICT (unica) DO UPDATE
    SET marca = excluded.marca, candidata = NULL, candidata_vxids = '{}', consolidada_em = now();
END
$$;
REVOKE ALL ON FUNCTION balcao_rollups_reconstruir() FROM PUBLIC;
CREATE OR REPLACE FUNCTION balcao_vendas_aplicar_lote(de bigint, ate bigint) RETURNS bigint
  LANGUAGE plpgsql SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  n bigint;
BEGIN
  -- The bounds are spliced as numbers so the batch is read by primary-key range.
  EXECUTE format($q$
    WITH lote AS MATERIALIZED (
      SELECT t.merchant_id, t.aprovada_em, t.modalidade, t.bandeira, t.status,
             t.valor_bruto_centavos, t.valor_liquido_centavos
        FROM transacoes t WHERE t.id > %1$s AND t.id <= %2$s),
    x AS MATERIALIZED (
      SELECT s.merchant_id, (s.aprovada_em AT TIME ZONE balcao_rollup_zona())::date AS dia,
             extract(hour FROM s.aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint AS hora,
             s.modalidade, s.bandeira, sum(s.sinal)::bigint AS q, sum(s.sinal * s.b)::bigint AS b,
             sum(s.sinal * s.l)::bigint AS l
        FROM (SELECT merchant_id, aprovada_em, modalidade, bandeira, 1 AS sinal,
                     valor_bruto_centavos AS b, valor_liquido_centavos AS l
                FROM lote WHERE status = 'aprovada'
              UNION ALL
              SELECT merchant_id, aprovada_em, modalidade, bandeira, sinal, bruto_centavos,
                     liquido_centavos
                FROM vendas_ajustes WHERE transacao_id <= %1$s) s
       GROUP BY 1, 2, 3, 4, 5),
    d AS (
      INSERT INTO vendas_diarias AS v
        (merchant_id, dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, dia, modalidade, bandeira, sum(q), sum(b), sum(l) FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, dia, modalidade, bandeira) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    h AS (
      INSERT INTO vendas_horarias AS v
        (merchant_id, dia, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, dia, hora, modalidade, sum(q), sum(b), sum(l) FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, dia, hora, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    mh AS (
      INSERT INTO vendas_mes_hora AS v
        (merchant_id, mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, date_trunc('month', dia)::date, hora, modalidade, sum(q), sum(b), sum(l)
        FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, mes, hora, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    dm AS (
      INSERT INTO vendas_dia_modalidade AS v
        (merchant_id, dia, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, dia, modalidade, sum(q), sum(b), sum(l) FROM x
       GROUP BY 1, 2, 3 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, dia, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos),
    mm AS (
      INSERT INTO vendas_mensais AS v
        (merchant_id, mes, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
      SELECT merchant_id, date_trunc('month', dia)::date, modalidade, bandeira, sum(q), sum(b),
             sum(l)
        FROM x
       GROUP BY 1, 2, 3, 4 HAVING sum(q) <> 0 OR sum(b) <> 0 OR sum(l) <> 0
      ON CONFLICT (merchant_id, mes, modalidade, bandeira) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos)
    SELECT count(*) FROM lote$q$, de, ate) INTO n;
  RETURN n;
END
$$;
REVOKE ALL ON FUNCTION balcao_vendas_aplicar_lote(bigint, bigint) FROM PUBLIC;
DROP TABLE IF EXISTS vendas_dia_totais;
