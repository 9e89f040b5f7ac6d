-- Up Migration
-- Quality sampling (#39.4): a share of the charges (automatic and agent-confirmed) goes to a
-- supervisor, who marks each field right or wrong; the report measures the extraction's accuracy
-- per field and per (model, prompt version) from those judgements.
--   * extracoes.versao_prompt: the prompt version that produced the extraction's current data
--     (with extracoes.modelo, the pair the accuracy is measured for);
--   * qualidade_versoes: one counter row per pair, bumped by the statement that writes a charge
--     (its row lock orders concurrent creators), so the first N charges of a pair are known
--     exactly, in the database, whatever the number of processes;
--   * qualidade_amostras: the sampled charges, written by that same statement;
--   * qualidade_julgamentos: the supervisor's right/wrong per field.

ALTER TABLE extracoes ADD COLUMN versao_prompt text;

CREATE TABLE qualidade_versoes (
  modelo text NOT NULL,
  versao_prompt text NOT NULL,
  criadas bigint NOT NULL DEFAULT 1 CHECK (criadas >= 1),
  PRIMARY KEY (modelo, versao_prompt)
);

CREATE TABLE qualidade_amostras (
  cobranca_id bigint PRIMARY KEY REFERENCES cobrancas (id) ON DELETE CASCADE,
  extracao_id bigint NOT NULL REFERENCES extracoes (id) ON DELETE CASCADE,
  modelo text NOT NULL,
  versao_prompt text NOT NULL,
  origem text NOT NULL CHECK (origem IN ('automatica', 'agente')),
  -- The charge's place among its pair's charges (1 = the first) and why it was sampled.
  ordem bigint NOT NULL CHECK (ordem >= 1),
  motivo text NOT NULL CHECK (motivo IN ('inicial', 'sorteio')),
  sorteada_em timestamptz NOT NULL DEFAULT now(),
  julgada_por text,
  julgada_em timestamptz,
  CHECK ((julgada_por IS NULL) = (julgada_em IS NULL))
);
CREATE INDEX qualidade_amostras_pendentes ON qualidade_amostras (sorteada_em, cobranca_id)
  WHERE julgada_em IS NULL;
CREATE INDEX qualidade_amostras_versao ON qualidade_amostras (modelo, versao_prompt);

CREATE TABLE qualidade_julgamentos (
  cobranca_id bigint NOT NULL REFERENCES qualidade_amostras (cobranca_id) ON DELETE CASCADE,
  campo text NOT NULL CHECK (campo IN ('valor_centavos', 'parcelas', 'metodo', 'cliente_nome',
                                       'vencimento', 'descricao')),
  certo boolean NOT NULL,
  PRIMARY KEY (cobranca_id, campo)
);

-- The sampler's draw: a 32-bit mix (murmur3's finalizer) of the charge id, kept when it falls
-- below the share (in hundredths of a percent, 0–10000). The same id always gets the same draw;
-- src-shared/quality.ts holds the same function (a test checks both agree).
CREATE FUNCTION balcao_qualidade_sorteio(id bigint) RETURNS int
  LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog AS $$
DECLARE
  h bigint := (id % 4294967296) # ((id / 4294967296) % 4294967296);
BEGIN
  h := h # (h >> 16);
  h := ((h::numeric * 2246822507) % 4294967296)::bigint;
  h := h # (h >> 13);
  h := ((h::numeric * 3266489909) % 4294967296)::bigint;
  h := h # (h >> 16);
  RETURN (h % 10000)::int;
END
$$;
REVOKE ALL ON FUNCTION balcao_qualidade_sorteio(bigint) FROM PUBLIC;

GRANT SELECT, INSERT, UPDATE ON qualidade_versoes TO balcao_app, balcao_suporte, balcao_supervisor;
GRANT SELECT, INSERT, UPDATE ON qualidade_amostras TO balcao_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON qualidade_julgamentos TO balcao_app;
GRANT INSERT ON qualidade_amostras TO balcao_suporte;
GRANT SELECT, INSERT, UPDATE ON qualidade_amostras TO balcao_supervisor;
GRANT SELECT, INSERT, UPDATE, DELETE ON qualidade_julgamentos TO balcao_supervisor;
GRANT EXECUTE ON FUNCTION balcao_qualidade_sorteio(bigint)
  TO balcao_app, balcao_suporte, balcao_supervisor;

-- Down Migration
DROP TABLE IF EXISTS qualidade_julgamentos, qualidade_amostras, qualidade_versoes;
DROP FUNCTION IF EXISTS balcao_qualidade_sorteio(bigint);
ALTER TABLE extracoes DROP COLUMN IF EXISTS versao_prompt;
