-- Up Migration

-- #15, reads: the tenant functions of 0790 always combine the folded rollups with the pending
-- part (the tail above the watermark and the unapplied log) by a hash full join — for the biggest
-- merchant's year that is ~6k folded rows joined to usually nothing: 3–10 ms on the server where
-- reading the folded rows alone takes ~1 ms. Now each function first asks whether the tenant has
-- anything pending at all (two index probes); when not — the common case whenever the fold keeps
-- up — it returns the folded rows as they are (same filter: buckets holding approved sales),
-- otherwise the combined answer of 0790, unchanged (renamed `balcao_*_combinadas`, owner only).
-- The answers are the same in both paths: with nothing pending the full join adds zeros.

-- Does the tenant have sales above the watermark `w`, or changes to folded sales not applied yet?
-- (`w` spliced as a number, as in 0580/0790, so the tail is read by primary-key range.)
CREATE FUNCTION balcao_vendas_tem_pendentes(m bigint, w bigint) RETURNS boolean
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
REVOKE ALL ON FUNCTION balcao_vendas_tem_pendentes(bigint, bigint) FROM PUBLIC;

ALTER FUNCTION vendas_diarias_atuais(date, date) RENAME TO balcao_vendas_diarias_combinadas;
ALTER FUNCTION vendas_horarias_atuais(date, date) RENAME TO balcao_vendas_horarias_combinadas;
ALTER FUNCTION vendas_mes_hora_atuais(date, date) RENAME TO balcao_vendas_mes_hora_combinadas;
REVOKE ALL ON FUNCTION balcao_vendas_diarias_combinadas(date, date),
  balcao_vendas_horarias_combinadas(date, date), balcao_vendas_mes_hora_combinadas(date, date)
  FROM PUBLIC, balcao_analytics;

-- Local day × modality × brand, days in [inicio, fim).
CREATE FUNCTION vendas_diarias_atuais(inicio date, fim date)
  RETURNS TABLE (dia date, modalidade text, bandeira text, quantidade bigint,
                 bruto_centavos bigint, liquido_centavos bigint)
  LANGUAGE plpgsql STABLE SECURITY DEFINER PARALLEL UNSAFE ROWS 200
  SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  m bigint := balcao_lojista_atual();
BEGIN
  IF m IS NULL OR inicio IS NULL OR fim IS NULL THEN
    RETURN;
  END IF;
  IF balcao_vendas_tem_pendentes(m, (SELECT c.marca FROM vendas_consolidacao c)) THEN
    RETURN QUERY SELECT * FROM balcao_vendas_diarias_combinadas(inicio, fim);
  ELSE
    RETURN QUERY SELECT r.dia, r.modalidade, r.bandeira, r.quantidade, r.bruto_centavos,
                        r.liquido_centavos
                   FROM vendas_diarias r
                  WHERE r.merchant_id = m AND r.dia >= inicio AND r.dia < fim
                    AND r.quantidade > 0;
  END IF;
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
BEGIN
  IF m IS NULL OR inicio IS NULL OR fim IS NULL THEN
    RETURN;
  END IF;
  IF balcao_vendas_tem_pendentes(m, (SELECT c.marca FROM vendas_consolidacao c)) THEN
    RETURN QUERY SELECT * FROM balcao_vendas_horarias_combinadas(inicio, fim);
  ELSE
    RETURN QUERY SELECT r.dia, r.hora, r.modalidade, r.quantidade, r.bruto_centavos,
                        r.liquido_centavos
                   FROM vendas_horarias r
                  WHERE r.merchant_id = m AND r.dia >= inicio AND r.dia < fim
                    AND r.quantidade > 0;
  END IF;
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
BEGIN
  IF m IS NULL OR inicio IS NULL OR fim IS NULL THEN
    RETURN;
  END IF;
  IF balcao_vendas_tem_pendentes(m, (SELECT c.marca FROM vendas_consolidacao c)) THEN
    RETURN QUERY SELECT * FROM balcao_vendas_mes_hora_combinadas(inicio, fim);
  ELSE
    RETURN QUERY SELECT r.mes, r.hora, r.modalidade, r.quantidade, r.bruto_centavos,
                        r.liquido_centavos
                   FROM vendas_mes_hora r
                  WHERE r.merchant_id = m AND r.mes >= inicio AND r.mes < fim
                    AND r.quantidade > 0;
  END IF;
END
$$;

REVOKE ALL ON FUNCTION vendas_diarias_atuais(date, date), vendas_horarias_atuais(date, date),
  vendas_mes_hora_atuais(date, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendas_diarias_atuais(date, date), vendas_horarias_atuais(date, date),
  vendas_mes_hora_atuais(date, date) TO balcao_analytics;

-- Down Migration
DROP FUNCTION IF EXISTS vendas_mes_hora_atuais(date, date);
DROP FUNCTION IF EXISTS vendas_horarias_atuais(date, date);
DROP FUNCTION IF EXISTS vendas_diarias_atuais(date, date);
ALTER FUNCTION balcao_vendas_diarias_combinadas(date, date) RENAME TO vendas_diarias_atuais;
ALTER FUNCTION balcao_vendas_horarias_combinadas(date, date) RENAME TO vendas_horarias_atuais;
ALTER FUNCTION balcao_vendas_mes_hora_combinadas(date, date) RENAME TO vendas_mes_hora_atuais;
GRANT EXECUTE ON FUNCTION vendas_diarias_atuais(date, date), vendas_horarias_atuais(date, date),
  vendas_mes_hora_atuais(date, date) TO balcao_analytics;
DROP FUNCTION IF EXISTS balcao_vendas_tem_pendentes(bigint, bigint);
