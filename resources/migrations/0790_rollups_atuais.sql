-- Up Migration

-- #12, last gap: the analytics role read the sales rollups in two parts it could also read apart —
-- the folded rollups (vendas_diarias_lojista, vendas_horarias_lojista, vendas_mes_hora_lojista:
-- the state at the last fold) and vendas_pendentes_lojista() (0580: the merchant's sales above the
-- watermark plus the signed log of changes to already folded sales). Read apart, they tell what
-- the tenant view hides: vendas_pendentes_lojista() returned a row `quantidade = -1,
-- bruto_centavos = -<amount>` for every folded sale that was since reversed, declined or deleted
-- (a hidden status, with its original day, hour, modality, brand and amounts), and the folded
-- views minus vendas_ia gave the same per day. Which sales are still pending also depended on the
-- global watermark (other merchants' in-flight writers).
--
-- Now the analytics role reaches only the current state: three SECURITY DEFINER functions return,
-- for the tenant and a date range, folded + pending combined and netted per bucket, keeping only
-- buckets that hold approved sales. Each value is a sum over the tenant's approved sales — the
-- same rows vendas_ia shows — so nothing of a hidden status or of another merchant is in them.
-- The folded views and vendas_pendentes_lojista() are no longer granted to it (the views stay for
-- the owner and admin tools). The watermark is spliced into the statement as a number, as in 0580,
-- so the planner reads the tail by primary-key range; the range bounds are bind parameters.
-- What stays: the time these take grows with the global unfolded tail (a timing signal of the
-- same kind as "timing reflects table size", src-main/sqlguard/README.md).

-- The tail and the unapplied log of the merchant $1 as signed rows (dia, hora, modalidade, bandeira,
-- q, b, l) for the watermark `w`. Owner only: the functions below are the way in.
CREATE FUNCTION balcao_vendas_pendentes_sql(w bigint) RETURNS text
  LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
  SELECT format($q$
    SELECT (y.aprovada_em AT TIME ZONE balcao_rollup_zona())::date AS dia,
           extract(hour FROM y.aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint AS hora,
           y.modalidade, y.bandeira, y.sinal::bigint AS q, (y.sinal * y.b)::bigint AS b,
           (y.sinal * y.l)::bigint AS l
      FROM (SELECT t.aprovada_em, t.modalidade, t.bandeira, 1 AS sinal,
                   t.valor_bruto_centavos AS b, t.valor_liquido_centavos AS l
              FROM transacoes t
             WHERE t.id > %1$s AND t.merchant_id = $1 AND t.status = 'aprovada'
            UNION ALL
            SELECT a.aprovada_em, a.modalidade, a.bandeira, a.sinal, a.bruto_centavos,
                   a.liquido_centavos
              FROM vendas_ajustes a
             WHERE a.merchant_id = $1 AND a.transacao_id <= %1$s) y$q$, w)
$f$;
REVOKE ALL ON FUNCTION balcao_vendas_pendentes_sql(bigint) FROM PUBLIC;

-- Local day × modality × brand, days in [inicio, fim).
CREATE FUNCTION vendas_diarias_atuais(inicio date, fim date)
  RETURNS TABLE (dia date, modalidade text, bandeira text, quantidade bigint,
                 bruto_centavos bigint, liquido_centavos bigint)
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
  -- Folded rows are unique per bucket: only the (few) pending rows are grouped, then matched to
  -- their bucket by a hash full join (bandeira NULL as a sentinel no brand name uses).
  RETURN QUERY EXECUTE format($q$
    WITH p AS MATERIALIZED (
      SELECT p.dia, p.modalidade, coalesce(p.bandeira, E'\u0001') AS bk, sum(p.q)::bigint AS q,
             sum(p.b)::bigint AS b, sum(p.l)::bigint AS l
        FROM (%s) p
       WHERE p.dia >= $2 AND p.dia < $3
       GROUP BY 1, 2, 3)
    SELECT coalesce(d.dia, p.dia), coalesce(d.modalidade, p.modalidade),
           nullif(coalesce(d.bk, p.bk), E'\u0001'),
           coalesce(d.quantidade, 0) + coalesce(p.q, 0),
           coalesce(d.bruto_centavos, 0) + coalesce(p.b, 0),
           coalesce(d.liquido_centavos, 0) + coalesce(p.l, 0)
      FROM (SELECT r.dia, r.modalidade, coalesce(r.bandeira, E'\u0001') AS bk, r.quantidade,
                   r.bruto_centavos, r.liquido_centavos
              FROM vendas_diarias r
             WHERE r.merchant_id = $1 AND r.dia >= $2 AND r.dia < $3) d
      FULL JOIN p ON p.dia = d.dia AND p.modalidade = d.modalidade AND p.bk = d.bk
     WHERE coalesce(d.quantidade, 0) + coalesce(p.q, 0) > 0$q$, balcao_vendas_pendentes_sql(w))
    USING m, inicio, fim;
END
$$;

-- Local day × hour × modality, days in [inicio, fim).
CREATE FUNCTION vendas_horarias_atuais(inicio date, fim date)
  RETURNS TABLE (dia date, hora smallint, modalidade text, quantidade bigint,
                 bruto_centavos bigint, liquido_centavos bigint)
  LANGUAGE plpgsql STABLE SECURITY DEFINER PARALLEL UNSAFE ROWS 500
  SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  m bigint := balcao_lojista_atual();
  w bigint;
BEGIN
  IF m IS NULL OR inicio IS NULL OR fim IS NULL THEN
    RETURN;
  END IF;
  SELECT c.marca INTO STRICT w FROM vendas_consolidacao c;
  RETURN QUERY EXECUTE format($q$
    WITH p AS MATERIALIZED (
      SELECT p.dia, p.hora, p.modalidade, sum(p.q)::bigint AS q, sum(p.b)::bigint AS b,
             sum(p.l)::bigint AS l
        FROM (%s) p
       WHERE p.dia >= $2 AND p.dia < $3
       GROUP BY 1, 2, 3)
    SELECT coalesce(d.dia, p.dia), coalesce(d.hora, p.hora), coalesce(d.modalidade, p.modalidade),
           coalesce(d.quantidade, 0) + coalesce(p.q, 0),
           coalesce(d.bruto_centavos, 0) + coalesce(p.b, 0),
           coalesce(d.liquido_centavos, 0) + coalesce(p.l, 0)
      FROM (SELECT r.dia, r.hora, r.modalidade, r.quantidade, r.bruto_centavos, r.liquido_centavos
              FROM vendas_horarias r
             WHERE r.merchant_id = $1 AND r.dia >= $2 AND r.dia < $3) d
      FULL JOIN p ON p.dia = d.dia AND p.hora = d.hora AND p.modalidade = d.modalidade
     WHERE coalesce(d.quantidade, 0) + coalesce(p.q, 0) > 0$q$, balcao_vendas_pendentes_sql(w))
    USING m, inicio, fim;
END
$$;

-- Month × local hour × modality, months (first days) in [inicio, fim).
CREATE FUNCTION vendas_mes_hora_atuais(inicio date, fim date)
  RETURNS TABLE (mes date, hora smallint, modalidade text, quantidade bigint,
                 bruto_centavos bigint, liquido_centavos bigint)
  LANGUAGE plpgsql STABLE SECURITY DEFINER PARALLEL UNSAFE ROWS 300
  SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  m bigint := balcao_lojista_atual();
  w bigint;
BEGIN
  IF m IS NULL OR inicio IS NULL OR fim IS NULL THEN
    RETURN;
  END IF;
  SELECT c.marca INTO STRICT w FROM vendas_consolidacao c;
  RETURN QUERY EXECUTE format($q$
    WITH p AS MATERIALIZED (
      SELECT date_trunc('month', p.dia)::date AS mes, p.hora, p.modalidade, sum(p.q)::bigint AS q,
             sum(p.b)::bigint AS b, sum(p.l)::bigint AS l
        FROM (%s) p
       WHERE date_trunc('month', p.dia)::date >= $2 AND date_trunc('month', p.dia)::date < $3
       GROUP BY 1, 2, 3)
    SELECT coalesce(d.mes, p.mes), coalesce(d.hora, p.hora), coalesce(d.modalidade, p.modalidade),
           coalesce(d.quantidade, 0) + coalesce(p.q, 0),
           coalesce(d.bruto_centavos, 0) + coalesce(p.b, 0),
           coalesce(d.liquido_centavos, 0) + coalesce(p.l, 0)
      FROM (SELECT r.mes, r.hora, r.modalidade, r.quantidade, r.bruto_centavos, r.liquido_centavos
              FROM vendas_mes_hora r
             WHERE r.merchant_id = $1 AND r.mes >= $2 AND r.mes < $3) d
      FULL JOIN p ON p.mes = d.mes AND p.hora = d.hora AND p.modalidade = d.modalidade
     WHERE coalesce(d.quantidade, 0) + coalesce(p.q, 0) > 0$q$, balcao_vendas_pendentes_sql(w))
    USING m, inicio, fim;
END
$$;

REVOKE ALL ON FUNCTION vendas_diarias_atuais(date, date), vendas_horarias_atuais(date, date),
  vendas_mes_hora_atuais(date, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendas_diarias_atuais(date, date), vendas_horarias_atuais(date, date),
  vendas_mes_hora_atuais(date, date) TO balcao_analytics;

-- The parts apart are no longer reachable by the analytics role.
REVOKE EXECUTE ON FUNCTION vendas_pendentes_lojista() FROM balcao_analytics;
REVOKE SELECT ON vendas_diarias_lojista, vendas_horarias_lojista, vendas_mes_hora_lojista
  FROM balcao_analytics;

-- Down Migration
GRANT SELECT ON vendas_diarias_lojista, vendas_horarias_lojista, vendas_mes_hora_lojista
  TO balcao_analytics;
GRANT EXECUTE ON FUNCTION vendas_pendentes_lojista() TO balcao_analytics;
DROP FUNCTION IF EXISTS vendas_mes_hora_atuais(date, date);
DROP FUNCTION IF EXISTS vendas_horarias_atuais(date, date);
DROP FUNCTION IF EXISTS vendas_diarias_atuais(date, date);
DROP FUNCTION IF EXISTS balcao_vendas_pendentes_sql(bigint);
