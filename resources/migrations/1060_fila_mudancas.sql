-- Up Migration

-- #39.1: the live queue through a transaction pooler. LISTEN needs one session connection per
-- desktop, straight to the primary: dozens of desktops behind PgBouncer would each hold one.
-- Every change the screens care about is now also appended to a small change log, read by each
-- desktop through its pooled connection (`pos > $ultima`, an index range scan, every ~300 ms).
-- pg_notify stays (0620/0880/1023): an app on a session connection (the embedded default) still
-- LISTENs. Positions come from a sequence, so a transaction that commits after a later one leaves
-- a gap for a moment: the reader asks again for the positions it has not seen (see
-- src-main/intake/live-feed.ts). Rows live 10 minutes (balcao_fila_mudancas_podar, run by the
-- background fold of the app and the workers).
--
-- The triggers here are their own (not balcao_fila_notificar's body, which other migrations
-- replace): any change of an item but its lease renewal (`lease_expira_em`) and `atualizada_em`
-- is a change — a superset of what is notified, so an item waiting for the merchant or assigned
-- to someone shows live too.

CREATE TABLE fila_mudancas (
  pos bigserial PRIMARY KEY,
  extracao_id bigint NOT NULL,
  -- The lease passed from one claim to another (a takeover, a claim after expiry): 0880's
  -- `"reserva": "trocada"`.
  reserva boolean NOT NULL DEFAULT false,
  -- The item's conversation with the merchant changed (1023).
  conversa boolean NOT NULL DEFAULT false,
  criada_em timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE fila_mudancas SET (autovacuum_vacuum_scale_factor = 0.05);

CREATE FUNCTION balcao_fila_mudanca() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  trocada boolean := false;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF (to_jsonb(OLD) - ARRAY['lease_expira_em', 'atualizada_em'])
       = (to_jsonb(NEW) - ARRAY['lease_expira_em', 'atualizada_em']) THEN
      RETURN NULL;
    END IF;
    trocada := OLD.lease_token IS NOT NULL AND NEW.lease_token IS NOT NULL
               AND OLD.lease_token IS DISTINCT FROM NEW.lease_token;
  END IF;
  INSERT INTO fila_mudancas (extracao_id, reserva) VALUES (NEW.id, trocada);
  RETURN NULL;
END
$$;
CREATE TRIGGER extracoes_mudanca AFTER INSERT OR UPDATE ON extracoes
  FOR EACH ROW EXECUTE FUNCTION balcao_fila_mudanca();

CREATE FUNCTION balcao_fila_mudanca_conversa() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF NEW.extracao_id IS NOT NULL THEN
    INSERT INTO fila_mudancas (extracao_id, conversa) VALUES (NEW.extracao_id, true);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER mensagens_conversa_mudanca AFTER INSERT OR UPDATE OF extracao_id ON mensagens
  FOR EACH ROW EXECUTE FUNCTION balcao_fila_mudanca_conversa();
CREATE TRIGGER mensagens_saida_conversa_mudanca AFTER INSERT OR UPDATE OF estado ON mensagens_saida
  FOR EACH ROW EXECUTE FUNCTION balcao_fila_mudanca_conversa();

-- What a desktop reads: the changes after `p_desde`, plus the positions it is still waiting for
-- (`p_faltando`: a transaction that had taken them had not committed yet). `p_desde` NULL: only
-- where the log ends now (the starting point).
CREATE FUNCTION balcao_fila_mudancas(p_desde bigint, p_faltando bigint[], p_limite int)
  RETURNS TABLE (pos bigint, extracao_id bigint, reserva boolean, conversa boolean)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(max(m.pos), 0), NULL::bigint, false, false
    FROM fila_mudancas m HAVING p_desde IS NULL
  UNION ALL
  (SELECT m.pos, m.extracao_id, m.reserva, m.conversa
     FROM fila_mudancas m
    WHERE p_desde IS NOT NULL
      AND (m.pos > p_desde OR m.pos = ANY (coalesce(p_faltando, '{}')))
    ORDER BY m.pos
    LIMIT least(greatest(p_limite, 1), 5000))
$$;

-- Drops what is older than 10 minutes (by position: reads only the rows it removes).
CREATE FUNCTION balcao_fila_mudancas_podar() RETURNS int
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  ate bigint;
  n int;
BEGIN
  SELECT m.pos INTO ate FROM fila_mudancas m
   WHERE m.criada_em >= now() - interval '10 minutes' ORDER BY m.pos LIMIT 1;
  IF ate IS NULL THEN
    SELECT max(m.pos) INTO ate FROM fila_mudancas m;
  END IF;
  DELETE FROM fila_mudancas m WHERE m.pos < ate;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$$;

REVOKE ALL ON fila_mudancas FROM PUBLIC;
REVOKE ALL ON FUNCTION balcao_fila_mudanca(), balcao_fila_mudanca_conversa(),
  balcao_fila_mudancas(bigint, bigint[], int), balcao_fila_mudancas_podar() FROM PUBLIC;
DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['balcao_app', 'balcao_suporte', 'balcao_supervisor'] LOOP
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('GRANT EXECUTE ON FUNCTION balcao_fila_mudancas(bigint, bigint[], int) TO %I', r);
    END IF;
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'balcao_app') THEN
    GRANT EXECUTE ON FUNCTION balcao_fila_mudancas_podar() TO balcao_app;
  END IF;
END
$$;

-- Down Migration
DROP TRIGGER IF EXISTS mensagens_saida_conversa_mudanca ON mensagens_saida;
DROP TRIGGER IF EXISTS mensagens_conversa_mudanca ON mensagens;
DROP TRIGGER IF EXISTS extracoes_mudanca ON extracoes;
DROP FUNCTION IF EXISTS balcao_fila_mudancas_podar();
DROP FUNCTION IF EXISTS balcao_fila_mudancas(bigint, bigint[], int);
DROP FUNCTION IF EXISTS balcao_fila_mudanca_conversa();
DROP FUNCTION IF EXISTS balcao_fila_mudanca();
DROP TABLE IF EXISTS fila_mudancas;
