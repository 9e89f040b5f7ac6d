-- Up Migration

-- Review queue: leases (who is handling an item, until when), the agent's draft edits, how an
-- item left the queue, and the indexes behind the keyset-paginated list.

-- Trigram search in the merchant's text (pg_trgm is a trusted extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

ALTER TABLE extracoes
  -- Lease: an agent holds the item while `lease_expira_em` (database time) is in the future.
  -- Claims are conditional UPDATEs decided by PostgreSQL, so two agents never both win.
  ADD COLUMN lease_operador text,
  ADD COLUMN lease_token uuid,
  ADD COLUMN lease_expira_em timestamptz,
  -- The agent's edits not yet confirmed (the model's version stays in `dados`).
  ADD COLUMN dados_revisados jsonb,
  -- How the item left the queue.
  ADD COLUMN resolvida_por text,
  ADD COLUMN resolvida_em timestamptz,
  ADD COLUMN descarte_motivo text
    CHECK (descarte_motivo IN ('duplicada', 'teste', 'sem_resposta', 'fora_do_escopo', 'cancelada_pelo_lojista', 'outro')),
  ADD COLUMN descarte_detalhe text CHECK (length(descarte_detalhe) <= 500),
  -- The main reason an item needs a person, as a code for filters and reports.
  ADD COLUMN motivo_codigo text GENERATED ALWAYS AS (
    CASE
      WHEN status = 'falhou' THEN coalesce(erros -> 0 ->> 'regra', 'falhou')
      WHEN status = 'incompleto' THEN 'faltando'
      ELSE alertas -> 0 ->> 'codigo'
    END
  ) STORED,
  ADD CONSTRAINT extracoes_lease_completo
    CHECK ((lease_token IS NULL) = (lease_expira_em IS NULL) AND (lease_token IS NULL) = (lease_operador IS NULL)),
  ADD CONSTRAINT extracoes_descarte_com_motivo
    CHECK (fila_estado <> 'descartada' OR descarte_motivo IS NOT NULL);

-- Keyset paths of the queue list (fila_estado is always filtered; the rest are the sort keys).
-- (fila_estado, criada_em DESC, id DESC) exists since 0001 and also serves the ascending sort.
CREATE INDEX extracoes_fila_status ON extracoes (fila_estado, status, criada_em DESC, id DESC);
CREATE INDEX extracoes_fila_merchant ON extracoes (fila_estado, merchant_id, criada_em DESC, id DESC);
CREATE INDEX extracoes_fila_motivo ON extracoes (fila_estado, motivo_codigo, criada_em DESC, id DESC);
CREATE INDEX extracoes_fila_tentativas ON extracoes (fila_estado, tentativas DESC, criada_em DESC, id DESC);
CREATE INDEX extracoes_texto_trgm ON extracoes USING gin (texto gin_trgm_ops);
-- Report over a period.
CREATE INDEX extracoes_criada_em ON extracoes (criada_em);

-- Charges list, newest first, optionally per merchant.
CREATE INDEX cobrancas_criada_em ON cobrancas (criada_em DESC, id DESC);
CREATE INDEX cobrancas_merchant ON cobrancas (merchant_id, criada_em DESC, id DESC);

-- Audit entries by time (reports, reviews).
CREATE INDEX auditoria_ocorrido_em ON auditoria (ocorrido_em);

-- A created charge is final for the app: it can insert and read charges, never change them;
-- and the audit log stays append-only for it (the trigger also stops the owner).
REVOKE UPDATE, DELETE, TRUNCATE ON cobrancas FROM balcao_app;
REVOKE UPDATE, DELETE, TRUNCATE ON auditoria FROM balcao_app;
GRANT SELECT, INSERT ON cobrancas, auditoria TO balcao_app;
GRANT SELECT, INSERT, UPDATE ON extracoes, extracao_tentativas TO balcao_app;

-- Down Migration
GRANT UPDATE ON cobrancas TO balcao_app;
DROP INDEX IF EXISTS auditoria_ocorrido_em;
DROP INDEX IF EXISTS cobrancas_merchant;
DROP INDEX IF EXISTS cobrancas_criada_em;
DROP INDEX IF EXISTS extracoes_criada_em;
DROP INDEX IF EXISTS extracoes_texto_trgm;
DROP INDEX IF EXISTS extracoes_fila_tentativas;
DROP INDEX IF EXISTS extracoes_fila_motivo;
DROP INDEX IF EXISTS extracoes_fila_merchant;
DROP INDEX IF EXISTS extracoes_fila_status;
ALTER TABLE extracoes
  DROP CONSTRAINT IF EXISTS extracoes_descarte_com_motivo,
  DROP CONSTRAINT IF EXISTS extracoes_lease_completo,
  DROP COLUMN IF EXISTS motivo_codigo,
  DROP COLUMN IF EXISTS descarte_detalhe,
  DROP COLUMN IF EXISTS descarte_motivo,
  DROP COLUMN IF EXISTS resolvida_em,
  DROP COLUMN IF EXISTS resolvida_por,
  DROP COLUMN IF EXISTS dados_revisados,
  DROP COLUMN IF EXISTS lease_expira_em,
  DROP COLUMN IF EXISTS lease_token,
  DROP COLUMN IF EXISTS lease_operador;
