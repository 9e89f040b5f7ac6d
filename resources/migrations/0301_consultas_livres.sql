-- Up Migration

-- Log of every free (model- or operator-written) SQL query: question, SQL, verdict, timing.
-- Written by the app role; append-only (no UPDATE/DELETE grants, trigger for the owner too).
CREATE TABLE consultas_livres (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL,
  origem text NOT NULL CHECK (origem IN ('cli', 'modelo', 'app')),
  pergunta text,
  sql text NOT NULL,
  veredito text NOT NULL CHECK (veredito IN ('aceita', 'recusada', 'falhou')),
  codigo text,
  motivo text,
  linhas int,
  truncado boolean NOT NULL DEFAULT false,
  duracao_ms int NOT NULL CHECK (duracao_ms >= 0),
  criada_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX consultas_livres_merchant ON consultas_livres (merchant_id, criada_em DESC);

CREATE FUNCTION consultas_livres_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'consultas_livres é somente inserção' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER consultas_livres_imutavel BEFORE UPDATE OR DELETE ON consultas_livres
  FOR EACH ROW EXECUTE FUNCTION consultas_livres_somente_insercao();

GRANT SELECT, INSERT ON consultas_livres TO balcao_app;
GRANT USAGE ON SEQUENCE consultas_livres_id_seq TO balcao_app;

-- Down Migration
DROP TABLE IF EXISTS consultas_livres;
DROP FUNCTION IF EXISTS consultas_livres_somente_insercao();
