-- Up Migration

-- #11 No log entry lost: both query logs are append-only for every role, the owner included,
-- like `auditoria` (UPDATE, DELETE and TRUNCATE are refused by triggers; privileges alone do
-- not bind the owner).
CREATE FUNCTION consultas_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% é somente inserção', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER consultas_vendas_imutavel BEFORE UPDATE OR DELETE ON consultas_vendas
  FOR EACH ROW EXECUTE FUNCTION consultas_somente_insercao();
CREATE TRIGGER consultas_vendas_sem_truncate BEFORE TRUNCATE ON consultas_vendas
  FOR EACH STATEMENT EXECUTE FUNCTION consultas_somente_insercao();
CREATE TRIGGER consultas_livres_sem_truncate BEFORE TRUNCATE ON consultas_livres
  FOR EACH STATEMENT EXECUTE FUNCTION consultas_somente_insercao();

REVOKE UPDATE, DELETE, TRUNCATE ON consultas_vendas, consultas_livres FROM balcao_app;

-- Down Migration
DROP TRIGGER IF EXISTS consultas_livres_sem_truncate ON consultas_livres;
DROP TRIGGER IF EXISTS consultas_vendas_sem_truncate ON consultas_vendas;
DROP TRIGGER IF EXISTS consultas_vendas_imutavel ON consultas_vendas;
DROP FUNCTION IF EXISTS consultas_somente_insercao();
