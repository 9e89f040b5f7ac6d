-- Up Migration

-- Exact per-merchant sales rollups in local days, maintained by statement triggers on
-- transacoes (INSERT, UPDATE, DELETE, TRUNCATE) in the writer's own transaction. They hold only
-- approved sales (status = 'aprovada'), so a status change (aprovada → estornada) moves a sale
-- out of them. Answers computed from them equal the base table's for every committed row, with
-- no refresh command.
--
-- Time zone: local days and hours are computed in balcao_rollup_zona() (America/Sao_Paulo),
-- fixed by this migration. The sales compiler reads the rollups only when the configured zone
-- is this one and falls back to transacoes otherwise. Should tzdata ever change the offsets of
-- this zone for dates already stored, run SELECT balcao_rollups_reconstruir();

CREATE FUNCTION balcao_rollup_zona() RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'America/Sao_Paulo'::text $$;

-- Counters are signed deltas applied with INSERT … ON CONFLICT; no CHECK (quantidade >= 0): a
-- CHECK is evaluated on the proposed insert row (the delta) before the conflict is detected.
-- Exactness is asserted by the integration tests instead.

-- Storage: fillfactor leaves room for HOT updates of the counters. parallel_workers = 0: a rollup
-- query reads a few thousand index entries (~3 ms) and a parallel plan, which the planner picks
-- from the table's size, spends more than that starting workers (measured on 20M rows: 4.5 ms of
-- work, 62 ms end to end with Gather Merge on a busy 2-core machine). See also the views below.

-- Day × modality × brand: every metric and every grouping except `hora`.
CREATE TABLE vendas_diarias (
  merchant_id bigint NOT NULL,
  dia date NOT NULL,
  modalidade text NOT NULL,
  bandeira text,
  quantidade bigint NOT NULL,
  bruto_centavos bigint NOT NULL,
  liquido_centavos bigint NOT NULL,
  CONSTRAINT vendas_diarias_chave UNIQUE NULLS NOT DISTINCT (merchant_id, dia, modalidade, bandeira)
) WITH (fillfactor = 85, parallel_workers = 0);

-- Day × local hour × modality: `hora` on the partial months at the edges of a period.
CREATE TABLE vendas_horarias (
  merchant_id bigint NOT NULL,
  dia date NOT NULL,
  hora smallint NOT NULL CHECK (hora BETWEEN 0 AND 23),
  modalidade text NOT NULL,
  quantidade bigint NOT NULL,
  bruto_centavos bigint NOT NULL,
  liquido_centavos bigint NOT NULL,
  CONSTRAINT vendas_horarias_chave PRIMARY KEY (merchant_id, dia, hora, modalidade)
) WITH (fillfactor = 85, parallel_workers = 0);

-- Month × local hour × modality: `hora` over the whole months inside a period (~30× fewer rows).
CREATE TABLE vendas_mes_hora (
  merchant_id bigint NOT NULL,
  mes date NOT NULL CHECK (extract(day FROM mes) = 1),
  hora smallint NOT NULL CHECK (hora BETWEEN 0 AND 23),
  modalidade text NOT NULL,
  quantidade bigint NOT NULL,
  bruto_centavos bigint NOT NULL,
  liquido_centavos bigint NOT NULL,
  CONSTRAINT vendas_mes_hora_chave PRIMARY KEY (merchant_id, mes, hora, modalidade)
) WITH (fillfactor = 85, parallel_workers = 0);

-- The three upserts that apply a statement's signed changes to approved sales, reading them from
-- `fonte`: a query over the statement's transition tables yielding (merchant_id, aprovada_em,
-- modalidade, bandeira, sinal, bruto, liquido), sinal = +1 for a row entering the approved set
-- and -1 for a row leaving it. `fonte` is always one of the fixed texts in the trigger functions
-- below. Changes are grouped per rollup key (keys whose changes cancel are skipped) and applied
-- in key order — the same lock order for every writer, so concurrent multi-row statements do not
-- deadlock on each other — through INSERT … ON CONFLICT DO UPDATE with increments: a concurrent
-- writer on the same key waits for the row lock and then adds to the committed value (no lost
-- update). Set-based SQL, so a statement touching millions of rows aggregates (and spills to
-- disk if needed) instead of building them in memory.
CREATE FUNCTION vendas_rollup_sql(fonte text) RETURNS text[]
  LANGUAGE sql IMMUTABLE SET search_path = public, pg_catalog, pg_temp AS $fn$
  SELECT ARRAY[
    format($q$
      INSERT INTO vendas_diarias AS v
        (merchant_id, dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos)
      SELECT x.merchant_id, (x.aprovada_em AT TIME ZONE balcao_rollup_zona())::date, x.modalidade,
             x.bandeira, sum(x.sinal), sum(x.sinal * x.bruto)::bigint, sum(x.sinal * x.liquido)::bigint
        FROM (%s) x
       GROUP BY 1, 2, 3, 4
      HAVING sum(x.sinal) <> 0 OR sum(x.sinal * x.bruto) <> 0 OR sum(x.sinal * x.liquido) <> 0
       ORDER BY 1, 2, 3, 4
      ON CONFLICT (merchant_id, dia, modalidade, bandeira) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos$q$, fonte),
    format($q$
      INSERT INTO vendas_horarias AS v
        (merchant_id, dia, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT x.merchant_id, (x.aprovada_em AT TIME ZONE balcao_rollup_zona())::date,
             extract(hour FROM x.aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint,
             x.modalidade, sum(x.sinal), sum(x.sinal * x.bruto)::bigint, sum(x.sinal * x.liquido)::bigint
        FROM (%s) x
       GROUP BY 1, 2, 3, 4
      HAVING sum(x.sinal) <> 0 OR sum(x.sinal * x.bruto) <> 0 OR sum(x.sinal * x.liquido) <> 0
       ORDER BY 1, 2, 3, 4
      ON CONFLICT (merchant_id, dia, hora, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos$q$, fonte),
    format($q$
      INSERT INTO vendas_mes_hora AS v
        (merchant_id, mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos)
      SELECT x.merchant_id, date_trunc('month', x.aprovada_em AT TIME ZONE balcao_rollup_zona())::date,
             extract(hour FROM x.aprovada_em AT TIME ZONE balcao_rollup_zona())::smallint,
             x.modalidade, sum(x.sinal), sum(x.sinal * x.bruto)::bigint, sum(x.sinal * x.liquido)::bigint
        FROM (%s) x
       GROUP BY 1, 2, 3, 4
      HAVING sum(x.sinal) <> 0 OR sum(x.sinal * x.bruto) <> 0 OR sum(x.sinal * x.liquido) <> 0
       ORDER BY 1, 2, 3, 4
      ON CONFLICT (merchant_id, mes, hora, modalidade) DO UPDATE
        SET quantidade = v.quantidade + excluded.quantidade,
            bruto_centavos = v.bruto_centavos + excluded.bruto_centavos,
            liquido_centavos = v.liquido_centavos + excluded.liquido_centavos$q$, fonte)
  ]
$fn$;
REVOKE ALL ON FUNCTION vendas_rollup_sql(text) FROM PUBLIC;

-- Statement-level triggers with transition tables: one rollup write per statement, whatever
-- the number of rows. The transition tables are visible to the statements the trigger function
-- itself runs (EXECUTE). SECURITY DEFINER so any role allowed to write transacoes keeps the
-- rollups right without holding grants on them.
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

-- Rebuilds the rollups from transacoes (backfill; bulk loads that ran with the triggers
-- disabled; a tzdata change). Blocks writers on transacoes meanwhile, so nothing is missed.
CREATE FUNCTION balcao_rollups_reconstruir() RETURNS void
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

-- Backfill whatever transacoes already holds.
SELECT balcao_rollups_reconstruir();

-- The analytics role reads rollups only through tenant-filtered views (zero rows left by
-- reversals are hidden: they carry no sale). The tenant filter goes through a PARALLEL UNSAFE
-- wrapper of balcao_lojista_atual(): a query over these views reads a few thousand rows, and a
-- parallel plan (e.g. Parallel Append over the hourly pieces) costs more in worker start-up than
-- the whole scan; an unsafe function keeps every plan over the views serial. It is called once
-- per index scan (an index condition), not per row.
CREATE FUNCTION balcao_lojista_rollup() RETURNS bigint
  LANGUAGE sql STABLE PARALLEL UNSAFE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT balcao_lojista_atual()
$$;

CREATE VIEW vendas_diarias_lojista WITH (security_barrier) AS
  SELECT dia, modalidade, bandeira, quantidade, bruto_centavos, liquido_centavos
    FROM vendas_diarias
   WHERE merchant_id = balcao_lojista_rollup() AND quantidade > 0;
CREATE VIEW vendas_horarias_lojista WITH (security_barrier) AS
  SELECT dia, hora, modalidade, quantidade, bruto_centavos, liquido_centavos
    FROM vendas_horarias
   WHERE merchant_id = balcao_lojista_rollup() AND quantidade > 0;
CREATE VIEW vendas_mes_hora_lojista WITH (security_barrier) AS
  SELECT mes, hora, modalidade, quantidade, bruto_centavos, liquido_centavos
    FROM vendas_mes_hora
   WHERE merchant_id = balcao_lojista_rollup() AND quantidade > 0;
GRANT SELECT ON vendas_diarias_lojista, vendas_horarias_lojista, vendas_mes_hora_lojista
  TO balcao_analytics;

-- Down Migration
DROP VIEW IF EXISTS vendas_mes_hora_lojista, vendas_horarias_lojista, vendas_diarias_lojista;
DROP TRIGGER IF EXISTS transacoes_rollup_truncar ON transacoes;
DROP TRIGGER IF EXISTS transacoes_rollup_excluir ON transacoes;
DROP TRIGGER IF EXISTS transacoes_rollup_atualizar ON transacoes;
DROP TRIGGER IF EXISTS transacoes_rollup_inserir ON transacoes;
DROP FUNCTION IF EXISTS balcao_lojista_rollup();
DROP FUNCTION IF EXISTS balcao_rollups_reconstruir();
DROP FUNCTION IF EXISTS transacoes_rollup_truncar();
DROP FUNCTION IF EXISTS transacoes_rollup_excluir();
DROP FUNCTION IF EXISTS transacoes_rollup_atualizar();
DROP FUNCTION IF EXISTS transacoes_rollup_inserir();
DROP FUNCTION IF EXISTS vendas_rollup_sql(text);
DROP TABLE IF EXISTS vendas_mes_hora, vendas_horarias, vendas_diarias;
DROP FUNCTION IF EXISTS balcao_rollup_zona();
