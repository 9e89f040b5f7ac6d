-- Up Migration

-- Issue #37: the merchant's channel, WhatsApp Business Cloud API, in and out.
--
-- The merchant of an inbound WhatsApp message is whoever its sending number is registered to
-- here (E.164, one number → one merchant), never a field of the payload.
CREATE TABLE lojistas_contatos (
  telefone text PRIMARY KEY CHECK (telefone ~ '^\+[1-9][0-9]{7,14}$'),
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  criado_em timestamptz NOT NULL DEFAULT now(),
  criado_por text NOT NULL CHECK (length(criado_por) BETWEEN 1 AND 200)
);
CREATE INDEX lojistas_contatos_merchant ON lojistas_contatos (merchant_id, telefone);

-- Every WhatsApp message received, once per wamid (a retried delivery is a no-op): text or not,
-- from a registered number or not. A text message of a merchant also becomes a `mensagens` row
-- (canal 'whatsapp', mensagem_id = wamid) with its intake job, in the same transaction.
CREATE TABLE whatsapp_recebidas (
  wamid text PRIMARY KEY CHECK (length(wamid) BETWEEN 1 AND 200),
  -- The sender, E.164 ('+' and the wa_id's digits).
  telefone text NOT NULL CHECK (telefone ~ '^\+[0-9]{6,20}$'),
  phone_number_id text NOT NULL,
  tipo text NOT NULL CHECK (length(tipo) BETWEEN 1 AND 40),
  merchant_id bigint REFERENCES merchants (id),
  mensagem bigint REFERENCES mensagens (id),
  -- Meta's timestamp of the message.
  enviada_em timestamptz NOT NULL,
  recebida_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX whatsapp_recebidas_telefone ON whatsapp_recebidas (telefone, recebida_em);

-- The outbox also carries replies that belong to no extraction (an unknown number, a message
-- that is not text): merchant, extraction, origin and thread become optional, and every row
-- tracks its sending (estado) and its delivery (Meta's statuses).
ALTER TABLE mensagens_saida
  ALTER COLUMN merchant_id DROP NOT NULL,
  ALTER COLUMN extracao_id DROP NOT NULL,
  ALTER COLUMN origem DROP NOT NULL,
  ALTER COLUMN responde_a DROP NOT NULL,
  -- 'pergunta' (intake/agent), 'numero_desconhecido', 'nao_texto', 'texto_longo'.
  ADD COLUMN tipo text NOT NULL DEFAULT 'pergunta' CHECK (length(tipo) BETWEEN 1 AND 40),
  -- Destination (E.164) when known at creation; else the number the answered message came from,
  -- else the merchant's registered number.
  ADD COLUMN telefone text CHECK (telefone ~ '^\+[0-9]{6,20}$'),
  -- pendente → enviando → enviada → entregue → lida; falhou (motivo in pt-BR, for a person).
  ADD COLUMN estado text NOT NULL DEFAULT 'pendente'
    CHECK (estado IN ('pendente', 'enviando', 'enviada', 'entregue', 'lida', 'falhou')),
  ADD COLUMN wamid text UNIQUE CHECK (length(wamid) BETWEEN 1 AND 200),
  ADD COLUMN tentativas int NOT NULL DEFAULT 0,
  ADD COLUMN proxima_tentativa_em timestamptz,
  -- A sender's claim (a dead sender's expires; its row is reconciled by the status webhooks
  -- before it is sent again).
  ADD COLUMN em_andamento_ate timestamptz,
  ADD COLUMN motivo text CHECK (length(motivo) <= 500),
  ADD COLUMN erro_codigo int,
  ADD COLUMN entregue_em timestamptz,
  ADD COLUMN lida_em timestamptz,
  ADD COLUMN falhou_em timestamptz,
  ADD CONSTRAINT mensagens_saida_falhou_motivo CHECK (estado <> 'falhou' OR motivo IS NOT NULL);
CREATE INDEX mensagens_saida_whatsapp_abertas ON mensagens_saida (estado, id)
  WHERE canal = 'whatsapp' AND estado IN ('pendente', 'enviando');
CREATE INDEX mensagens_saida_telefone ON mensagens_saida (telefone, tipo, criada_em)
  WHERE telefone IS NOT NULL;

-- The sender's queue: one job per WhatsApp outbox row, written by the statement that writes the
-- row (whoever writes it: the intake, the webhook, an agent). The job decides from the row what
-- to do, so a repeated or late job is harmless.
SELECT pgboss.create_queue('whatsapp', json_build_object(
  'policy', 'standard', 'retryLimit', 10, 'retryDelay', 5, 'retryBackoff', true,
  'expireInSeconds', 120, 'retentionMinutes', 10080));

CREATE FUNCTION balcao_whatsapp_job() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in,
                          keep_until, policy)
  VALUES ('whatsapp', jsonb_build_object('saida', NEW.id), 10, 5, true, interval '120 seconds',
          now() + interval '14 days', 'standard');
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION balcao_whatsapp_job() FROM PUBLIC;
CREATE TRIGGER mensagens_saida_whatsapp_job AFTER INSERT ON mensagens_saida
  FOR EACH ROW WHEN (NEW.canal = 'whatsapp') EXECUTE FUNCTION balcao_whatsapp_job();

GRANT SELECT, INSERT, DELETE ON lojistas_contatos TO balcao_app;
GRANT SELECT, INSERT, UPDATE ON whatsapp_recebidas TO balcao_app;
GRANT SELECT ON lojistas_contatos, whatsapp_recebidas TO balcao_pessoa;
GRANT INSERT, DELETE ON lojistas_contatos TO balcao_supervisor;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO balcao_app;

-- Down Migration
DROP TRIGGER IF EXISTS mensagens_saida_whatsapp_job ON mensagens_saida;
DROP FUNCTION IF EXISTS balcao_whatsapp_job();
DELETE FROM pgboss.job WHERE name = 'whatsapp';
SELECT pgboss.delete_queue('whatsapp');
DROP INDEX IF EXISTS mensagens_saida_telefone;
DROP INDEX IF EXISTS mensagens_saida_whatsapp_abertas;
ALTER TABLE mensagens_saida
  DROP CONSTRAINT IF EXISTS mensagens_saida_falhou_motivo,
  DROP COLUMN IF EXISTS falhou_em, DROP COLUMN IF EXISTS lida_em,
  DROP COLUMN IF EXISTS entregue_em, DROP COLUMN IF EXISTS erro_codigo,
  DROP COLUMN IF EXISTS motivo, DROP COLUMN IF EXISTS em_andamento_ate,
  DROP COLUMN IF EXISTS proxima_tentativa_em, DROP COLUMN IF EXISTS tentativas,
  DROP COLUMN IF EXISTS wamid, DROP COLUMN IF EXISTS estado,
  DROP COLUMN IF EXISTS telefone, DROP COLUMN IF EXISTS tipo;
DROP TABLE IF EXISTS whatsapp_recebidas, lojistas_contatos;
