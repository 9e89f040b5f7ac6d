-- Up Migration

-- Login roles are cluster-wide: create them once, tolerate a concurrent creator.
DO $roles$
BEGIN
  BEGIN
    CREATE ROLE balcao_app LOGIN;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  BEGIN
    CREATE ROLE balcao_analytics LOGIN NOINHERIT;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
END
$roles$;

-- Nobody gets objects by default through PUBLIC in this schema.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO balcao_app, balcao_analytics;

CREATE TABLE merchants (
  id bigint PRIMARY KEY,
  nome text NOT NULL CHECK (length(trim(nome)) > 0)
);

CREATE TABLE transacoes (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  status text NOT NULL CHECK (status IN ('aprovada', 'negada', 'estornada', 'chargeback')),
  modalidade text NOT NULL CHECK (modalidade IN ('debito', 'credito_avista', 'credito_parcelado', 'pix')),
  bandeira text CHECK (bandeira IN ('visa', 'mastercard', 'elo', 'amex', 'hipercard')),
  parcelas int NOT NULL DEFAULT 1 CHECK (parcelas BETWEEN 1 AND 24),
  valor_bruto_centavos bigint NOT NULL CHECK (valor_bruto_centavos >= 0),
  valor_liquido_centavos bigint NOT NULL CHECK (valor_liquido_centavos >= 0),
  aprovada_em timestamptz NOT NULL,
  CHECK ((modalidade = 'pix') = (bandeira IS NULL))
);
CREATE INDEX transacoes_merchant_status_aprovada_em ON transacoes (merchant_id, status, aprovada_em);

-- Charge extractions: one row per merchant request, with its whole history.
CREATE TABLE extracoes (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  texto text NOT NULL,
  status text NOT NULL CHECK (status IN ('completo', 'incompleto', 'falhou')),
  dados jsonb,
  erros jsonb NOT NULL DEFAULT '[]',
  alertas jsonb NOT NULL DEFAULT '[]',
  tentativas int NOT NULL DEFAULT 0,
  modelo text,
  uso jsonb NOT NULL DEFAULT '{}',
  custo_estimado_usd numeric(14, 6),
  duracao_ms int,
  hoje date,
  -- Review queue state: 'aberta' (needs a person), 'resolvida' (charge created), 'descartada', 'concluida' (no review needed)
  fila_estado text NOT NULL DEFAULT 'aberta'
    CHECK (fila_estado IN ('aberta', 'resolvida', 'descartada', 'concluida')),
  criada_em timestamptz NOT NULL DEFAULT now(),
  atualizada_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX extracoes_fila ON extracoes (fila_estado, criada_em DESC, id DESC);
CREATE INDEX extracoes_merchant ON extracoes (merchant_id, criada_em DESC);

-- Every model attempt of an extraction: what the model sent and which rules failed.
CREATE TABLE extracao_tentativas (
  id bigserial PRIMARY KEY,
  extracao_id bigint NOT NULL REFERENCES extracoes (id) ON DELETE CASCADE,
  numero int NOT NULL CHECK (numero >= 1),
  entrada jsonb,
  erros jsonb NOT NULL DEFAULT '[]',
  uso jsonb NOT NULL DEFAULT '{}',
  stop_reason text,
  duracao_ms int,
  criada_em timestamptz NOT NULL DEFAULT now(),
  UNIQUE (extracao_id, numero)
);

-- Charges created by agents: at most one per extraction (idempotency lives in the database).
CREATE TABLE cobrancas (
  id bigserial PRIMARY KEY,
  extracao_id bigint NOT NULL UNIQUE REFERENCES extracoes (id),
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  valor_centavos bigint NOT NULL CHECK (valor_centavos BETWEEN 100 AND 10000000),
  parcelas int NOT NULL CHECK (parcelas BETWEEN 1 AND 12),
  metodo text NOT NULL CHECK (metodo IN ('pix', 'boleto', 'cartao')),
  cliente_nome text NOT NULL,
  vencimento date NOT NULL,
  descricao text,
  alteracoes jsonb NOT NULL DEFAULT '{}',
  criada_por text NOT NULL,
  criada_em timestamptz NOT NULL DEFAULT now()
);

-- Append-only audit log.
CREATE TABLE auditoria (
  id bigserial PRIMARY KEY,
  ocorrido_em timestamptz NOT NULL DEFAULT now(),
  operador text NOT NULL,
  acao text NOT NULL,
  extracao_id bigint REFERENCES extracoes (id),
  antes jsonb,
  depois jsonb,
  detalhes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX auditoria_extracao ON auditoria (extracao_id, ocorrido_em);

CREATE FUNCTION auditoria_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'auditoria é somente inserção' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER auditoria_imutavel BEFORE UPDATE OR DELETE ON auditoria
  FOR EACH ROW EXECUTE FUNCTION auditoria_somente_insercao();
CREATE TRIGGER auditoria_sem_truncate BEFORE TRUNCATE ON auditoria
  FOR EACH STATEMENT EXECUTE FUNCTION auditoria_somente_insercao();

-- App role: reads merchants, works the queue; cannot touch sales data or rewrite the audit log.
GRANT SELECT ON merchants TO balcao_app;
GRANT SELECT, INSERT, UPDATE ON extracoes, extracao_tentativas, cobrancas TO balcao_app;
GRANT SELECT, INSERT ON auditoria TO balcao_app;
GRANT USAGE ON SEQUENCE extracoes_id_seq, extracao_tentativas_id_seq, cobrancas_id_seq, auditoria_id_seq TO balcao_app;

-- Tenant context for the analytics role. Only this function writes it, once per transaction;
-- the analytics role cannot call set_config itself (see the free-SQL guard migration).
CREATE FUNCTION balcao_definir_lojista(p_merchant_id bigint) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF p_merchant_id IS NULL OR p_merchant_id <= 0 THEN
    RAISE EXCEPTION 'lojista inválido' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF coalesce(current_setting('balcao.merchant_id', true), '') <> '' THEN
    RAISE EXCEPTION 'lojista já definido nesta transação' USING ERRCODE = 'insufficient_privilege';
  END IF;
  PERFORM set_config('balcao.merchant_id', p_merchant_id::text, true);
END
$$;
REVOKE ALL ON FUNCTION balcao_definir_lojista(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_definir_lojista(bigint) TO balcao_analytics;

-- The current tenant, or an error when none was set: a query without tenant sees nothing.
CREATE FUNCTION balcao_lojista_atual() RETURNS bigint
  LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT nullif(current_setting('balcao.merchant_id', true), '')::bigint
$$;

-- Analytics roles read merchants' sales only through tenant views created by the analytics
-- migrations; the role is read-only by default, whatever the session asks for.
ALTER ROLE balcao_analytics SET default_transaction_read_only = on;

-- Down Migration
DROP FUNCTION IF EXISTS balcao_lojista_atual();
DROP FUNCTION IF EXISTS balcao_definir_lojista(bigint);
DROP TABLE IF EXISTS auditoria, cobrancas, extracao_tentativas, extracoes, transacoes, merchants;
DROP FUNCTION IF EXISTS auditoria_somente_insercao();
