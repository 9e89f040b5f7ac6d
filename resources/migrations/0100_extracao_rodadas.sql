-- Up Migration

-- Follow-up rounds of an extraction: when the merchant answers what was missing, the engine
-- re-runs on the original text plus the answers and updates the same row; each round's
-- outcome is kept here (and its attempts in extracao_tentativas.rodada), so history stays.
ALTER TABLE extracoes ADD COLUMN rodadas jsonb NOT NULL DEFAULT '[]';
ALTER TABLE extracao_tentativas ADD COLUMN rodada int NOT NULL DEFAULT 1 CHECK (rodada >= 1);

-- Table-level grants of 0001 cover the new columns (balcao_app: SELECT, INSERT, UPDATE).

-- Down Migration
ALTER TABLE extracao_tentativas DROP COLUMN IF EXISTS rodada;
ALTER TABLE extracoes DROP COLUMN IF EXISTS rodadas;
