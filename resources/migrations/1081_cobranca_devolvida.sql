-- Up Migration

-- #39.4 (last sentence): a wrong automatic charge is corrected from the quality review — the
-- charge is cancelled (at the PSP, #36.7) and its item goes back to the queue for a person to
-- redo. A charge stays final (0400: nobody changes its fields); what changes is that it no
-- longer stands for its item:
--   * cobrancas.devolvida_em / devolvida_por: when and by whom the cancelled charge's item was
--     sent back to the queue. Set once, only on a charge whose dispatch is `cancelada`.
--   * An item has at most one charge that stands (devolvida_em IS NULL): the UNIQUE extracao_id
--     becomes a partial unique index, so the redo can create the new charge and every earlier
--     one stays, cancelled, in the item's history.

ALTER TABLE cobrancas
  ADD COLUMN devolvida_em timestamptz,
  ADD COLUMN devolvida_por text;

ALTER TABLE cobrancas DROP CONSTRAINT cobrancas_extracao_id_key;
CREATE UNIQUE INDEX cobrancas_extracao_vigente ON cobrancas (extracao_id)
  WHERE devolvida_em IS NULL;
CREATE INDEX cobrancas_extracao ON cobrancas (extracao_id);

CREATE FUNCTION balcao_cobranca_devolvida() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF OLD.devolvida_em IS NOT NULL THEN
    RAISE EXCEPTION 'Esta cobrança já foi devolvida à fila.' USING ERRCODE = 'BL109';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM cobrancas_envios
                  WHERE cobranca_id = NEW.id AND estado = 'cancelada') THEN
    RAISE EXCEPTION 'Só uma cobrança cancelada pode ter o pedido devolvido à fila.'
      USING ERRCODE = 'BL109';
  END IF;
  IF balcao_sessao_pessoal() THEN
    IF NOT balcao_sessao_supervisora() THEN
      RAISE EXCEPTION 'Só um supervisor pode devolver um pedido à fila.' USING ERRCODE = 'BL109';
    END IF;
    NEW.devolvida_por := session_user;
  END IF;
  NEW.devolvida_em := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER cobrancas_devolvida BEFORE UPDATE OF devolvida_em, devolvida_por ON cobrancas
  FOR EACH ROW EXECUTE FUNCTION balcao_cobranca_devolvida();

-- Only these two columns may change, and only through the trigger's rules.
GRANT UPDATE (devolvida_em, devolvida_por) ON cobrancas TO balcao_app, balcao_supervisor;

-- Down Migration
REVOKE UPDATE (devolvida_em, devolvida_por) ON cobrancas FROM balcao_app, balcao_supervisor;
DROP TRIGGER IF EXISTS cobrancas_devolvida ON cobrancas;
DROP FUNCTION IF EXISTS balcao_cobranca_devolvida();
DROP INDEX IF EXISTS cobrancas_extracao;
DROP INDEX IF EXISTS cobrancas_extracao_vigente;
ALTER TABLE cobrancas ADD CONSTRAINT cobrancas_extracao_id_key UNIQUE (extracao_id);
ALTER TABLE cobrancas DROP COLUMN IF EXISTS devolvida_por, DROP COLUMN IF EXISTS devolvida_em;
