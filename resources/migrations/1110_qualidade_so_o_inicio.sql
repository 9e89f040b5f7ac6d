-- Up Migration
-- Quality sampling without a hot row (#39.4, found by bench-fila #39.1): the pair's counter in
-- qualidade_versoes was bumped by every charge creation, so every confirm of a team held the same
-- row lock until its commit — confirms queued behind each other for seconds under 50 agents.
-- The counter exists only to know the first N charges of a (model, prompt version) exactly. Now a
-- creator reads it without a lock and bumps it only while it is below N (and the bump itself
-- re-checks that on the locked row): past the first N no creator writes or locks it, and the draw
-- by the charge's id alone decides. So `criadas` counts the pair's charges up to N, and a sample
-- drawn after the start has no place among them (`ordem` NULL).
ALTER TABLE qualidade_amostras ALTER COLUMN ordem DROP NOT NULL;
ALTER TABLE qualidade_amostras
  ADD CONSTRAINT qualidade_amostras_ordem_inicial CHECK (motivo <> 'inicial' OR ordem IS NOT NULL);
COMMENT ON COLUMN qualidade_versoes.criadas IS
  'Charges created for this pair, counted up to the first N of the sampling (BALCAO_AMOSTRA_QUALIDADE_INICIAL); not bumped after that.';
COMMENT ON COLUMN qualidade_amostras.ordem IS
  'The charge''s place among its pair''s first N charges (motivo inicial); NULL for a draw after them.';

-- Down Migration
ALTER TABLE qualidade_amostras DROP CONSTRAINT IF EXISTS qualidade_amostras_ordem_inicial;
UPDATE qualidade_amostras SET ordem = 1 WHERE ordem IS NULL;
ALTER TABLE qualidade_amostras ALTER COLUMN ordem SET NOT NULL;
COMMENT ON COLUMN qualidade_versoes.criadas IS NULL;
COMMENT ON COLUMN qualidade_amostras.ordem IS NULL;
