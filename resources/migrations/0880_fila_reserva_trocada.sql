-- Up Migration

-- #42.3: a lease lost is a form still editable. When a supervisor took an item over (or someone
-- claimed it after the holder's lease expired), the holder's screen heard nothing: the live
-- notification carried only the id, and a screen ignores its own item's echoes while it holds the
-- lease, so the holder learned of it at the next renewal (up to ~30 s later). Now the
-- notification also fires when the lease token changes hands with the same operator label, and
-- says so: `"reserva": "trocada"` when a live-or-expired token was replaced by another one. No
-- token ever goes into the payload (a token is the holder's, not a broadcast). Renewals alone
-- still do not notify.

CREATE OR REPLACE FUNCTION balcao_fila_notificar() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  trocada boolean := TG_OP = 'UPDATE'
    AND OLD.lease_token IS NOT NULL
    AND NEW.lease_token IS NOT NULL
    AND OLD.lease_token IS DISTINCT FROM NEW.lease_token;
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.fila_estado IS NOT DISTINCT FROM NEW.fila_estado
     AND OLD.status IS NOT DISTINCT FROM NEW.status
     AND OLD.tentativas IS NOT DISTINCT FROM NEW.tentativas
     AND OLD.dados IS NOT DISTINCT FROM NEW.dados
     AND OLD.dados_revisados IS NOT DISTINCT FROM NEW.dados_revisados
     AND OLD.lease_operador IS NOT DISTINCT FROM NEW.lease_operador
     AND NOT trocada THEN
    RETURN NULL;
  END IF;
  IF trocada THEN
    PERFORM pg_notify('balcao_fila',
      json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP),
                        'reserva', 'trocada')::text);
  ELSE
    PERFORM pg_notify('balcao_fila',
      json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP))::text);
  END IF;
  RETURN NULL;
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION balcao_fila_notificar() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.fila_estado IS NOT DISTINCT FROM NEW.fila_estado
     AND OLD.status IS NOT DISTINCT FROM NEW.status
     AND OLD.tentativas IS NOT DISTINCT FROM NEW.tentativas
     AND OLD.dados IS NOT DISTINCT FROM NEW.dados
     AND OLD.dados_revisados IS NOT DISTINCT FROM NEW.dados_revisados
     AND OLD.lease_operador IS NOT DISTINCT FROM NEW.lease_operador THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('balcao_fila',
    json_build_object('id', NEW.id, 'fila_estado', NEW.fila_estado, 'op', lower(TG_OP))::text);
  RETURN NULL;
END
$$;
