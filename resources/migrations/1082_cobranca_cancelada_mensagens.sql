-- Up Migration

-- #36.7 / #39.4: a cancelled charge's copia-e-cola never goes out. When a charge's dispatch
-- becomes `registrada`, 1020 queues a WhatsApp message to the merchant with its copia-e-cola; a
-- charge cancelled before that message left (the supervisor's cancel from Cobranças, the CLI, or
-- the quality review's "Cancelar cobrança e refazer") would still send it, and the customer could
-- be asked to pay a charge that no longer exists. Now the statement that moves the dispatch to
-- `cancelada` also marks its messages still waiting (`pendente`) as `falhou` with the reason in
-- pt-BR, so the sender never claims them and the conversation says why. A message already being
-- sent (`enviando`) is not touched: it may have reached Meta.

CREATE FUNCTION balcao_cobranca_cancelada_mensagens() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  UPDATE mensagens_saida
     SET estado = 'falhou', falhou_em = now(), proxima_tentativa_em = NULL,
         motivo = 'Não enviada: a cobrança foi cancelada antes do envio.'
   WHERE cobranca_id = NEW.cobranca_id AND estado = 'pendente';
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION balcao_cobranca_cancelada_mensagens() FROM PUBLIC;
CREATE TRIGGER cobrancas_envios_cancelada_mensagens AFTER UPDATE OF estado ON cobrancas_envios
  FOR EACH ROW WHEN (NEW.estado = 'cancelada' AND OLD.estado IS DISTINCT FROM 'cancelada')
  EXECUTE FUNCTION balcao_cobranca_cancelada_mensagens();

-- Down Migration
DROP TRIGGER IF EXISTS cobrancas_envios_cancelada_mensagens ON cobrancas_envios;
DROP FUNCTION IF EXISTS balcao_cobranca_cancelada_mensagens();
