-- Up Migration

-- Issue #37 item 5: the WhatsApp settings in Configurações. One row, shared by everyone: the
-- desktops (a supervisor edits it), `balcao serve` (the webhook's app secret and verify token)
-- and `balcao worker` (the sender's token, number, API and template) read it when they start.
-- A value stored here wins over the process's environment (BALCAO_WHATSAPP_*), as every value
-- saved in Configurações does; NULL means "not set here": the environment, else the default.
--
-- The three secrets are write-only for people: a person's role may SELECT every column but
-- them (it sees only whether each is set, from the generated *_configurado columns) and may
-- UPDATE them to replace or remove them. Only the service login (balcao_app: serve, worker)
-- reads them.
CREATE TABLE whatsapp_configuracao (
  id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  api_url text CHECK (length(api_url) <= 500 AND api_url ~ '^https?://[^\s/]+(/\S*)?$'),
  phone_number_id text CHECK (phone_number_id ~ '^[0-9]{1,30}$'),
  modelo text CHECK (length(modelo) <= 512 AND modelo ~ '^[a-z0-9_]+$'),
  modelo_idioma text CHECK (modelo_idioma ~ '^[a-z]{2,3}(_[A-Z]{2})?$'),
  token text CHECK (length(token) BETWEEN 20 AND 2000),
  app_secret text CHECK (length(app_secret) BETWEEN 16 AND 200),
  verify_token text CHECK (length(verify_token) BETWEEN 8 AND 200),
  token_configurado boolean GENERATED ALWAYS AS (token IS NOT NULL) STORED,
  app_secret_configurado boolean GENERATED ALWAYS AS (app_secret IS NOT NULL) STORED,
  verify_token_configurado boolean GENERATED ALWAYS AS (verify_token IS NOT NULL) STORED,
  alterada_em timestamptz,
  alterada_por text
);
INSERT INTO whatsapp_configuracao (id) VALUES (1);

-- Who changed it and when, from the session (never a value the app sends).
CREATE FUNCTION balcao_whatsapp_configuracao_autoria() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  NEW.alterada_em := now();
  NEW.alterada_por := session_user;
  RETURN NEW;
END
$$;
CREATE TRIGGER whatsapp_configuracao_autoria BEFORE UPDATE ON whatsapp_configuracao
  FOR EACH ROW EXECUTE FUNCTION balcao_whatsapp_configuracao_autoria();

GRANT SELECT, UPDATE ON whatsapp_configuracao TO balcao_app;
GRANT SELECT (id, api_url, phone_number_id, modelo, modelo_idioma, token_configurado,
              app_secret_configurado, verify_token_configurado, alterada_em, alterada_por)
  ON whatsapp_configuracao TO balcao_pessoa;
GRANT UPDATE (api_url, phone_number_id, modelo, modelo_idioma, token, app_secret, verify_token)
  ON whatsapp_configuracao TO balcao_supervisor;

-- Down Migration
DROP TRIGGER IF EXISTS whatsapp_configuracao_autoria ON whatsapp_configuracao;
DROP FUNCTION IF EXISTS balcao_whatsapp_configuracao_autoria();
DROP TABLE IF EXISTS whatsapp_configuracao;
