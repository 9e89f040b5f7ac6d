-- Up Migration

-- Issues #36/#37: the money reaches the merchant. When a charge's dispatch becomes `registrada`,
-- the statement that changes its state also writes a WhatsApp outbox row to the merchant with the
-- amount, the customer, the due date, the copia-e-cola and the link (when there is one); when it
-- becomes `paga`, a short paid notice. Same transaction as the state change (an outbox): the row's
-- own insert trigger (0970) gives it its sender job. One row per charge and kind, never two
-- (unique index; a repeated transition writes nothing). The sender moves the charge to
-- `enviada_ao_lojista` once the copia-e-cola went out (src-main/whatsapp/sender.ts, statuses.ts).
ALTER TABLE mensagens_saida ADD COLUMN cobranca_id bigint REFERENCES cobrancas (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX mensagens_saida_cobranca_tipo ON mensagens_saida (cobranca_id, tipo)
  WHERE cobranca_id IS NOT NULL;

-- Integer centavos as Intl.NumberFormat('pt-BR', {style: 'currency', currency: 'BRL'}) writes
-- them ('R$', a no-break space, '.' thousands, ',' decimals), whatever the server's locale.
CREATE FUNCTION balcao_brl(p_centavos bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN p_centavos < 0 THEN '-' ELSE '' END || 'R$' || chr(160)
    || replace(to_char(abs(p_centavos) / 100, 'FM999,999,999,999,999,990'), ',', '.')
    || ',' || lpad((abs(p_centavos) % 100)::text, 2, '0')
$$;

CREATE FUNCTION balcao_cobranca_whatsapp() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  c record;
  v_tipo text;
  v_texto text;
BEGIN
  SELECT b.id, b.extracao_id, b.merchant_id, b.valor_centavos, b.cliente_nome,
         to_char(b.vencimento, 'DD/MM/YYYY') AS vence
    INTO c FROM cobrancas b WHERE b.id = NEW.cobranca_id;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF NEW.estado = 'registrada' THEN
    v_tipo := 'cobranca_registrada';
    v_texto := 'Cobrança registrada: ' || balcao_brl(c.valor_centavos) || ' para '
      || c.cliente_nome || ', vencimento em ' || c.vence || '.';
    IF NEW.copia_e_cola IS NOT NULL THEN
      v_texto := v_texto || E'\n\nPix copia e cola (é só encaminhar ao cliente):\n'
        || NEW.copia_e_cola;
    END IF;
    IF NEW.link IS NOT NULL THEN
      v_texto := v_texto || E'\n\nLink de pagamento: ' || NEW.link;
    END IF;
  ELSE
    v_tipo := 'cobranca_paga';
    v_texto := 'Pagamento recebido! A cobrança de ' || balcao_brl(c.valor_centavos) || ' para '
      || c.cliente_nome || ' (vencimento em ' || c.vence || ') foi paga.';
  END IF;
  INSERT INTO mensagens_saida (canal, merchant_id, extracao_id, texto, tipo, cobranca_id)
  VALUES ('whatsapp', c.merchant_id, c.extracao_id, v_texto, v_tipo, c.id)
  ON CONFLICT (cobranca_id, tipo) WHERE cobranca_id IS NOT NULL DO NOTHING;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION balcao_cobranca_whatsapp() FROM PUBLIC;
REVOKE ALL ON FUNCTION balcao_brl(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION balcao_brl(bigint) TO balcao_app;
CREATE TRIGGER cobrancas_envios_whatsapp AFTER UPDATE OF estado ON cobrancas_envios
  FOR EACH ROW WHEN (NEW.estado IS DISTINCT FROM OLD.estado AND NEW.estado IN ('registrada', 'paga'))
  EXECUTE FUNCTION balcao_cobranca_whatsapp();

-- Down Migration
DROP TRIGGER IF EXISTS cobrancas_envios_whatsapp ON cobrancas_envios;
DROP FUNCTION IF EXISTS balcao_cobranca_whatsapp();
DROP FUNCTION IF EXISTS balcao_brl(bigint);
DROP INDEX IF EXISTS mensagens_saida_cobranca_tipo;
ALTER TABLE mensagens_saida DROP COLUMN IF EXISTS cobranca_id;
