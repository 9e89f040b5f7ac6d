-- Up Migration

-- #39.1: the change log's read as two index scans. With `pos > $desde OR pos = ANY($faltando)`
-- the planner walked the whole primary key and filtered (2.4 ms over 36k rows of a busy 10
-- minutes, growing with the log); the positions still missing are all at or below `$desde`, so
-- the range and the lookups are read apart and merged.
CREATE OR REPLACE FUNCTION balcao_fila_mudancas(p_desde bigint, p_faltando bigint[], p_limite int)
  RETURNS TABLE (pos bigint, extracao_id bigint, reserva boolean, conversa boolean)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(max(m.pos), 0), NULL::bigint, false, false
    FROM fila_mudancas m HAVING p_desde IS NULL
  UNION ALL
  (SELECT x.pos, x.extracao_id, x.reserva, x.conversa
     FROM ((SELECT m.pos, m.extracao_id, m.reserva, m.conversa
              FROM fila_mudancas m
             WHERE p_desde IS NOT NULL AND m.pos > p_desde
             ORDER BY m.pos
             LIMIT least(greatest(p_limite, 1), 5000))
           UNION ALL
           SELECT m.pos, m.extracao_id, m.reserva, m.conversa
             FROM fila_mudancas m
            WHERE p_desde IS NOT NULL AND m.pos = ANY (coalesce(p_faltando, '{}'))
              AND m.pos <= p_desde) x
    ORDER BY x.pos
    LIMIT least(greatest(p_limite, 1), 5000))
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION balcao_fila_mudancas(p_desde bigint, p_faltando bigint[], p_limite int)
  RETURNS TABLE (pos bigint, extracao_id bigint, reserva boolean, conversa boolean)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(max(m.pos), 0), NULL::bigint, false, false
    FROM fila_mudancas m HAVING p_desde IS NULL
  UNION ALL
  (SELECT m.pos, m.extracao_id, m.reserva, m.conversa
     FROM fila_mudancas m
    WHERE p_desde IS NOT NULL
      AND (m.pos > p_desde OR m.pos = ANY (coalesce(p_faltando, '{}')))
    ORDER BY m.pos
    LIMIT least(greatest(p_limite, 1), 5000))
$$;
