-- Up Migration

-- #18 part 4, the gap left by 0720: the identity columns of extracoes were forced on UPDATE only.
-- A person's login may INSERT into extracoes (support and supervisors), so with direct SQL it
-- could write a new item already held by another login (lease_login/lease_operador) or already
-- resolved by another login (resolvida_por/resolvida_por_login). Now a person's INSERT gets the
-- same rules as an UPDATE: a lease, if any, is the session's login; a closed item was closed by
-- the session's login; an open one has no resolver. The service role and admin tools (not
-- people: intake, seeds, migrations) keep writing what they write, as on UPDATE for the labels.

CREATE FUNCTION balcao_fila_autoria_insercao() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF NOT balcao_sessao_pessoal() THEN
    RETURN NEW;
  END IF;
  IF NEW.lease_token IS NOT NULL THEN
    NEW.lease_login := session_user;
    NEW.lease_operador := session_user;
  ELSE
    NEW.lease_login := NULL;
    NEW.lease_operador := NULL;
  END IF;
  IF NEW.fila_estado IN ('resolvida', 'descartada') THEN
    NEW.resolvida_por_login := session_user;
    NEW.resolvida_por := session_user;
  ELSE
    NEW.resolvida_por_login := NULL;
    NEW.resolvida_por := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER extracoes_autoria_insercao BEFORE INSERT ON extracoes
  FOR EACH ROW EXECUTE FUNCTION balcao_fila_autoria_insercao();

-- Down Migration
DROP TRIGGER IF EXISTS extracoes_autoria_insercao ON extracoes;
DROP FUNCTION IF EXISTS balcao_fila_autoria_insercao();
