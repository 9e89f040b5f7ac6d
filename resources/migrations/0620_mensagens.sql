-- Up Migration

-- Durable intake of merchants' messages (issue 17). A message is accepted once per
-- (canal, mensagem_id): the channel's own id is the idempotency key, so a channel that resends
-- (or a batch run twice) never creates a second extraction.
CREATE TABLE mensagens (
  id bigserial PRIMARY KEY,
  canal text NOT NULL CHECK (canal ~ '^[a-z0-9][a-z0-9_.-]{0,39}$'),
  mensagem_id text NOT NULL CHECK (length(mensagem_id) BETWEEN 1 AND 200),
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  texto text NOT NULL CHECK (length(texto) BETWEEN 1 AND 4000),
  -- When the channel received it (given by the channel, else the time we accepted it).
  recebida_em timestamptz NOT NULL DEFAULT now(),
  -- The thread it answers: a mensagem_id of the same channel (the merchant's earlier message or
  -- our question in mensagens_saida). A reply re-runs the item of that thread.
  responde_a text CHECK (length(responde_a) BETWEEN 1 AND 200),
  enfileirada_em timestamptz NOT NULL DEFAULT now(),
  -- pendente → concluida (outcome stored, exactly once) | erro (gave up after the job retries).
  estado text NOT NULL DEFAULT 'pendente' CHECK (estado IN ('pendente', 'concluida', 'erro')),
  resultado text CHECK (resultado IN ('cobranca_criada', 'aguardando_lojista', 'fila', 'sem_item_aberto')),
  extracao_id bigint REFERENCES extracoes (id),
  erro text CHECK (length(erro) <= 500),
  -- Which worker is extracting it right now (database time); a dead worker's lease expires.
  lease_token uuid,
  lease_expira_em timestamptz,
  processada_em timestamptz,
  chamadas_api int NOT NULL DEFAULT 0,
  UNIQUE (canal, mensagem_id),
  CHECK ((estado = 'concluida') = (resultado IS NOT NULL)),
  CHECK ((lease_token IS NULL) = (lease_expira_em IS NULL))
);
CREATE INDEX mensagens_pendentes ON mensagens (enfileirada_em) WHERE estado = 'pendente';
CREATE INDEX mensagens_processadas ON mensagens (processada_em) WHERE processada_em IS NOT NULL;
CREATE INDEX mensagens_extracao ON mensagens (extracao_id) WHERE extracao_id IS NOT NULL;
CREATE INDEX mensagens_merchant ON mensagens (merchant_id, enfileirada_em);

-- Every model attempt of a message, stored the moment its answer arrives: a retried job
-- resumes from here and never pays again for an attempt that got an answer.
CREATE TABLE intake_tentativas (
  mensagem bigint NOT NULL REFERENCES mensagens (id) ON DELETE CASCADE,
  numero int NOT NULL CHECK (numero BETWEEN 1 AND 10),
  -- The assistant's content blocks as received (to rebuild the conversation on resume).
  conteudo jsonb NOT NULL,
  entrada jsonb,
  erros jsonb NOT NULL DEFAULT '[]',
  detalhes jsonb,
  uso jsonb NOT NULL DEFAULT '{}',
  stop_reason text,
  duracao_ms int,
  message_id text,
  criada_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (mensagem, numero)
);

-- Questions for merchants, for the channel to send (outbox). One per processed message.
CREATE TABLE mensagens_saida (
  id bigserial PRIMARY KEY,
  canal text NOT NULL,
  -- Our id on the channel: the merchant's reply names it in responde_a.
  mensagem_id text NOT NULL DEFAULT ('balcao-' || gen_random_uuid()::text),
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  extracao_id bigint NOT NULL REFERENCES extracoes (id),
  origem bigint NOT NULL UNIQUE REFERENCES mensagens (id),
  responde_a text NOT NULL,
  texto text NOT NULL,
  criada_em timestamptz NOT NULL DEFAULT now(),
  enviada_em timestamptz,
  UNIQUE (canal, mensagem_id)
);
CREATE INDEX mensagens_saida_pendentes ON mensagens_saida (criada_em) WHERE enviada_em IS NULL;
CREATE INDEX mensagens_saida_extracao ON mensagens_saida (extracao_id);

-- Shared rate-limit state of every worker: a 429 pauses all of them until pausado_ate.
CREATE TABLE intake_limites (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  pausado_ate timestamptz,
  pausas int NOT NULL DEFAULT 0,
  atualizado_em timestamptz
);
INSERT INTO intake_limites DEFAULT VALUES;

-- One slot of the global in-flight cap, or how long to wait. Slots are session advisory locks
-- (key 620, slot): PostgreSQL frees them when a worker's session ends, even after kill -9.
CREATE FUNCTION balcao_intake_vaga(p_cap int) RETURNS int
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  ate timestamptz;
  s int;
  mine int[];
BEGIN
  SELECT pausado_ate INTO ate FROM intake_limites;
  IF ate IS NOT NULL AND ate > now() THEN
    -- negative: milliseconds to wait for the shared pause
    RETURN -greatest(1, ceil(extract(epoch FROM ate - now()) * 1000))::int;
  END IF;
  -- Advisory locks are re-entrant in a session: skip the slots this session already holds.
  SELECT coalesce(array_agg(objid::int), '{}') INTO mine FROM pg_locks
   WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND classid = 620 AND objsubid = 2;
  FOR s IN 0 .. greatest(p_cap, 1) - 1 LOOP
    IF s <> ALL (mine) AND pg_try_advisory_lock(620, s) THEN
      RETURN s;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE FUNCTION balcao_intake_pausar(p_ms int) RETURNS timestamptz
  LANGUAGE sql SET search_path = pg_catalog, public, pg_temp AS $$
  UPDATE intake_limites
     SET pausado_ate = greatest(coalesce(pausado_ate, now()), now() + p_ms * interval '1 millisecond'),
         pausas = pausas + 1, atualizado_em = now()
  RETURNING pausado_ate
$$;

-- Live queue: agents' screens listen on 'balcao_fila' (one session connection per app).
-- Lease renewals alone do not notify.
CREATE FUNCTION balcao_fila_notificar() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.fila_estado IS NOT DISTINCT FROM NEW.fila_estado
     AND OLD.status IS NOT DISTINCT FROM NEW.status
     AND OLD.tentativas IS NOT DISTINCT FROM NEW.tentativas
     AND OLD.dados IS NOT DISTINCT FROM NEW.dados
     AND OLD.dados_revisados IS NOT DISTINCT FROM NEW.dados_revisados
     AND OLD.lease_operador IS NOT DISTINCT FROM NEW.lease_operador THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('balcao_fila',
    json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP))::text);
  RETURN NULL;
END
$$;
CREATE TRIGGER extracoes_notificar AFTER INSERT OR UPDATE ON extracoes
  FOR EACH ROW EXECUTE FUNCTION balcao_fila_notificar();

GRANT SELECT, INSERT, UPDATE ON mensagens, intake_tentativas, mensagens_saida TO balcao_app;
GRANT SELECT, UPDATE ON intake_limites TO balcao_app;
GRANT USAGE ON SEQUENCE mensagens_id_seq, mensagens_saida_id_seq TO balcao_app;
REVOKE ALL ON FUNCTION balcao_intake_vaga(int), balcao_intake_pausar(int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_intake_vaga(int), balcao_intake_pausar(int) TO balcao_app;

-- Down Migration
DROP TRIGGER IF EXISTS extracoes_notificar ON extracoes;
DROP FUNCTION IF EXISTS balcao_fila_notificar();
DROP FUNCTION IF EXISTS balcao_intake_pausar(int);
DROP FUNCTION IF EXISTS balcao_intake_vaga(int);
DROP TABLE IF EXISTS intake_limites, mensagens_saida, intake_tentativas, mensagens;
