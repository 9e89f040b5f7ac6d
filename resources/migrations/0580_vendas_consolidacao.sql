-- Up Migration

-- Writers of transacoes pay (almost) nothing for the sales rollups (issue #15, round 2).
--
-- Before: statement triggers upserted the three rollups in the writer's own transaction, so every
-- sale of the same merchant, day, modality and brand updated the same rollup rows and writers of
-- one merchant queued behind each other's row locks (8.6x fewer writes with 20 ms transactions).
--
-- Now:
-- * INSERT has no trigger at all. New sales are found above a watermark: `marca` is the highest
--   id already folded into the rollups; every row with id > marca is read from transacoes itself
--   (primary key range) by the readers and by the fold.
-- * UPDATE and DELETE (rarer: reversals, corrections) append signed rows to `vendas_ajustes`
--   (append-only: no upsert, no shared row, no lock another writer waits for).
-- * TRUNCATE empties the rollups and the log and puts the watermark back to 0.
-- * A background fold (balcao_vendas_consolidar, called by the app's main process on a timer and
--   by the worker) moves the safe part of the tail and the log into the rollups, in one
--   REPEATABLE READ transaction: killed midway, nothing of it stays.
-- * Readers combine rollups + unfolded rows + unapplied log entries in one snapshot
--   (vendas_pendentes_lojista), so a sale written, changed or deleted a moment before the question
--   is in its answer.
--
-- Safe watermark. Ids come from transacoes_id_seq in the order writers call nextval, not in commit
-- order: a transaction holding id 100 may commit after the one holding id 101. The fold never
-- moves marca past an id some writer may still commit. It records a candidate: the sequence's last
-- value S, then the virtual transaction ids of every transaction holding a write lock on
-- transacoes at that moment (an INSERT locks the table before it evaluates nextval, so any
-- transaction that may still commit an id <= S is in that list). Once none of those transactions
-- is running any more (checked before the fold's snapshot is taken), every id <= S is committed or
-- gone for good, and the fold may fold up to S. Under constant writes the watermark trails by one
-- fold interval. Requirements: ids from the sequence (the column default) with CACHE 1 (the fold
-- refuses another cache size); a load with explicit ids or with this trigger disabled is followed
-- by SELECT balcao_rollups_reconstruir().

DROP TRIGGER transacoes_rollup_inserir ON transacoes;
DROP TRIGGER transacoes_rollup_atualizar ON transacoes;
DROP TRIGGER transacoes_rollup_excluir ON transacoes;
DROP TRIGGER transacoes_rollup_truncar ON transacoes;
DROP FUNCTION transacoes_rollup_inserir();
DROP FUNCTION transacoes_rollup_atualizar();
DROP FUNCTION transacoes_rollup_excluir();
DROP FUNCTION transacoes_rollup_truncar();

-- The fold's state: one row.
CREATE TABLE vendas_consolidacao (
  unica boolean PRIMARY KEY DEFAULT true CHECK (unica),
  -- Every transacoes row with id <= marca is in the rollups (as of the fold that moved it).
  marca bigint NOT NULL,
  -- Candidate for the next marca, and the transactions that must end before it is safe.
  candidata bigint,
  candidata_vxids text[] NOT NULL DEFAULT '{}',
  consolidada_em timestamptz NOT NULL DEFAULT now()
);

-- Signed changes to approved sales made by UPDATE / DELETE, not yet folded. transacao_id decides
-- whether an entry matters: rows above marca are read as they are, so their entries are ignored.
CREATE TABLE vendas_ajustes (
  transacao_id bigint NOT NULL,
  merchant_id bigint NOT NULL,
  aprovada_em timestamptz NOT NULL,
  modalidade text NOT NULL,
  bandeira text,
  sinal smallint NOT NULL CHECK (sinal IN (-1, 1)),
  bruto_centavos bigint NOT NULL,
  liquido_centavos bigint NOT NULL
);
CREATE INDEX vendas_ajustes_merchant ON vendas_ajustes (merchant_id, transacao_id);

-- Every approved row leaving (-1, old values) or entering (+1, new values) the approved set;
-- rows whose relevant columns did not change are skipped. SECURITY DEFINER: any role allowed to
-- write transacoes keeps the log right without grants on it.
CREATE FUNCTION transacoes_ajustes_atualizar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO vendas_ajustes (transacao_id, merchant_id, aprovada_em, modalidade, bandeira, sinal,
                              bruto_centavos, liquido_centavos)
  SELECT x.id, x.merchant_id, x.aprovada_em, x.modalidade, x.bandeira, x.sinal, x.b, x.l
    FROM (SELECT id, merchant_id, aprovada_em, modalidade, bandeira, -1 AS sinal,
                 valor_bruto_centavos AS b, valor_liquido_centavos AS l
            FROM antigas WHERE status = 'aprovada'
          EXCEPT ALL
          SELECT id, merchant_id, aprovada_em, modalidade, bandeira, -1,
                 valor_bruto_centavos, valor_liquido_centavos
            FROM novas WHERE status = 'aprovada') x
  UNION ALL
  SELECT y.id, y.merchant_id, y.aprovada_em, y.modalidade, y.bandeira, y.sinal, y.b, y.l
    FROM (SELECT id, merchant_id, aprovada_em, modalidade, bandeira, 1 AS sinal,
                 valor_bruto_centavos AS b, valor_liquido_centavos AS l
            FROM novas WHERE status = 'aprovada'
          EXCEPT ALL
          SELECT id, merchant_id, aprovada_em, modalidade, bandeira, 1,
                 valor_bruto_centavos, valor_liquido_centavos
            FROM antigas WHERE status = 'aprovada') y;
  RETURN NULL;
END
$$;

CREATE FUNCTION transacoes_ajustes_excluir() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO vendas_ajustes (transacao_id, merchant_id, aprovada_em, modalidade, bandeira, sinal,
                              bruto_centavos, liquido_centavos)
  SELECT id, merchant_id, aprovada_em, modalidade, bandeira, -1, valor_bruto_centavos,
         valor_liquido_centavos
    FROM antigas WHERE status = 'aprovada';
  RETURN NULL;
END
$$;

CREATE FUNCTION transacoes_ajustes_truncar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora, vendas_ajustes;
  UPDATE vendas_consolidacao
     SET marca = 0, candidata = NULL, candidata_vxids = '{}', consolidada_em = now();
  RETURN NULL;
END
$$;

CREATE TRIGGER transacoes_ajustes_atualizar AFTER UPDATE ON transacoes
  REFERENCING OLD TABLE AS antigas NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION transacoes_ajustes_atualizar();
CREATE TRIGGER transacoes_ajustes_excluir AFTER DELETE ON transacoes
  REFERENCING OLD TABLE AS antigas
  FOR EACH STATEMENT EXECUTE FUNCTION transacoes_ajustes_excluir();
CREATE TRIGGER transacoes_ajustes_truncar AFTER TRUNCATE ON transacoes
  FOR EACH STATEMENT EXECUTE FUNCTION transacoes_ajustes_truncar();

-- The sequence's highest id handed out so far (non-transactional read).
CREATE FUNCTION balcao_vendas_ultimo_id() RETURNS bigint
  LANGUAGE plpgsql VOLATILE SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  seq regclass := pg_get_serial_sequence('transacoes', 'id')::regclass;
  v bigint;
  chamado boolean;
BEGIN
  IF (SELECT s.seqcache FROM pg_sequence s WHERE s.seqrelid = seq) <> 1 THEN
    RAISE EXCEPTION 'transacoes_id_seq precisa de CACHE 1 para a consolidação das vendas';
  END IF;
  EXECUTE format('SELECT last_value, is_called FROM %s', seq) INTO v, chamado;
  RETURN CASE WHEN chamado THEN v ELSE v - 1 END;
END
$$;
REVOKE ALL ON FUNCTION balcao_vendas_ultimo_id() FROM PUBLIC;

-- Transactions (virtual ids) that hold a write lock on transacoes right now, except ours.
CREATE FUNCTION balcao_vendas_escritores() RETURNS text[]
  LANGUAGE sql VOLATILE SET search_path = public, pg_catalog, pg_temp AS $$
  SELECT coalesce(array_agg(DISTINCT l.virtualtransaction ORDER BY l.virtualtransaction), '{}')
    FROM pg_locks l
   WHERE l.locktype = 'relation'
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.relation = 'transacoes'::regclass
     AND l.mode IN ('RowExclusiveLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')
     AND l.pid IS DISTINCT FROM pg_backend_pid()
$$;
REVOKE ALL ON FUNCTION balcao_vendas_escritores() FROM PUBLIC;

-- Step 1 of a fold, in its own transaction BEFORE the fold's snapshot: is the stored candidate
-- safe (none of its transactions still running)? Returns the candidate it judged (NULL: none or
-- not yet safe).
CREATE FUNCTION balcao_vendas_candidata_segura() RETURNS bigint
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
  SELECT c.candidata FROM vendas_consolidacao c
   WHERE c.candidata IS NOT NULL
     AND NOT (c.candidata_vxids && balcao_vendas_escritores())
$$;
REVOKE ALL ON FUNCTION balcao_vendas_candidata_segura() FROM PUBLIC;

-- Rollup deltas from a set of signed rows: `fonte` yields (merchant_id, aprovada_em, modalidade,
-- bandeira, sinal, bruto, liquido). Same upserts as the old triggers (vendas_rollup_sql), now run
-- only by the fold (one process at a time), never by a writer of transacoes.
CREATE FUNCTION balcao_vendas_aplicar(fonte text) RETURNS void
  LANGUAGE plpgsql SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  q text;
BEGIN
  FOREACH q IN ARRAY vendas_rollup_sql(fonte) LOOP
    EXECUTE q;
  END LOOP;
END
$$;
REVOKE ALL ON FUNCTION balcao_vendas_aplicar(text) FROM PUBLIC;

-- Step 2 of a fold, run in a REPEATABLE READ transaction started after step 1:
-- * folds the rows with id in (marca, min(segura, marca + lote)] as this snapshot sees them
--   (`segura` = what step 1 returned; NULL folds no new rows);
-- * applies the log entries this snapshot sees for rows <= the old marca and drops the others
--   (rows above the old marca were just read as they are, or will be later);
-- * when the candidate has been reached (or there is none), records a new one.
-- Concurrent folds: a try-lock skips a fold while another runs, and the state row locked FOR
-- UPDATE makes a fold whose snapshot predates another fold's commit fail with a serialization
-- error (40001) instead of folding twice. Returns what it did, as JSON.
CREATE FUNCTION balcao_vendas_consolidar(segura bigint, lote bigint DEFAULT 500000) RETURNS jsonb
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

  IF ate > st.marca THEN
    EXECUTE format($f$SELECT count(*) FROM transacoes WHERE id > %s AND id <= %s$f$, st.marca, ate)
      INTO novas;
    PERFORM balcao_vendas_aplicar(format($f$
      SELECT merchant_id, aprovada_em, modalidade, bandeira, 1 AS sinal,
             valor_bruto_centavos AS bruto, valor_liquido_centavos AS liquido
        FROM transacoes WHERE id > %s AND id <= %s AND status = 'aprovada'$f$, st.marca, ate));
  END IF;

  -- The log as this snapshot sees it: apply what concerns rows already folded before, drop the
  -- rest. Entries committed after this snapshot stay for the next fold (and for the readers).
  -- REPEATABLE READ: this SELECT and the DELETE below see the same entries.
  PERFORM balcao_vendas_aplicar(format($f$
    SELECT merchant_id, aprovada_em, modalidade, bandeira, sinal,
           bruto_centavos AS bruto, liquido_centavos AS liquido
      FROM vendas_ajustes WHERE transacao_id <= %s$f$, st.marca));
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
REVOKE ALL ON FUNCTION balcao_vendas_consolidar(bigint, bigint) FROM PUBLIC;
-- The app role runs the fold (main process timer, worker); SECURITY DEFINER, no table grants.
GRANT EXECUTE ON FUNCTION balcao_vendas_candidata_segura(), balcao_vendas_consolidar(bigint, bigint)
  TO balcao_app;

-- Rebuild (backfill; loads with explicit ids; a tzdata change): blocks writers of transacoes
-- meanwhile. Under the SHARE lock no transaction can still commit a row, so every id the sequence
-- handed out is settled and becomes the watermark.
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
REVOKE ALL ON FUNCTION balcao_rollups_reconstruir() FROM PUBLIC;

-- The rollups already hold every row (the old triggers kept them): the watermark starts at the
-- sequence's value, taken while no writer can commit.
LOCK TABLE transacoes IN SHARE MODE;
INSERT INTO vendas_consolidacao (marca) VALUES (greatest(balcao_vendas_ultimo_id(), 0));

-- What the readers add to the rollups, in their own snapshot: the current merchant's approved rows
-- above the watermark (+1) and the log entries for rows at or below it. STABLE, so it runs in the
-- caller's snapshot (the same one the rollup views are read in). The watermark is spliced into
-- the statement as a number so the planner sees how few ids lie above it (primary key range)
-- instead of a generic plan. SECURITY DEFINER: the analytics role reads no table directly; the
-- merchant comes only from balcao_lojista_atual(), like the tenant views.
CREATE FUNCTION vendas_pendentes_lojista()
  RETURNS TABLE (dia date, hora smallint, modalidade text, bandeira text, quantidade bigint,
                 bruto_centavos bigint, liquido_centavos bigint)
  LANGUAGE plpgsql STABLE SECURITY DEFINER PARALLEL UNSAFE ROWS 100
  SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  m bigint := balcao_lojista_atual();
  w bigint;
BEGIN
  IF m IS NULL THEN
    RETURN;
  END IF;
  SELECT c.marca INTO STRICT w FROM vendas_consolidacao c;
  RETURN QUERY EXECUTE format($q$
    SELECT (x.aprovada_em AT TIME ZONE balcao_rollup_zona())::date,
           extract(hour FROM x.aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint,
           x.modalidade, x.bandeira, x.sinal::bigint, x.sinal * x.b, x.sinal * x.l
      FROM (SELECT t.aprovada_em, t.modalidade, t.bandeira, 1 AS sinal,
                   t.valor_bruto_centavos AS b, t.valor_liquido_centavos AS l
              FROM transacoes t
             WHERE t.id > %1$s AND t.merchant_id = $1 AND t.status = 'aprovada'
            UNION ALL
            SELECT a.aprovada_em, a.modalidade, a.bandeira, a.sinal, a.bruto_centavos,
                   a.liquido_centavos
              FROM vendas_ajustes a
             WHERE a.merchant_id = $1 AND a.transacao_id <= %1$s) x$q$, w) USING m;
END
$$;
REVOKE ALL ON FUNCTION vendas_pendentes_lojista() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendas_pendentes_lojista() TO balcao_analytics;

-- Down Migration
DROP FUNCTION IF EXISTS vendas_pendentes_lojista();
DROP FUNCTION IF EXISTS balcao_vendas_consolidar(bigint, bigint);
DROP FUNCTION IF EXISTS balcao_vendas_aplicar(text);
DROP FUNCTION IF EXISTS balcao_vendas_candidata_segura();
DROP FUNCTION IF EXISTS balcao_vendas_escritores();
DROP TRIGGER IF EXISTS transacoes_ajustes_truncar ON transacoes;
DROP TRIGGER IF EXISTS transacoes_ajustes_excluir ON transacoes;
DROP TRIGGER IF EXISTS transacoes_ajustes_atualizar ON transacoes;
DROP FUNCTION IF EXISTS transacoes_ajustes_truncar();
DROP FUNCTION IF EXISTS transacoes_ajustes_excluir();
DROP FUNCTION IF EXISTS transacoes_ajustes_atualizar();
DROP TABLE IF EXISTS vendas_ajustes, vendas_consolidacao;
-- Back to the writer-side triggers of 0250, with rollups rebuilt to hold every row.
CREATE FUNCTION transacoes_rollup_inserir() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  q text;
BEGIN
  FOREACH q IN ARRAY vendas_rollup_sql($f$
      SELECT merchant_id, aprovada_em, modalidade, bandeira, 1 AS sinal,
             valor_bruto_centavos AS bruto, valor_liquido_centavos AS liquido
        FROM novas WHERE status = 'aprovada'$f$) LOOP
    EXECUTE q;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE FUNCTION transacoes_rollup_atualizar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  q text;
BEGIN
  FOREACH q IN ARRAY vendas_rollup_sql($f$
      SELECT merchant_id, aprovada_em, modalidade, bandeira, 1 AS sinal,
             valor_bruto_centavos AS bruto, valor_liquido_centavos AS liquido
        FROM novas WHERE status = 'aprovada'
      UNION ALL
      SELECT merchant_id, aprovada_em, modalidade, bandeira, -1,
             valor_bruto_centavos, valor_liquido_centavos
        FROM antigas WHERE status = 'aprovada'$f$) LOOP
    EXECUTE q;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE FUNCTION transacoes_rollup_excluir() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  q text;
BEGIN
  FOREACH q IN ARRAY vendas_rollup_sql($f$
      SELECT merchant_id, aprovada_em, modalidade, bandeira, -1 AS sinal,
             valor_bruto_centavos AS bruto, valor_liquido_centavos AS liquido
        FROM antigas WHERE status = 'aprovada'$f$) LOOP
    EXECUTE q;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE FUNCTION transacoes_rollup_truncar() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora;
  RETURN NULL;
END
$$;

CREATE TRIGGER transacoes_rollup_inserir AFTER INSERT ON transacoes
  REFERENCING NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION transacoes_rollup_inserir();
CREATE TRIGGER transacoes_rollup_atualizar AFTER UPDATE ON transacoes
  REFERENCING OLD TABLE AS antigas NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION transacoes_rollup_atualizar();
CREATE TRIGGER transacoes_rollup_excluir AFTER DELETE ON transacoes
  REFERENCING OLD TABLE AS antigas
  FOR EACH STATEMENT EXECUTE FUNCTION transacoes_rollup_excluir();
CREATE TRIGGER transacoes_rollup_truncar AFTER TRUNCATE ON transacoes
  FOR EACH STATEMENT EXECUTE FUNCTION transacoes_rollup_truncar();

CREATE OR REPLACE FUNCTION balcao_rollups_reconstruir() RETURNS void
  LANGUAGE plpgsql SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  LOCK TABLE transacoes IN SHARE MODE;
  TRUNCATE vendas_diarias, vendas_horarias, vendas_mes_hora;
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
  -- From the hourly rollup: far fewer rows to read than transacoes.
  INSERT INTO vendas_mes_hora
    (merchant_id, mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
  SELECT merchant_id, date_trunc('month', dia)::date, hora, modalidade,
         sum(quantidade), sum(bruto_centavos), sum(liquido_centavos)
    FROM vendas_horarias
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
END
$$;
REVOKE ALL ON FUNCTION balcao_rollups_reconstruir() FROM PUBLIC;

SELECT balcao_rollups_reconstruir();
DROP FUNCTION IF EXISTS balcao_vendas_ultimo_id();
