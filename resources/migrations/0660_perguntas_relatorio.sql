-- Up Migration

-- The "Perguntas" report reads the sales-question log. Two facts the rows did not keep:
--   desfecho  what the writer knows that the row cannot show (a free-SQL attempt refused by the
--             guard); NULL means "derive it from the row" (see perguntas_registradas).
--   sessao    the panel session (window) that asked: a chip edit (origem 'dsl') is paired with
--             the answer shown before it in the same session, so the report can say which chips
--             people change after an answer, from what to what.
ALTER TABLE consultas_vendas
  ADD COLUMN desfecho text CHECK (desfecho IN ('dsl', 'esclarecimento', 'nao_expressavel',
                                               'sql_livre', 'sql_recusado', 'erro_modelo', 'erro')),
  ADD COLUMN sessao text CHECK (length(sessao) <= 100);

CREATE INDEX consultas_vendas_criada_em ON consultas_vendas (criada_em);
CREATE INDEX consultas_vendas_sessao ON consultas_vendas (sessao, id) WHERE sessao IS NOT NULL;

-- Accents and case folded, punctuation and repeated spaces dropped: "Quanto vendi  hoje?" and
-- "quanto vendí hoje" group together.
CREATE FUNCTION balcao_normalizar_pergunta(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT btrim(regexp_replace(regexp_replace(
           translate(lower(t),
                     'áàâãäåéèêëíìîïóòôõöúùûüçñý',
                     'aaaaaaeeeeiiiiooooouuuucny'),
           '[^a-z0-9 ]+', ' ', 'g'),
           ' +', ' ', 'g'))
$$;

-- Every logged question with its outcome, one definition for the report and the CLI.
CREATE VIEW perguntas_registradas AS
  SELECT id, merchant_id, operador, origem, pergunta, dsl, consulta, resultado, erro, sessao,
         criada_em,
         coalesce(desfecho, CASE
           WHEN resultado = 'respondida' AND consulta IS NOT NULL THEN 'dsl'
           WHEN (dsl ->> 'nao_expressavel') = 'true' AND resultado = 'respondida' THEN 'sql_livre'
           WHEN (dsl ->> 'nao_expressavel') = 'true' AND resultado = 'esclarecimento'
             THEN 'nao_expressavel'
           WHEN resultado = 'esclarecimento' THEN 'esclarecimento'
           WHEN resultado = 'erro' AND consulta IS NOT NULL THEN 'erro'
           WHEN (dsl ->> 'nao_expressavel') = 'true' THEN 'erro'
           ELSE 'erro_modelo'
         END) AS desfecho
    FROM consultas_vendas;

REVOKE ALL ON perguntas_registradas FROM PUBLIC;
GRANT SELECT ON perguntas_registradas TO balcao_app;

-- Down Migration
DROP VIEW IF EXISTS perguntas_registradas;
DROP FUNCTION IF EXISTS balcao_normalizar_pergunta(text);
DROP INDEX IF EXISTS consultas_vendas_sessao;
DROP INDEX IF EXISTS consultas_vendas_criada_em;
ALTER TABLE consultas_vendas DROP COLUMN IF EXISTS sessao, DROP COLUMN IF EXISTS desfecho;
