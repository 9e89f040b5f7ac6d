-- Up Migration

-- Issue #37.4: the open item's conversation updates live. A merchant's message joining an item
-- (its reply, when intake links it) and every change of one of our messages to it (written,
-- sent, delivered, read, failed) notify `balcao_fila` with the item's id, as the queue's own
-- changes do (0620), so the window refetches that item's thread.
CREATE FUNCTION balcao_conversa_notificar() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF NEW.extracao_id IS NOT NULL THEN
    PERFORM pg_notify('balcao_fila',
      json_build_object('id', NEW.extracao_id, 'op', 'conversa')::text);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER mensagens_conversa_notificar AFTER INSERT OR UPDATE OF extracao_id ON mensagens
  FOR EACH ROW EXECUTE FUNCTION balcao_conversa_notificar();
CREATE TRIGGER mensagens_saida_conversa_notificar AFTER INSERT OR UPDATE OF estado ON mensagens_saida
  FOR EACH ROW EXECUTE FUNCTION balcao_conversa_notificar();

-- Down Migration
DROP TRIGGER IF EXISTS mensagens_saida_conversa_notificar ON mensagens_saida;
DROP TRIGGER IF EXISTS mensagens_conversa_notificar ON mensagens;
DROP FUNCTION IF EXISTS balcao_conversa_notificar();
