-- Up Migration

-- #15, the last read gaps and the fold's cost.
--
-- Reads. The year-long day-grain answers read vendas_diarias (day × modality × brand: ~4,700
-- rows for the biggest merchant's year) and the hourly ones read a whole month of vendas_horarias
-- for the partial month at the start of the window (~2,900 rows): 2.5–4.3 ms on the server at
-- 20M rows, over the 5 ms target end to end. Two more rollups, at the grains those answers need:
-- * vendas_dia_modalidade (day × modality): `dia`, `dia_da_semana`, and the edge days of totals
--   and of month/modality groupings — ~1,460 rows for the biggest year instead of ~4,700;
-- * vendas_mensais (month × modality × brand): totals and month/modality/brand groupings over the
--   whole months of a period — ~160 rows for a year instead of ~1,150 (vendas_mes_hora).
-- Read through tenant functions of the same shape as 0820's (`*_atuais(inicio, fim)`: folded
-- rows as they are when the tenant has nothing pending, folded + pending netted otherwise).
--
-- Fold. Every fold scanned its batch of new sales four times (a count and one pass per rollup)
-- and the log three times. Now one statement reads the batch and the log once, groups them at the
-- finest grain (day × hour × modality × brand: a few hundred rows per fold) and spreads that into
-- the five rollups through data-modifying CTEs. Same transaction, same guards (0580): killed
-- midway, nothing of it stays.

CREATE TABLE vendas_dia_modalidade (
  merchant_id bigint NOT NULL,
  dia date NOT NULL,
  modalidade text NOT NULL,
  quantidade bigint NOT NULL,
  bruto_centavos bigint NOT NULL,
  liquido_centavos bigint NOT NULL,
  CONSTRAINT vendas_dia_modalidade_chave PRIMARY KEY (merchant_id, dia, modalidade)
) WITH (fillfactor = 85, parallel_workers = 0);

CREATE TABLE vendas_mensais (
  merchant_id bigint NOT NULL,
  mes date NOT NULL CHECK (extract(day FROM mes) = 1),
  modalidade text NOT NULL,
  bandeira text,
  quantidade bigint NOT NULL,
  bruto_centavos bigint NOT NULL,
  liquido_centavos bigint NOT NULL,
  CONSTRAINT vendas_mensais_chave UNIQUE NULLS NOT DISTINCT (merchant_id, mes, modalidade, bandeira)
) WITH (fillfactor = 85, parallel_workers = 0);

-- Backfill from vendas_diarias, which holds every sale up to the watermark (plus the log entries
-- the next fold applies to all five alike). Touching the state row makes a fold whose snapshot
-- predates this commit fail with a serialization error (skipped, retried) instead of folding a
-- batch into tables it saw empty; a fold started later sees the backfill.
UPDATE vendas_consolidacao SET consolidada_em = consolidada_em;
INSERT INTO vendas_dia_modalidade
  (merchant_id, dia, modalidade, quantidade, bruto_centavos, liquido_centavos)
SELECT merchant_id, dia, modalidade, sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
  FROM vendas_diarias
 GROUP BY 1, 2, 3 HAVING sum(quantidade) <> 0 OR sum(bruto_centavos) <> 0 OR sum(liquido_centavos) <> 0
 ORDER BY 1, 2, 3;
INSERT INTO vendas_mensais
  (merchant_id, mes, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
SELECT merchant_id, date_trunc('month', dia)::date, modalidade, bandeira, sum(quantidade),
       sum(bruto_centavos), sum(liquido_centavos)
  FROM vendas_diarias
 GROUP BY 1, 2, 3, 4 HAVING sum(quantidade) <> 0 OR sum(bruto_centavos) <> 0 OR sum(liquido_centavos) <> 0
 ORDER BY 1, 2, 3, 4;
ANALYZE vendas_dia_modalidade, vendas_mensais;

-- The fold's one pass: signed rows of the batch (ids in (de, ate]) and of the log (rows <= de),
-- grouped once, then upserted into every rollup. Returns how many transacoes rows the batch held.
-- Owner only; called by balcao_vendas_consolidar.
CREATE FUNCTION balcao_vendas_aplicar_lote(de bigint, ate bigint) RETURNS bigint
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

-- 0580's fold with its batch and log applied in one pass (above); the rest is unchanged.
CREATE OR REPLACE FUNCTION balcao_vendas_consolidar(segura bigint, lote bigint DEFAULT 500000)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  st vendas_consolidacao%ROWTYPE;
  ate bigint;
  ajustes bigint := 0;
  novas bigint := 0;
BEGIN
  IF current_setting('transaction_isolation') <> 'repeatable read' THEN
    RAISE EXCEPTION 'balcao_vendas_consolidar precisa de REPEATABLE READ';
  END IF;
  IF NOT pg_try_advisory_xact_lock(hashtext('balcao_vendas_consolidar')) THEN
    RETURN jsonb_build_object('ocupado', true);
  END IF;
  -- A TRUNCATE waits for us instead of deadlocking with the state row.
  LOCK TABLE transacoes IN ACCESS SHARE MODE;
  SELECT * INTO STRICT st FROM vendas_consolidacao FOR UPDATE;
  ate := st.marca;
  IF segura IS NOT NULL AND segura = st.candidata AND segura > st.marca THEN
    ate := least(segura, st.marca + greatest(lote, 1));
  END IF;

  -- The batch (rows in (marca, ate] as this snapshot sees them) and the log entries this snapshot
  -- sees for rows already folded before; log entries for rows above the old marca are moot (those
  -- rows were just read as they are, or will be later). REPEATABLE READ: the pass and the DELETE
  -- below see the same entries; entries committed after this snapshot stay for the next fold.
  novas := balcao_vendas_aplicar_lote(st.marca, ate);
  DELETE FROM vendas_ajustes;
  GET DIAGNOSTICS ajustes = ROW_COUNT;

  IF st.candidata IS NULL OR ate >= st.candidata THEN
    -- The sequence first, then the writers: a transaction that may commit an id <= the value read
    -- already holds its lock when the list is taken.
    st.candidata := balcao_vendas_ultimo_id();
    st.candidata_vxids := balcao_vendas_escritores();
    IF st.candidata <= ate THEN
      st.candidata := NULL;
      st.candidata_vxids := '{}';
    END IF;
  END IF;
  UPDATE vendas_consolidacao
     SET marca = ate, candidata = st.candidata, candidata_vxids = st.candidata_vxids,
         consolidada_em = now();
  RETURN jsonb_build_object('marca', ate, 'novas', novas, 'ajustes', ajustes,
                            'candidata', st.candidata);
END
$$;

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

-- 0580's rebuild, filling the two new rollups from the day rollup it has just built.
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

-- Is anything pending for the tenant? 0820 asked with one dynamic statement (the watermark spliced
-- as a number), planned on every call of every tenant function: ~1 ms each, two to four calls per
-- answer — most of a small merchant's time. Now two static statements (plans kept per session)
-- answer the common cases: changes logged for the tenant's folded sales, and nothing at all above
-- the watermark (one probe of the primary key just above it). Only with sales above the
-- watermark — writers active — does the tenant's own tail get the dynamic statement, as before.
CREATE OR REPLACE FUNCTION balcao_vendas_tem_pendentes(m bigint, w bigint) RETURNS boolean
  LANGUAGE plpgsql STABLE SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  r boolean;
BEGIN
  IF EXISTS (SELECT 1 FROM vendas_ajustes a WHERE a.merchant_id = m AND a.transacao_id <= w) THEN
    RETURN true;
  END IF;
  -- The first id above the watermark, by primary key (ORDER BY … LIMIT 1 keeps even a generic
  -- plan on the index; unlike max(id), it does not step over the dead entries that deleted or
  -- rolled-back rows leave below the watermark).
  PERFORM 1 FROM transacoes t WHERE t.id > w ORDER BY t.id LIMIT 1;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  EXECUTE format($q$
    SELECT EXISTS (SELECT 1 FROM transacoes t
                    WHERE t.id > %1$s AND t.merchant_id = $1 AND t.status = 'aprovada')$q$, w)
    INTO r USING m;
  RETURN r;
END
$$;
REVOKE ALL ON FUNCTION balcao_vendas_tem_pendentes(bigint, bigint) FROM PUBLIC;

-- The tenant functions (same shape and guarantees as 0790/0820): for the current tenant and the
-- range, only buckets holding approved sales; folded rows as they are when nothing is pending,
-- folded + pending netted per bucket otherwise.

-- Local day × modality, days in [inicio, fim).
CREATE FUNCTION vendas_dia_modalidade_atuais(inicio date, fim date)
  RETURNS TABLE (dia date, modalidade text, quantidade bigint, bruto_centavos bigint,
                 liquido_centavos bigint)
  LANGUAGE plpgsql STABLE SECURITY DEFINER PARALLEL UNSAFE ROWS 200
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
    RETURN QUERY SELECT r.dia, r.modalidade, r.quantidade, r.bruto_centavos, r.liquido_centavos
                   FROM vendas_dia_modalidade r
                  WHERE r.merchant_id = m AND r.dia >= inicio AND r.dia < fim
                    AND r.quantidade > 0;
    RETURN;
  END IF;
  RETURN QUERY EXECUTE format($q$
    WITH p AS MATERIALIZED (
      SELECT p.dia, p.modalidade, sum(p.q)::bigint AS q, sum(p.b)::bigint AS b,
             sum(p.l)::bigint AS l
        FROM (%s) p
       WHERE p.dia >= $2 AND p.dia < $3
       GROUP BY 1, 2)
    SELECT coalesce(d.dia, p.dia), coalesce(d.modalidade, p.modalidade),
           coalesce(d.quantidade, 0) + coalesce(p.q, 0),
           coalesce(d.bruto_centavos, 0) + coalesce(p.b, 0),
           coalesce(d.liquido_centavos, 0) + coalesce(p.l, 0)
      FROM (SELECT r.dia, r.modalidade, r.quantidade, r.bruto_centavos, r.liquido_centavos
              FROM vendas_dia_modalidade r
             WHERE r.merchant_id = $1 AND r.dia >= $2 AND r.dia < $3) d
      FULL JOIN p ON p.dia = d.dia AND p.modalidade = d.modalidade
     WHERE coalesce(d.quantidade, 0) + coalesce(p.q, 0) > 0$q$, balcao_vendas_pendentes_sql(w))
    USING m, inicio, fim;
END
$$;

-- Month × modality × brand, months (first days) in [inicio, fim).
CREATE FUNCTION vendas_mensais_atuais(inicio date, fim date)
  RETURNS TABLE (mes date, modalidade text, bandeira text, quantidade bigint,
                 bruto_centavos bigint, liquido_centavos bigint)
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
    RETURN QUERY SELECT r.mes, r.modalidade, r.bandeira, r.quantidade, r.bruto_centavos,
                        r.liquido_centavos
                   FROM vendas_mensais r
                  WHERE r.merchant_id = m AND r.mes >= inicio AND r.mes < fim
                    AND r.quantidade > 0;
    RETURN;
  END IF;
  -- Brand NULL (Pix) matched through a sentinel no brand name uses, as in 0790.
  RETURN QUERY EXECUTE format($q$
    WITH p AS MATERIALIZED (
      SELECT date_trunc('month', p.dia)::date AS mes, p.modalidade,
             coalesce(p.bandeira, E'\u0001') AS bk, sum(p.q)::bigint AS q, sum(p.b)::bigint AS b,
             sum(p.l)::bigint AS l
        FROM (%s) p
       WHERE date_trunc('month', p.dia)::date >= $2 AND date_trunc('month', p.dia)::date < $3
       GROUP BY 1, 2, 3)
    SELECT coalesce(d.mes, p.mes), coalesce(d.modalidade, p.modalidade),
           nullif(coalesce(d.bk, p.bk), E'\u0001'),
           coalesce(d.quantidade, 0) + coalesce(p.q, 0),
           coalesce(d.bruto_centavos, 0) + coalesce(p.b, 0),
           coalesce(d.liquido_centavos, 0) + coalesce(p.l, 0)
      FROM (SELECT r.mes, r.modalidade, coalesce(r.bandeira, E'\u0001') AS bk, r.quantidade,
                   r.bruto_centavos, r.liquido_centavos
              FROM vendas_mensais r
             WHERE r.merchant_id = $1 AND r.mes >= $2 AND r.mes < $3) d
      FULL JOIN p ON p.mes = d.mes AND p.modalidade = d.modalidade AND p.bk = d.bk
     WHERE coalesce(d.quantidade, 0) + coalesce(p.q, 0) > 0$q$, balcao_vendas_pendentes_sql(w))
    USING m, inicio, fim;
END
$$;

REVOKE ALL ON FUNCTION vendas_dia_modalidade_atuais(date, date), vendas_mensais_atuais(date, date)
  FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendas_dia_modalidade_atuais(date, date),
  vendas_mensais_atuais(date, date) TO balcao_analytics;

-- Down Migration
REVOKE EXECUTE ON FUNCTION vendas_dia_modalidade_atuais(date, date),
  vendas_mensais_atuais(date, date) FROM balcao_analytics;
DROP FUNCTION IF EXISTS vendas_mensais_atuais(date, date);
DROP FUNCTION IF EXISTS vendas_dia_modalidade_atuais(date, date);
CREATE OR REPLACE FUNCTION transacoes_ajustes_truncar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_ajustes;
  UPDATE vendas_consolidacao
     SET marca = 0, candidata = NULL, candidata_vxids = '{}', consolidada_em = now();
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION balcao_rollups_reconstruir() RETURNS void
  LANGUAGE plpgsql SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  LOCK TABLE transacoes IN SHARE MODE;
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_ajustes;
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
  INSERT INTO vendas_consolidacao (marca) VALUES (greatest(balcao_vendas_ultimo_id(), 0))
  ON CONFLICT (unica) DO UPDATE
    SET marca = excluded.marca, candidata = NULL, candidata_vxids = '{}', consolidada_em = now();
END
$$;
CREATE OR REPLACE FUNCTION balcao_vendas_consolidar(segura bigint, lote bigint DEFAULT 500000)
  RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  st vendas_consolidacao%ROWTYPE;
  ate bigint;
  ajustes bigint := 0;
  novas bigint := 0;
BEGIN
  IF current_setting('transaction_isolation') <> 'repeatable read' THEN
    RAISE EXCEPTION 'balcao_vendas_consolidar precisa de REPEATABLE READ';
  END IF;
  IF NOT pg_try_advisory_xact_lock(hashtext('balcao_vendas_consolidar')) THEN
    RETURN jsonb_build_object('ocupado', true);
  END IF;
  LOCK TABLE transacoes IN ACCESS SHARE MODE;
  SELECT * INTO STRICT st FROM vendas_consolidacao FOR UPDATE;
  ate := st.marca;
  IF segura IS NOT NULL AND segura = st.candidata AND segura > st.marca THEN
    ate := least(segura, st.marca + greatest(lote, 1));
  END IF;
  IF ate > st.marca THEN
    EXECUTE format($f$SELECT count(*) FROM transacoes WHERE id > %s AND id <= %s$f$, st.marca, ate)
      INTO novas;
    PERFORM balcao_vendas_aplicar(format($f$
      SELECT merchant_id, aprovada_em, modalidade, bandeira, 1 AS sinal,
             valor_bruto_centavos AS bruto, valor_liquido_centavos AS liquido
        FROM transacoes WHERE id > %s AND id <= %s AND status = 'aprovada'$f$, st.marca, ate));
  END IF;
  PERFORM balcao_vendas_aplicar(format($f$
    SELECT merchant_id, aprovada_em, modalidade, bandeira, sinal,
           bruto_centavos AS bruto, liquido_centavos AS liquido
      FROM vendas_ajustes WHERE transacao_id <= %s$f$, st.marca));
  DELETE FROM vendas_ajustes;
  GET DIAGNOSTICS ajustes = ROW_COUNT;
  IF st.candidata IS NULL OR ate >= st.candidata THEN
    st.candidata := balcao_vendas_ultimo_id();
    st.candidata_vxids := balcao_vendas_escritores();
    IF st.candidata <= ate THEN
      st.candidata := NULL;
      st.candidata_vxids := '{}';
    END IF;
  END IF;
  UPDATE vendas_consolidacao
     SET marca = ate, candidata = st.candidata, candidata_vxids = st.candidata_vxids,
         consolidada_em = now();
  RETURN jsonb_build_object('marca', ate, 'novas', novas, 'ajustes', ajustes,
                            'candidata', st.candidata);
END
$$;
CREATE OR REPLACE FUNCTION balcao_vendas_tem_pendentes(m bigint, w bigint) RETURNS boolean
  LANGUAGE plpgsql STABLE SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  r boolean;
BEGIN
  EXECUTE format($q$
    SELECT EXISTS (SELECT 1 FROM transacoes t
                    WHERE t.id > %1$s AND t.merchant_id = $1 AND t.status = 'aprovada')
        OR EXISTS (SELECT 1 FROM vendas_ajustes a
                    WHERE a.merchant_id = $1 AND a.transacao_id <= %1$s)$q$, w)
    INTO r USING m;
  RETURN r;
END
$$;
DROP FUNCTION IF EXISTS balcao_vendas_aplicar_lote(bigint, bigint);
DROP TABLE IF EXISTS vendas_mensais, vendas_dia_modalidade;
