-- Up Migration

-- #18 People and permissions. One PostgreSQL login per person, member of one of three group
-- roles; the database decides what each may do and records who did it from the session
-- (session_user), never from a value the app sends.
--
--   balcao_suporte     review queue: read, claim, edit, confirm, discard
--   balcao_financeiro  sales panel: question log, questions report
--   balcao_supervisor  both, plus reopening (undo of a discard) and taking over another's lease
--
-- balcao_pessoa (NOLOGIN, internal) holds what every person needs whatever the group: schema
-- usage, merchants, the catalog and functions the app role kept in 0300 (the queue's NOTIFY
-- trigger calls pg_notify as the person). The service role balcao_app (intake worker, CLI,
-- background fold) keeps its own grants; it is not a person.

DO $roles$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['balcao_pessoa', 'balcao_suporte', 'balcao_financeiro', 'balcao_supervisor'] LOOP
    BEGIN
      EXECUTE format('CREATE ROLE %I NOLOGIN', r);
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END LOOP;
END
$roles$;

GRANT balcao_pessoa TO balcao_suporte, balcao_financeiro, balcao_supervisor;

-- What every person may use.
GRANT USAGE ON SCHEMA public TO balcao_pessoa;
GRANT SELECT ON merchants TO balcao_pessoa;
GRANT EXECUTE ON FUNCTION balcao_frescor(), balcao_migracoes() TO balcao_pessoa;
DO $base$
DECLARE
  f regprocedure;
  rel regclass;
  col record;
BEGIN
  -- Functions PUBLIC lost in 0300 and the app role kept.
  FOR f IN
    SELECT p.oid::regprocedure FROM pg_proc p
     WHERE p.pronamespace = 'pg_catalog'::regnamespace
       AND EXISTS (SELECT 1 FROM aclexplode(p.proacl) a
                    WHERE a.grantee = 'balcao_app'::regrole AND a.privilege_type = 'EXECUTE')
  LOOP
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO balcao_pessoa', f);
  END LOOP;
  -- Catalogs PUBLIC lost in 0300 and the app role kept.
  FOR rel IN
    SELECT c.oid::regclass FROM pg_class c
     WHERE c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
       AND EXISTS (SELECT 1 FROM aclexplode(c.relacl) a
                    WHERE a.grantee = 'balcao_app'::regrole AND a.privilege_type = 'SELECT')
  LOOP
    EXECUTE format('GRANT SELECT ON %s TO balcao_pessoa', rel);
  END LOOP;
  FOR col IN
    SELECT a.attrelid::regclass AS rel, a.attname FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
       AND a.attacl IS NOT NULL
       AND EXISTS (SELECT 1 FROM aclexplode(a.attacl) x WHERE x.grantee = 'balcao_app'::regrole)
  LOOP
    EXECUTE format('GRANT SELECT (%I) ON %s TO balcao_pessoa', col.attname, col.rel);
  END LOOP;
END
$base$;

-- Review queue: support and supervisors.
GRANT SELECT, INSERT, UPDATE ON extracoes, extracao_tentativas TO balcao_suporte, balcao_supervisor;
GRANT SELECT, INSERT ON cobrancas, auditoria TO balcao_suporte, balcao_supervisor;
GRANT SELECT ON mensagens, mensagens_saida TO balcao_suporte, balcao_supervisor;
GRANT USAGE ON SEQUENCE extracoes_id_seq, extracao_tentativas_id_seq, cobrancas_id_seq,
  auditoria_id_seq TO balcao_suporte, balcao_supervisor;

-- Sales panel: finance and supervisors. The tenant-scoped sales reads themselves run on the
-- analytics login after the main process checked membership; here: the question logs and the
-- questions report.
GRANT INSERT ON consultas_vendas TO balcao_financeiro, balcao_supervisor;
GRANT SELECT, INSERT ON consultas_livres TO balcao_financeiro, balcao_supervisor;
GRANT SELECT ON perguntas_registradas TO balcao_financeiro, balcao_supervisor;
GRANT USAGE ON SEQUENCE consultas_vendas_id_seq, consultas_livres_id_seq
  TO balcao_financeiro, balcao_supervisor;

-- Who is a person: any login but the service role, a superuser or the owner of the schema's
-- tables (migrations, admin tools). SECURITY DEFINER: people cannot read pg_roles (0300).
CREATE FUNCTION balcao_sessao_pessoal() RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT NOT (session_user = 'balcao_app'
              OR EXISTS (SELECT 1 FROM pg_roles WHERE rolname = session_user AND rolsuper)
              OR session_user = (SELECT pg_get_userbyid(relowner) FROM pg_class
                                  WHERE oid = 'public.auditoria'::regclass))
$$;

-- The session's login is a supervisor (direct or indirect member of balcao_supervisor).
CREATE FUNCTION balcao_sessao_supervisora() RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_has_role(session_user, 'balcao_supervisor', 'MEMBER')
$$;

-- The groups of the session's login, for the app's sign-in (people cannot read pg_roles).
CREATE FUNCTION balcao_meus_papeis() RETURNS text[]
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce(array_agg(substr(g, 8) ORDER BY g), '{}')
    FROM unnest(ARRAY['balcao_suporte', 'balcao_financeiro', 'balcao_supervisor']) g
   WHERE EXISTS (SELECT 1 FROM pg_roles WHERE rolname = session_user AND NOT rolsuper)
     AND pg_has_role(session_user, g, 'MEMBER')
$$;
REVOKE ALL ON FUNCTION balcao_sessao_pessoal(), balcao_sessao_supervisora(), balcao_meus_papeis()
  FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_sessao_pessoal(), balcao_sessao_supervisora(), balcao_meus_papeis()
  TO balcao_pessoa, balcao_app;

-- Identity columns: the login that wrote the row, from the session. NULL only on rows written
-- before this migration. The display columns (operador, criada_por, resolvida_por,
-- lease_operador) are forced to the login for people; the service role keeps its labels
-- ("sistema", the CLI's operator) and is identified by `login` = balcao_app.
ALTER TABLE auditoria ADD COLUMN login text;
ALTER TABLE auditoria ALTER COLUMN login SET DEFAULT session_user;
ALTER TABLE cobrancas ADD COLUMN criada_por_login text;
ALTER TABLE cobrancas ALTER COLUMN criada_por_login SET DEFAULT session_user;
ALTER TABLE consultas_vendas ADD COLUMN login text;
ALTER TABLE consultas_vendas ALTER COLUMN login SET DEFAULT session_user;
ALTER TABLE consultas_livres ADD COLUMN login text;
ALTER TABLE consultas_livres ALTER COLUMN login SET DEFAULT session_user;
ALTER TABLE extracoes
  ADD COLUMN lease_login text,
  ADD COLUMN resolvida_por_login text;

CREATE FUNCTION balcao_autoria() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'auditoria' THEN
      NEW.login := session_user;
      IF balcao_sessao_pessoal() THEN NEW.operador := session_user; END IF;
    WHEN 'consultas_vendas' THEN
      NEW.login := session_user;
      IF balcao_sessao_pessoal() THEN NEW.operador := session_user; END IF;
    WHEN 'consultas_livres' THEN
      NEW.login := session_user;
    WHEN 'cobrancas' THEN
      NEW.criada_por_login := session_user;
      IF balcao_sessao_pessoal() THEN NEW.criada_por := session_user; END IF;
  END CASE;
  RETURN NEW;
END
$$;
CREATE TRIGGER auditoria_autoria BEFORE INSERT ON auditoria
  FOR EACH ROW EXECUTE FUNCTION balcao_autoria();
CREATE TRIGGER cobrancas_autoria BEFORE INSERT ON cobrancas
  FOR EACH ROW EXECUTE FUNCTION balcao_autoria();
CREATE TRIGGER consultas_vendas_autoria BEFORE INSERT ON consultas_vendas
  FOR EACH ROW EXECUTE FUNCTION balcao_autoria();
CREATE TRIGGER consultas_livres_autoria BEFORE INSERT ON consultas_livres
  FOR EACH ROW EXECUTE FUNCTION balcao_autoria();

-- Leases and queue transitions. A lease belongs to the login that claimed it: a person cannot
-- change a row another login holds (or act through that login's token, even after it
-- expired), except by claiming an expired lease anew or — supervisors only — taking it over.
-- Reopening a closed item is for supervisors. Who closed an item comes from the session.
-- SQLSTATE class BL: Balcão's own pt-BR refusals (db/errors.ts shows their message as is).
CREATE FUNCTION balcao_fila_autoria() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  pessoal boolean := balcao_sessao_pessoal();
  nova_reserva boolean := NEW.lease_token IS NOT NULL
                          AND NEW.lease_token IS DISTINCT FROM OLD.lease_token;
BEGIN
  IF pessoal AND OLD.lease_token IS NOT NULL AND OLD.lease_login IS DISTINCT FROM session_user THEN
    IF NOT (nova_reserva AND (OLD.lease_expira_em <= now() OR balcao_sessao_supervisora())) THEN
      RAISE EXCEPTION 'Este item está reservado para %: só quem o assumiu pode agir sobre ele.',
        coalesce(OLD.lease_login, OLD.lease_operador)
        USING ERRCODE = 'BL001';
    END IF;
  END IF;
  IF nova_reserva THEN
    NEW.lease_login := session_user;
    IF pessoal THEN NEW.lease_operador := session_user; END IF;
  ELSIF NEW.lease_token IS NULL THEN
    NEW.lease_login := NULL;
  ELSE
    NEW.lease_login := OLD.lease_login;
    IF pessoal THEN NEW.lease_operador := OLD.lease_operador; END IF;
  END IF;
  IF NEW.fila_estado IS DISTINCT FROM OLD.fila_estado THEN
    IF OLD.fila_estado IN ('resolvida', 'descartada', 'concluida') AND pessoal
       AND NOT balcao_sessao_supervisora() THEN
      RAISE EXCEPTION 'Só um supervisor pode reabrir um item que já saiu da fila.'
        USING ERRCODE = 'BL002';
    END IF;
    IF NEW.fila_estado IN ('resolvida', 'descartada') THEN
      NEW.resolvida_por_login := session_user;
      IF pessoal THEN NEW.resolvida_por := session_user; END IF;
    ELSE
      NEW.resolvida_por_login := NULL;
    END IF;
  ELSE
    NEW.resolvida_por_login := OLD.resolvida_por_login;
    IF pessoal THEN NEW.resolvida_por := OLD.resolvida_por; END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER extracoes_autoria BEFORE UPDATE ON extracoes
  FOR EACH ROW EXECUTE FUNCTION balcao_fila_autoria();

-- Down Migration
DROP TRIGGER IF EXISTS extracoes_autoria ON extracoes;
DROP TRIGGER IF EXISTS consultas_livres_autoria ON consultas_livres;
DROP TRIGGER IF EXISTS consultas_vendas_autoria ON consultas_vendas;
DROP TRIGGER IF EXISTS cobrancas_autoria ON cobrancas;
DROP TRIGGER IF EXISTS auditoria_autoria ON auditoria;
DROP FUNCTION IF EXISTS balcao_fila_autoria();
DROP FUNCTION IF EXISTS balcao_autoria();
ALTER TABLE extracoes DROP COLUMN IF EXISTS resolvida_por_login, DROP COLUMN IF EXISTS lease_login;
ALTER TABLE consultas_livres DROP COLUMN IF EXISTS login;
ALTER TABLE consultas_vendas DROP COLUMN IF EXISTS login;
ALTER TABLE cobrancas DROP COLUMN IF EXISTS criada_por_login;
ALTER TABLE auditoria DROP COLUMN IF EXISTS login;
DROP FUNCTION IF EXISTS balcao_meus_papeis();
DROP FUNCTION IF EXISTS balcao_sessao_supervisora();
DROP FUNCTION IF EXISTS balcao_sessao_pessoal();
