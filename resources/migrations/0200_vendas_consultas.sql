-- Up Migration

-- What the analytics role may read about sales: the current tenant's approved sales, only the
-- columns the sales questions need. The tenant comes from balcao_lojista_atual() (set once per
-- transaction by balcao_definir_lojista); with no tenant set the view is empty.
-- security_barrier: the view's filters run before any function in the caller's query, so a
-- caller's predicate cannot observe rows of another merchant or status.
-- The view runs with its owner's rights (not security_invoker): the analytics role gets SELECT on
-- the view and nothing on transacoes.
CREATE VIEW vendas_aprovadas WITH (security_barrier = true) AS
  SELECT t.modalidade, t.bandeira, t.valor_bruto_centavos, t.valor_liquido_centavos,
         t.aprovada_em
    FROM transacoes t
   WHERE t.merchant_id = balcao_lojista_atual()
     AND t.status = 'aprovada';

REVOKE ALL ON vendas_aprovadas FROM PUBLIC;
GRANT SELECT ON vendas_aprovadas TO balcao_analytics;

-- One row per sales question that reached the engine: what was asked, the DSL, who asked about
-- which merchant, and how long it took. Written by the app role (the analytics role is
-- read-only), insert-only: it cannot read, change or delete what was logged.
CREATE TABLE consultas_vendas (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  operador text NOT NULL,
  origem text NOT NULL CHECK (origem IN ('pergunta', 'dsl')),
  pergunta text,
  -- The tool input as the model (or the CLI/UI) sent it, and the validated, resolved query.
  dsl jsonb,
  consulta jsonb,
  resultado text NOT NULL CHECK (resultado IN ('respondida', 'esclarecimento', 'invalida', 'erro')),
  erro text,
  linhas int,
  tentativas int NOT NULL DEFAULT 0,
  modelo text,
  uso jsonb NOT NULL DEFAULT '{}',
  -- Whole request (model included) and the SQL alone, in milliseconds.
  duracao_ms int NOT NULL CHECK (duracao_ms >= 0),
  duracao_sql_ms int CHECK (duracao_sql_ms >= 0),
  criada_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX consultas_vendas_merchant ON consultas_vendas (merchant_id, criada_em DESC);

GRANT INSERT ON consultas_vendas TO balcao_app;
GRANT USAGE ON SEQUENCE consultas_vendas_id_seq TO balcao_app;

-- Down Migration
DROP TABLE IF EXISTS consultas_vendas;
DROP VIEW IF EXISTS vendas_aprovadas;
