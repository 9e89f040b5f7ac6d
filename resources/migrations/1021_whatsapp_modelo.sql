-- Up Migration

-- Issue #37: the 24-hour window. Outside it (the merchant's last message is older than 24 h, or
-- Meta answers 131047) an outbox row goes out as the approved template BALCAO_WHATSAPP_TEMPLATE
-- with its text as the body parameter; `modelo` records which template carried it (null: sent as
-- free-form text). The sender checks the window per destination number, newest message first.
ALTER TABLE mensagens_saida ADD COLUMN modelo text CHECK (length(modelo) BETWEEN 1 AND 512);
CREATE INDEX whatsapp_recebidas_telefone_enviada ON whatsapp_recebidas (telefone, enviada_em DESC);

-- Down Migration
DROP INDEX IF EXISTS whatsapp_recebidas_telefone_enviada;
ALTER TABLE mensagens_saida DROP COLUMN IF EXISTS modelo;
