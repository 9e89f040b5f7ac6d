-- Up Migration

-- Issue #36: from a confirmed charge to money. Every charge gets, in the transaction that creates
-- it, one dispatch row (cobrancas_envios) and one job of the `cobrancas` queue; every change of
-- state is a row of cobrancas_eventos. The txid is derived from the charge once, here, and never
-- changes: a retry after a crash between the PSP's answer and our commit re-PUTs the same txid.

-- The merchant's Pix key (validated by the app: CPF, CNPJ, e-mail, +55 phone, EVP UUID).
ALTER TABLE merchants ADD COLUMN chave_pix text
  CHECK (chave_pix IS NULL OR (length(chave_pix) BETWEEN 1 AND 77 AND chave_pix !~ '\s'));
GRANT UPDATE (chave_pix) ON merchants TO balcao_app;

-- 'blc' + the id zero-padded to 12 + 16 hex of sha256(id, creation instant): 31 characters of
-- [a-zA-Z0-9], unique per charge and per database (a reset database does not reuse a txid).
CREATE FUNCTION balcao_pix_txid(p_id bigint, p_criada_em timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT 'blc' || lpad(p_id::text, 12, '0')
    || left(encode(sha256(convert_to(p_id::text || ':' || (extract(epoch FROM p_criada_em) * 1000000)::bigint::text, 'UTF8')), 'hex'), 16)
$$;

CREATE TABLE cobrancas_envios (
  cobranca_id bigint PRIMARY KEY REFERENCES cobrancas (id) ON DELETE CASCADE,
  estado text NOT NULL DEFAULT 'pendente' CHECK (estado IN (
    'pendente', 'registrada', 'enviada_ao_lojista', 'paga', 'expirada', 'cancelada', 'falhou')),
  -- Why it failed (pt-BR, for a person) or why it waits ('pendente' without a PSP).
  motivo text,
  txid text NOT NULL UNIQUE CHECK (txid ~ '^[a-zA-Z0-9]{26,35}$'),
  tipo text CHECK (tipo IN ('cob', 'cobv')),
  location text,
  copia_e_cola text,
  link text,
  psp_status text,
  tentativas int NOT NULL DEFAULT 0,
  -- A worker's claim on the dispatch (a dead worker's expires; another continues).
  em_andamento_ate timestamptz,
  proxima_tentativa_em timestamptz,
  pago_centavos bigint,
  criada_em timestamptz NOT NULL DEFAULT now(),
  atualizada_em timestamptz NOT NULL DEFAULT now(),
  registrada_em timestamptz,
  paga_em timestamptz,
  CHECK (estado <> 'falhou' OR motivo IS NOT NULL),
  CHECK (estado NOT IN ('registrada', 'enviada_ao_lojista', 'paga') OR copia_e_cola IS NOT NULL)
);
CREATE INDEX cobrancas_envios_estado ON cobrancas_envios (estado, atualizada_em);

-- Every dispatch step, append-only.
CREATE TABLE cobrancas_eventos (
  id bigserial PRIMARY KEY,
  cobranca_id bigint NOT NULL REFERENCES cobrancas (id) ON DELETE CASCADE,
  ocorrido_em timestamptz NOT NULL DEFAULT now(),
  de text,
  para text,
  evento text NOT NULL,
  operador text NOT NULL,
  detalhes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX cobrancas_eventos_cobranca ON cobrancas_eventos (cobranca_id, id);

-- Pix received through the PSP's webhook, once per endToEndId (a repeated callback is a no-op).
CREATE TABLE pix_recebidos (
  end_to_end_id text PRIMARY KEY,
  txid text NOT NULL,
  valor text NOT NULL,
  horario text,
  corpo jsonb NOT NULL,
  cobranca_id bigint REFERENCES cobrancas (id) ON DELETE CASCADE,
  recebido_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pix_recebidos_txid ON pix_recebidos (txid);

GRANT SELECT, INSERT, UPDATE ON cobrancas_envios TO balcao_app;
GRANT SELECT, INSERT ON cobrancas_eventos, pix_recebidos TO balcao_app;
GRANT USAGE ON SEQUENCE cobrancas_eventos_id_seq TO balcao_app;
REVOKE ALL ON FUNCTION balcao_pix_txid(bigint, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_pix_txid(bigint, timestamptz) TO balcao_app;
-- People who confirm charges write the dispatch row, its first event and its job too.
GRANT SELECT, INSERT ON cobrancas_envios, cobrancas_eventos TO balcao_suporte, balcao_supervisor;
GRANT UPDATE ON cobrancas_envios TO balcao_supervisor;
GRANT SELECT ON cobrancas_envios, cobrancas_eventos TO balcao_pessoa;
GRANT USAGE ON SEQUENCE cobrancas_eventos_id_seq TO balcao_suporte, balcao_supervisor;
GRANT EXECUTE ON FUNCTION balcao_pix_txid(bigint, timestamptz) TO balcao_suporte, balcao_supervisor;
GRANT USAGE ON SCHEMA pgboss TO balcao_suporte, balcao_supervisor;
GRANT SELECT ON pgboss.queue TO balcao_suporte, balcao_supervisor;
GRANT INSERT ON pgboss.job TO balcao_suporte, balcao_supervisor;

-- The dispatch queue: a job per step of a charge (send, confirm a payment); the step itself
-- decides from the row what to do, so a repeated or late job is harmless.
SELECT pgboss.create_queue('cobrancas', json_build_object(
  'policy', 'standard', 'retryLimit', 10, 'retryDelay', 2, 'retryBackoff', true,
  'expireInSeconds', 120, 'retentionMinutes', 10080));
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO balcao_app;

-- Down Migration
DELETE FROM pgboss.job WHERE name = 'cobrancas';
SELECT pgboss.delete_queue('cobrancas');
DROP TABLE IF EXISTS pix_recebidos, cobrancas_eventos, cobrancas_envios;
DROP FUNCTION IF EXISTS balcao_pix_txid(bigint, timestamptz);
ALTER TABLE merchants DROP COLUMN IF EXISTS chave_pix;
