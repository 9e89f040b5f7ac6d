-- Up Migration

-- Issue #38 items 3 and 4 (LGPD): retention and the data subject's rights.
--
-- Every table that holds a merchant's free text (or what the model made of it) gets
-- `anonimizada_em`: set, in the same UPDATE, when its personal fields became a fixed marker.
-- The retention pass takes rows without it, older than the bound, in bounded batches (one
-- transaction each): a batch killed midway rolls back whole, the next pass takes it again, and a
-- row already done is never taken twice. Money, dates, states, aggregates and the audit stay.
ALTER TABLE mensagens ADD COLUMN anonimizada_em timestamptz;
ALTER TABLE extracoes ADD COLUMN anonimizada_em timestamptz;
ALTER TABLE extracao_tentativas ADD COLUMN anonimizada_em timestamptz;
ALTER TABLE intake_tentativas ADD COLUMN anonimizada_em timestamptz;
ALTER TABLE mensagens_saida ADD COLUMN anonimizada_em timestamptz;
ALTER TABLE consultas_vendas ADD COLUMN anonimizada_em timestamptz;
ALTER TABLE consultas_livres ADD COLUMN anonimizada_em timestamptz;

-- The query logs stay append-only for everyone; only the LGPD functions below (which set
-- balcao.lgpd for their own transaction) may replace the question's text, and nothing else.
CREATE OR REPLACE FUNCTION consultas_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('balcao.lgpd', true), '') = 'anonimizar'
     AND (to_jsonb(NEW) - 'pergunta' - 'anonimizada_em') = (to_jsonb(OLD) - 'pergunta' - 'anonimizada_em') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% é somente inserção', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE OR REPLACE FUNCTION consultas_livres_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('balcao.lgpd', true), '') = 'anonimizar'
     AND (to_jsonb(NEW) - 'pergunta' - 'anonimizada_em') = (to_jsonb(OLD) - 'pergunta' - 'anonimizada_em') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'consultas_livres é somente inserção' USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE INDEX mensagens_retencao ON mensagens (recebida_em) WHERE anonimizada_em IS NULL;
CREATE INDEX extracoes_retencao ON extracoes (criada_em) WHERE anonimizada_em IS NULL;
CREATE INDEX extracao_tentativas_retencao ON extracao_tentativas (criada_em) WHERE anonimizada_em IS NULL;
CREATE INDEX intake_tentativas_retencao ON intake_tentativas (criada_em) WHERE anonimizada_em IS NULL;
CREATE INDEX mensagens_saida_retencao ON mensagens_saida (criada_em) WHERE anonimizada_em IS NULL;
CREATE INDEX consultas_vendas_retencao ON consultas_vendas (criada_em) WHERE anonimizada_em IS NULL;
CREATE INDEX consultas_livres_retencao ON consultas_livres (criada_em) WHERE anonimizada_em IS NULL;

-- The rows a retention pass would take from `p_tabela` (older than p_antes, not yet done, and
-- no longer in use: a pending message, an open item, an unsent question are left for later).
-- p_lote NULL: count them all; else anonymise up to p_lote of them (oldest first) and return how
-- many. One call = one statement = one transaction when called on its own.
CREATE FUNCTION balcao_lgpd_retencao(p_tabela text, p_antes timestamptz, p_lote int,
                                     p_marcador text)
  RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  n bigint;
  marca jsonb := to_jsonb(p_marcador);
BEGIN
  IF p_antes IS NULL OR (p_lote IS NOT NULL AND (p_lote < 1 OR p_lote > 10000))
     OR length(coalesce(p_marcador, '')) NOT BETWEEN 1 AND 100 THEN
    RAISE EXCEPTION 'Parâmetros de retenção inválidos.' USING ERRCODE = 'BL090';
  END IF;
  PERFORM set_config('balcao.lgpd', 'anonimizar', true);
  CASE p_tabela
    WHEN 'mensagens' THEN
      IF p_lote IS NULL THEN
        SELECT count(*) INTO n FROM mensagens
         WHERE anonimizada_em IS NULL AND recebida_em < p_antes AND estado <> 'pendente';
      ELSE
        WITH alvo AS (
          SELECT id FROM mensagens
           WHERE anonimizada_em IS NULL AND recebida_em < p_antes AND estado <> 'pendente'
           ORDER BY recebida_em, id LIMIT p_lote FOR UPDATE)
        UPDATE mensagens m SET texto = p_marcador, anonimizada_em = now()
          FROM alvo WHERE m.id = alvo.id;
        GET DIAGNOSTICS n = ROW_COUNT;
      END IF;
    WHEN 'extracoes' THEN
      IF p_lote IS NULL THEN
        SELECT count(*) INTO n FROM extracoes
         WHERE anonimizada_em IS NULL AND criada_em < p_antes
           AND fila_estado IN ('resolvida', 'descartada', 'concluida');
      ELSE
        WITH alvo AS (
          SELECT id FROM extracoes
           WHERE anonimizada_em IS NULL AND criada_em < p_antes
             AND fila_estado IN ('resolvida', 'descartada', 'concluida')
           ORDER BY criada_em, id LIMIT p_lote FOR UPDATE)
        UPDATE extracoes e SET texto = p_marcador, anonimizada_em = now()
          FROM alvo WHERE e.id = alvo.id;
        GET DIAGNOSTICS n = ROW_COUNT;
      END IF;
    WHEN 'extracao_tentativas' THEN
      IF p_lote IS NULL THEN
        SELECT count(*) INTO n FROM extracao_tentativas
         WHERE anonimizada_em IS NULL AND criada_em < p_antes;
      ELSE
        WITH alvo AS (
          SELECT id FROM extracao_tentativas
           WHERE anonimizada_em IS NULL AND criada_em < p_antes
           ORDER BY criada_em, id LIMIT p_lote FOR UPDATE)
        UPDATE extracao_tentativas t
           SET entrada = CASE WHEN t.entrada IS NULL THEN NULL ELSE marca END,
               anonimizada_em = now()
          FROM alvo WHERE t.id = alvo.id;
        GET DIAGNOSTICS n = ROW_COUNT;
      END IF;
    WHEN 'intake_tentativas' THEN
      IF p_lote IS NULL THEN
        SELECT count(*) INTO n FROM intake_tentativas t JOIN mensagens m ON m.id = t.mensagem
         WHERE t.anonimizada_em IS NULL AND t.criada_em < p_antes AND m.estado <> 'pendente';
      ELSE
        WITH alvo AS (
          SELECT t.mensagem, t.numero FROM intake_tentativas t JOIN mensagens m ON m.id = t.mensagem
           WHERE t.anonimizada_em IS NULL AND t.criada_em < p_antes AND m.estado <> 'pendente'
           ORDER BY t.criada_em, t.mensagem, t.numero LIMIT p_lote FOR UPDATE OF t)
        UPDATE intake_tentativas t
           SET conteudo = jsonb_build_array(jsonb_build_object('type', 'text', 'text', p_marcador)),
               entrada = CASE WHEN t.entrada IS NULL THEN NULL ELSE marca END,
               detalhes = CASE WHEN t.detalhes IS NULL THEN NULL ELSE marca END,
               anonimizada_em = now()
          FROM alvo WHERE t.mensagem = alvo.mensagem AND t.numero = alvo.numero;
        GET DIAGNOSTICS n = ROW_COUNT;
      END IF;
    WHEN 'mensagens_saida' THEN
      IF p_lote IS NULL THEN
        SELECT count(*) INTO n FROM mensagens_saida
         WHERE anonimizada_em IS NULL AND criada_em < p_antes
           AND estado NOT IN ('pendente', 'enviando');
      ELSE
        WITH alvo AS (
          SELECT id FROM mensagens_saida
           WHERE anonimizada_em IS NULL AND criada_em < p_antes
             AND estado NOT IN ('pendente', 'enviando')
           ORDER BY criada_em, id LIMIT p_lote FOR UPDATE)
        UPDATE mensagens_saida s SET texto = p_marcador, anonimizada_em = now()
          FROM alvo WHERE s.id = alvo.id;
        GET DIAGNOSTICS n = ROW_COUNT;
      END IF;
    WHEN 'consultas_vendas' THEN
      IF p_lote IS NULL THEN
        SELECT count(*) INTO n FROM consultas_vendas
         WHERE anonimizada_em IS NULL AND criada_em < p_antes;
      ELSE
        WITH alvo AS (
          SELECT id FROM consultas_vendas
           WHERE anonimizada_em IS NULL AND criada_em < p_antes
           ORDER BY criada_em, id LIMIT p_lote FOR UPDATE)
        UPDATE consultas_vendas q
           SET pergunta = CASE WHEN q.pergunta IS NULL THEN NULL ELSE p_marcador END,
               anonimizada_em = now()
          FROM alvo WHERE q.id = alvo.id;
        GET DIAGNOSTICS n = ROW_COUNT;
      END IF;
    WHEN 'consultas_livres' THEN
      IF p_lote IS NULL THEN
        SELECT count(*) INTO n FROM consultas_livres
         WHERE anonimizada_em IS NULL AND criada_em < p_antes;
      ELSE
        WITH alvo AS (
          SELECT id FROM consultas_livres
           WHERE anonimizada_em IS NULL AND criada_em < p_antes
           ORDER BY criada_em, id LIMIT p_lote FOR UPDATE)
        UPDATE consultas_livres q
           SET pergunta = CASE WHEN q.pergunta IS NULL THEN NULL ELSE p_marcador END,
               anonimizada_em = now()
          FROM alvo WHERE q.id = alvo.id;
        GET DIAGNOSTICS n = ROW_COUNT;
      END IF;
    ELSE
      RAISE EXCEPTION 'Tabela fora da retenção: %', p_tabela USING ERRCODE = 'BL090';
  END CASE;
  RETURN n;
END
$$;
REVOKE ALL ON FUNCTION balcao_lgpd_retencao(text, timestamptz, int, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_lgpd_retencao(text, timestamptz, int, text)
  TO balcao_app, balcao_supervisor;

-- Whether the session may read or change a data subject's data: the service login (CLI,
-- workers) or a supervisor.
CREATE FUNCTION balcao_lgpd_permitido() RETURNS void
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF balcao_sessao_pessoal() AND NOT balcao_sessao_supervisora() THEN
    RAISE EXCEPTION 'Só um supervisor pode consultar ou anonimizar os dados de um titular.'
      USING ERRCODE = 'BL091';
  END IF;
END
$$;

-- The fields that may hold a data subject's identifier: every free text and JSON body whose
-- letters and digits contain p_chave (uppercase letters and digits of the CPF/CNPJ/phone/e-mail).
-- A candidate list: the caller confirms each with the detectors (src-shared/pii.ts).
CREATE FUNCTION balcao_lgpd_candidatos(p_chave text)
  RETURNS TABLE (tabela text, id text, coluna text, merchant_id bigint, extracao_id bigint,
                 criado_em timestamptz, valor jsonb)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  k text := upper(regexp_replace(coalesce(p_chave, ''), '[^0-9A-Za-z]', '', 'g'));
BEGIN
  PERFORM balcao_lgpd_permitido();
  IF length(k) < 6 THEN
    RAISE EXCEPTION 'Identificador curto demais para buscar.' USING ERRCODE = 'BL092';
  END IF;
  RETURN QUERY
  WITH campos AS (
    SELECT 'mensagens'::text t, m.id::text i, 'texto'::text c, m.merchant_id mid,
           m.extracao_id eid, m.recebida_em em, to_jsonb(m.texto) v FROM mensagens m
    UNION ALL
    SELECT 'extracoes', e.id::text, 'texto', e.merchant_id, e.id, e.criada_em, to_jsonb(e.texto) FROM extracoes e
    UNION ALL
    SELECT 'extracoes', e.id::text, 'dados', e.merchant_id, e.id, e.criada_em, e.dados FROM extracoes e
     WHERE e.dados IS NOT NULL
    UNION ALL
    SELECT 'extracoes', e.id::text, 'dados_revisados', e.merchant_id, e.id, e.criada_em, e.dados_revisados
      FROM extracoes e WHERE e.dados_revisados IS NOT NULL
    UNION ALL
    SELECT 'extracao_tentativas', t.id::text, 'entrada', e.merchant_id, e.id, t.criada_em, t.entrada
      FROM extracao_tentativas t JOIN extracoes e ON e.id = t.extracao_id WHERE t.entrada IS NOT NULL
    UNION ALL
    SELECT 'intake_tentativas', t.mensagem || ':' || t.numero, x.c, m.merchant_id, m.extracao_id,
           t.criada_em, x.v
      FROM intake_tentativas t JOIN mensagens m ON m.id = t.mensagem,
           LATERAL (VALUES ('conteudo', t.conteudo), ('entrada', t.entrada), ('detalhes', t.detalhes)) x(c, v)
     WHERE x.v IS NOT NULL
    UNION ALL
    SELECT 'mensagens_saida', s.id::text, 'texto', s.merchant_id, s.extracao_id, s.criada_em, to_jsonb(s.texto)
      FROM mensagens_saida s
    UNION ALL
    SELECT 'cobrancas', b.id::text, 'descricao', b.merchant_id, b.extracao_id, b.criada_em, to_jsonb(b.descricao)
      FROM cobrancas b WHERE b.descricao IS NOT NULL
    UNION ALL
    SELECT 'cobrancas', b.id::text, 'cliente_documento', b.merchant_id, b.extracao_id, b.criada_em,
           to_jsonb(b.cliente_documento)
      FROM cobrancas b WHERE b.cliente_documento IS NOT NULL
    UNION ALL
    SELECT 'consultas_vendas', q.id::text, 'pergunta', q.merchant_id, NULL::bigint, q.criada_em, to_jsonb(q.pergunta)
      FROM consultas_vendas q WHERE q.pergunta IS NOT NULL
    UNION ALL
    SELECT 'consultas_livres', q.id::text, 'pergunta', q.merchant_id, NULL::bigint, q.criada_em, to_jsonb(q.pergunta)
      FROM consultas_livres q WHERE q.pergunta IS NOT NULL
  )
  SELECT c.t, c.i, c.c, c.mid, c.eid, c.em, c.v FROM campos c
   WHERE strpos(upper(regexp_replace(c.v::text, '[^0-9A-Za-z]', '', 'g')), k) > 0
   ORDER BY c.t, c.em, c.i, c.c;
END
$$;

-- The charges of some extractions (the data subject's charges: name, money, due date).
CREATE FUNCTION balcao_lgpd_cobrancas(p_extracoes bigint[])
  RETURNS TABLE (id bigint, extracao_id bigint, merchant_id bigint, cliente_nome text,
                 cliente_documento text, valor_centavos bigint, parcelas int, metodo text, vencimento date,
                 descricao text, criada_em timestamptz)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM balcao_lgpd_permitido();
  RETURN QUERY
  SELECT b.id, b.extracao_id, b.merchant_id, b.cliente_nome, b.cliente_documento,
         b.valor_centavos, b.parcelas,
         b.metodo, b.vencimento, b.descricao, b.criada_em
    FROM cobrancas b WHERE b.extracao_id = ANY (p_extracoes) ORDER BY b.id;
END
$$;

-- Applies a data subject's anonymisation: each change {tabela, id, coluna, valor} (a whitelisted
-- column; valor the field's new content, a JSON string for text columns) and its audit row, in
-- one transaction. Returns how many fields changed.
CREATE FUNCTION balcao_lgpd_anonimizar(p_alteracoes jsonb, p_operador text, p_detalhes jsonb)
  RETURNS int LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  a jsonb;
  t text;
  c text;
  i text;
  n int := 0;
  k int;
  permitidas constant text[] := ARRAY[
    'mensagens.texto', 'extracoes.texto', 'extracoes.dados', 'extracoes.dados_revisados',
    'extracao_tentativas.entrada', 'intake_tentativas.conteudo', 'intake_tentativas.entrada',
    'intake_tentativas.detalhes', 'mensagens_saida.texto', 'cobrancas.descricao',
    'cobrancas.cliente_nome', 'cobrancas.cliente_documento', 'consultas_vendas.pergunta',
    'consultas_livres.pergunta'];
  texto constant text[] := ARRAY['mensagens.texto', 'extracoes.texto', 'mensagens_saida.texto',
    'cobrancas.descricao', 'cobrancas.cliente_nome', 'cobrancas.cliente_documento',
    'consultas_vendas.pergunta', 'consultas_livres.pergunta'];
BEGIN
  PERFORM balcao_lgpd_permitido();
  IF jsonb_typeof(p_alteracoes) <> 'array' THEN
    RAISE EXCEPTION 'Alterações inválidas.' USING ERRCODE = 'BL093';
  END IF;
  PERFORM set_config('balcao.lgpd', 'anonimizar', true);
  FOR a IN SELECT * FROM jsonb_array_elements(p_alteracoes) LOOP
    t := a->>'tabela';
    c := a->>'coluna';
    i := a->>'id';
    IF NOT (t || '.' || c) = ANY (permitidas) OR i IS NULL OR NOT a ? 'valor' THEN
      RAISE EXCEPTION 'Campo fora do alcance da anonimização: %.%', t, c USING ERRCODE = 'BL093';
    END IF;
    IF t = 'intake_tentativas' THEN
      EXECUTE format('UPDATE intake_tentativas SET %I = $1 WHERE mensagem = $2 AND numero = $3', c)
        USING a->'valor', split_part(i, ':', 1)::bigint, split_part(i, ':', 2)::int;
    ELSIF (t || '.' || c) = ANY (texto) THEN
      EXECUTE format('UPDATE %I SET %I = $1 WHERE id = $2', t, c) USING a->>'valor', i::bigint;
    ELSE
      EXECUTE format('UPDATE %I SET %I = $1 WHERE id = $2', t, c) USING a->'valor', i::bigint;
    END IF;
    GET DIAGNOSTICS k = ROW_COUNT;
    n := n + k;
  END LOOP;
  INSERT INTO auditoria (operador, acao, detalhes)
  VALUES (p_operador, 'lgpd_anonimizar', coalesce(p_detalhes, '{}'::jsonb) || jsonb_build_object('campos', n));
  RETURN n;
END
$$;

REVOKE ALL ON FUNCTION balcao_lgpd_permitido(), balcao_lgpd_candidatos(text),
  balcao_lgpd_cobrancas(bigint[]), balcao_lgpd_anonimizar(jsonb, text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_lgpd_permitido(), balcao_lgpd_candidatos(text),
  balcao_lgpd_cobrancas(bigint[]), balcao_lgpd_anonimizar(jsonb, text, jsonb)
  TO balcao_app, balcao_supervisor;

-- The retention pass as a pg-boss job (`balcao worker`): one job at a time per hour (the
-- workers send it with a singleton key), retried on failure; a repeated pass finds nothing.
SELECT pgboss.create_queue('lgpd-retencao', json_build_object(
  'policy', 'standard', 'retryLimit', 3, 'retryDelay', 60, 'retryBackoff', true,
  'expireInSeconds', 3600, 'retentionMinutes', 1440));
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO balcao_app;

-- Down Migration
DELETE FROM pgboss.job WHERE name = 'lgpd-retencao';
SELECT pgboss.delete_queue('lgpd-retencao');
DROP FUNCTION IF EXISTS balcao_lgpd_anonimizar(jsonb, text, jsonb);
DROP FUNCTION IF EXISTS balcao_lgpd_cobrancas(bigint[]);
DROP FUNCTION IF EXISTS balcao_lgpd_candidatos(text);
DROP FUNCTION IF EXISTS balcao_lgpd_permitido();
DROP FUNCTION IF EXISTS balcao_lgpd_retencao(text, timestamptz, int, text);
CREATE OR REPLACE FUNCTION consultas_livres_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'consultas_livres é somente inserção' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE OR REPLACE FUNCTION consultas_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% é somente inserção', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
DROP INDEX IF EXISTS consultas_livres_retencao, consultas_vendas_retencao, mensagens_saida_retencao,
  intake_tentativas_retencao, extracao_tentativas_retencao, extracoes_retencao, mensagens_retencao;
ALTER TABLE consultas_livres DROP COLUMN IF EXISTS anonimizada_em;
ALTER TABLE consultas_vendas DROP COLUMN IF EXISTS anonimizada_em;
ALTER TABLE mensagens_saida DROP COLUMN IF EXISTS anonimizada_em;
ALTER TABLE intake_tentativas DROP COLUMN IF EXISTS anonimizada_em;
ALTER TABLE extracao_tentativas DROP COLUMN IF EXISTS anonimizada_em;
ALTER TABLE extracoes DROP COLUMN IF EXISTS anonimizada_em;
ALTER TABLE mensagens DROP COLUMN IF EXISTS anonimizada_em;
