-- Up Migration

-- #39.5: a supervisor assigns open items to a person ("Atribuir a…", one by one or in bulk).
-- The assignment names the login the item is meant for; it does not hold the item (only a
-- claim does), so the person's list shows it and anyone may still work it when they cannot.
--   * atribuida_a: the person's login; atribuida_por / atribuida_em: who assigned it and when.
--   * Only a supervisor (or the service role) changes an assignment; for people, who assigned it
--     comes from the session, as who closed an item does (0720).
--   * The live notification (0880) also fires when the assignment changes, so every open list
--     shows it without a refresh.

ALTER TABLE extracoes
  ADD COLUMN atribuida_a text,
  ADD COLUMN atribuida_por text,
  ADD COLUMN atribuida_em timestamptz;

CREATE FUNCTION balcao_fila_atribuicao() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.atribuida_a IS NOT DISTINCT FROM OLD.atribuida_a THEN
    NEW.atribuida_por := OLD.atribuida_por;
    NEW.atribuida_em := OLD.atribuida_em;
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' AND NEW.atribuida_a IS NULL THEN
    NEW.atribuida_por := NULL;
    NEW.atribuida_em := NULL;
    RETURN NEW;
  END IF;
  IF balcao_sessao_pessoal() THEN
    IF NOT balcao_sessao_supervisora() THEN
      RAISE EXCEPTION 'Só um supervisor pode atribuir pedidos a uma pessoa.' USING ERRCODE = 'BL108';
    END IF;
    NEW.atribuida_por := session_user;
  END IF;
  NEW.atribuida_em := CASE WHEN NEW.atribuida_a IS NULL THEN NULL ELSE now() END;
  IF NEW.atribuida_a IS NULL THEN NEW.atribuida_por := NULL; END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER extracoes_atribuicao BEFORE INSERT OR UPDATE ON extracoes
  FOR EACH ROW EXECUTE FUNCTION balcao_fila_atribuicao();

CREATE INDEX extracoes_atribuidas ON extracoes (atribuida_a, criada_em DESC)
  WHERE fila_estado = 'aberta' AND atribuida_a IS NOT NULL;

CREATE OR REPLACE FUNCTION balcao_fila_notificar() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  trocada boolean := TG_OP = 'UPDATE'
    AND OLD.lease_token IS NOT NULL
    AND NEW.lease_token IS NOT NULL
    AND OLD.lease_token IS DISTINCT FROM NEW.lease_token;
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.fila_estado IS NOT DISTINCT FROM NEW.fila_estado
     AND OLD.status IS NOT DISTINCT FROM NEW.status
     AND OLD.tentativas IS NOT DISTINCT FROM NEW.tentativas
     AND OLD.dados IS NOT DISTINCT FROM NEW.dados
     AND OLD.dados_revisados IS NOT DISTINCT FROM NEW.dados_revisados
     AND OLD.lease_operador IS NOT DISTINCT FROM NEW.lease_operador
     AND OLD.atribuida_a IS NOT DISTINCT FROM NEW.atribuida_a
     AND NOT trocada THEN
    RETURN NULL;
  END IF;
  IF trocada THEN
    PERFORM pg_notify('balcao_fila',
      json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP),
                        'reserva', 'trocada')::text);
  ELSE
    PERFORM pg_notify('balcao_fila',
      json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP))::text);
  END IF;
  RETURN NULL;
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION balcao_fila_notificar() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  trocada boolean := TG_OP = 'UPDATE'
    AND OLD.lease_token IS NOT NULL
    AND NEW.lease_token IS NOT NULL
    AND OLD.lease_token IS DISTINCT FROM NEW.lease_token;
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.fila_estado IS NOT DISTINCT FROM NEW.fila_estado
     AND OLD.status IS NOT DISTINCT FROM NEW.status
     AND OLD.tentativas IS NOT DISTINCT FROM NEW.tentativas
     AND OLD.dados IS NOT DISTINCT FROM NEW.dados
     AND OLD.dados_revisados IS NOT DISTINCT FROM NEW.dados_revisados
     AND OLD.lease_operador IS NOT DISTINCT FROM NEW.lease_operador
     AND NOT trocada THEN
    RETURN NULL;
  END IF;
  IF trocada THEN
    PERFORM pg_notify('balcao_fila',
      json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP),
                        'reserva', 'trocada')::text);
  ELSE
    PERFORM pg_notify('balcao_fila',
      json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP))::text);
  END IF;
  RETURN NULL;
END
$$;
DROP INDEX IF EXISTS extracoes_atribuidas;
DROP TRIGGER IF EXISTS extracoes_atribuicao ON extracoes;
DROP FUNCTION IF EXISTS balcao_fila_atribuicao();
ALTER TABLE extracoes
  DROP COLUMN IF EXISTS atribuida_em,
  DROP COLUMN IF EXISTS atribuida_por,
  DROP COLUMN IF EXISTS atribuida_a;
