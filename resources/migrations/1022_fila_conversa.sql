-- Up Migration

-- Issue #37.4: an agent's "Perguntar ao lojista" sends the (edited) question through the item's
-- channel: the people of the queue write its outbox row (the row's trigger gives it its sender
-- job, SECURITY DEFINER) and read the thread with its delivery states.
GRANT INSERT ON mensagens_saida TO balcao_suporte, balcao_supervisor;
GRANT USAGE ON SEQUENCE mensagens_saida_id_seq TO balcao_suporte, balcao_supervisor;
CREATE INDEX IF NOT EXISTS mensagens_saida_extracao_criada ON mensagens_saida (extracao_id, criada_em)
  WHERE extracao_id IS NOT NULL;

-- Down Migration
DROP INDEX IF EXISTS mensagens_saida_extracao_criada;
REVOKE USAGE ON SEQUENCE mensagens_saida_id_seq FROM balcao_suporte, balcao_supervisor;
REVOKE INSERT ON mensagens_saida FROM balcao_suporte, balcao_supervisor;
