-- Up Migration
-- Deadlines of the review queue (#39.2): each open item's deadline runs from the moment it
-- entered its current situation (extracoes.situacao, 0800). `situacao_desde` holds that moment;
-- this trigger keeps it, so the deadline is computed in the database from one column:
--   * a new item starts at its creation (or when its question went out);
--   * a change of situation (falhou → completo after a re-run, a question to the merchant, the
--     merchant's answer) starts a new one;
--   * an item reopened after it left the queue (resolvida/descartada/concluida → aberta) starts
--     a new one;
--   * leases (claim, release, takeover by a supervisor) and draft edits change nothing.
-- The minutes per situation are settings (BALCAO_PRAZO_*_MIN), applied at query time.
-- Rows stored before this migration keep NULL: readers use coalesce(situacao_desde,
-- aguardando_desde, criada_em), so no rewrite of the table is needed.

ALTER TABLE extracoes ADD COLUMN situacao_desde timestamptz;

COMMENT ON COLUMN extracoes.situacao_desde IS
  'When the item entered its current situation (or was reopened): the start of its deadline.';

-- The situation of a row as 0800's generated column computes it (a BEFORE trigger does not see
-- generated columns yet).
CREATE FUNCTION balcao_situacao_de(aguardando_desde timestamptz, fila_estado text, status text,
                                   alertas jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$
  SELECT CASE
    WHEN aguardando_desde IS NOT NULL OR fila_estado = 'aguardando_lojista' THEN 'aguardando_lojista'
    WHEN status = 'completo' AND jsonb_typeof(alertas) = 'array' AND jsonb_array_length(alertas) > 0
      THEN 'com_alerta'
    ELSE status
  END
$$;

CREATE FUNCTION balcao_situacao_desde() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  nova text := balcao_situacao_de(NEW.aguardando_desde, NEW.fila_estado, NEW.status, NEW.alertas);
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.situacao_desde := coalesce(NEW.situacao_desde, NEW.aguardando_desde, NEW.criada_em, now());
  ELSIF nova IS DISTINCT FROM
          balcao_situacao_de(OLD.aguardando_desde, OLD.fila_estado, OLD.status, OLD.alertas)
        OR (OLD.fila_estado IN ('resolvida', 'descartada', 'concluida')
            AND NEW.fila_estado IN ('aberta', 'aguardando_lojista')) THEN
    NEW.situacao_desde := CASE WHEN nova = 'aguardando_lojista'
                               THEN coalesce(NEW.aguardando_desde, now()) ELSE now() END;
  END IF;
  RETURN NEW;
END
$$;

-- Only the roles that write items call it (through the trigger); nobody else, the analytics role
-- least of all, needs it.
REVOKE ALL ON FUNCTION balcao_situacao_de(timestamptz, text, text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_situacao_de(timestamptz, text, text, jsonb)
  TO balcao_app, balcao_suporte, balcao_supervisor;

-- Named to run after extracoes_aguardando (BEFORE triggers fire in name order), which sets
-- aguardando_desde.
CREATE TRIGGER extracoes_situacao_desde BEFORE INSERT OR UPDATE ON extracoes
  FOR EACH ROW EXECUTE FUNCTION balcao_situacao_desde();

-- Down Migration
DROP TRIGGER IF EXISTS extracoes_situacao_desde ON extracoes;
DROP FUNCTION IF EXISTS balcao_situacao_desde();
DROP FUNCTION IF EXISTS balcao_situacao_de(timestamptz, text, text, jsonb);
ALTER TABLE extracoes DROP COLUMN IF EXISTS situacao_desde;
