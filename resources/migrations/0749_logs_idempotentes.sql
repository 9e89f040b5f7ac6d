-- Up Migration

-- #11 No log entry lost, none doubled. Each query-log row carries a key chosen by the writer
-- before the first try: a write retried after a lost connection (the server may have committed
-- the first one) inserts at most one row (ON CONFLICT (chave) DO NOTHING). Old rows have none.
ALTER TABLE consultas_vendas ADD COLUMN chave uuid;
CREATE UNIQUE INDEX consultas_vendas_chave ON consultas_vendas (chave) WHERE chave IS NOT NULL;
ALTER TABLE consultas_livres ADD COLUMN chave uuid;
CREATE UNIQUE INDEX consultas_livres_chave ON consultas_livres (chave) WHERE chave IS NOT NULL;
-- ON CONFLICT (chave) needs SELECT on the conflict column; writers that may only INSERT into the
-- logs get exactly that column (random keys, nothing else readable).
DO $grants$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['balcao_app', 'balcao_financeiro', 'balcao_supervisor'] LOOP
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('GRANT SELECT (chave) ON consultas_vendas, consultas_livres TO %I', r);
    END IF;
  END LOOP;
END
$grants$;

-- #11 part 8: `balcao extract --file` batches are idempotent. Each line's key (derived from the
-- merchant, the text and its occurrence in the file) is stored with its extraction, so a re-run
-- after a fault skips the lines already stored and finishes the rest exactly once.
ALTER TABLE extracoes ADD COLUMN chave_lote text CHECK (length(chave_lote) <= 100);
CREATE UNIQUE INDEX extracoes_chave_lote ON extracoes (chave_lote) WHERE chave_lote IS NOT NULL;

-- Down Migration
DROP INDEX IF EXISTS extracoes_chave_lote;
ALTER TABLE extracoes DROP COLUMN IF EXISTS chave_lote;
DROP INDEX IF EXISTS consultas_livres_chave;
ALTER TABLE consultas_livres DROP COLUMN IF EXISTS chave;
DROP INDEX IF EXISTS consultas_vendas_chave;
ALTER TABLE consultas_vendas DROP COLUMN IF EXISTS chave;
