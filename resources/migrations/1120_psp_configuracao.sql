-- Up Migration

-- Issue #36 item 6: the PSP and payment-link settings in Configurações, as the WhatsApp ones
-- (migration 1090). One row, shared by everyone: the desktops (a supervisor edits it),
-- `balcao serve` (the webhook's path token) and `balcao worker` (the API Pix client, the link
-- service) read it when they start. A value stored here wins over the process's environment
-- (BALCAO_PSP_*, BALCAO_LINK_*); NULL means "not set here": the environment, else the default.
--
-- Certificate, key and CA are file PATHS (absolute), never the files' contents. The three
-- secrets (client secret, webhook token, link token) are write-only for people: a person's role
-- may SELECT every column but them (only whether each is set, from the generated *_configurado
-- columns) and may UPDATE them. Only the service login (balcao_app: serve, worker) reads them.
CREATE TABLE psp_configuracao (
  id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  url text CHECK (length(url) <= 500 AND url ~ '^https://[^\s/]+(/\S*)?$'),
  token_url text CHECK (length(token_url) <= 500 AND token_url ~ '^https://[^\s/]+(/\S*)?$'),
  client_id text CHECK (length(client_id) BETWEEN 1 AND 200 AND client_id ~ '^\S+$'),
  client_secret text CHECK (length(client_secret) BETWEEN 8 AND 500),
  cert_path text CHECK (length(cert_path) <= 1000 AND cert_path ~ '^/'),
  key_path text CHECK (length(key_path) <= 1000 AND key_path ~ '^/'),
  ca_path text CHECK (length(ca_path) <= 1000 AND ca_path ~ '^/'),
  webhook_token text CHECK (webhook_token ~ '^[A-Za-z0-9_-]{16,128}$'),
  link_url text CHECK (length(link_url) <= 500 AND link_url ~ '^https?://[^\s/]+(/\S*)?$'),
  link_token text CHECK (length(link_token) BETWEEN 8 AND 2000),
  client_secret_configurado boolean GENERATED ALWAYS AS (client_secret IS NOT NULL) STORED,
  webhook_token_configurado boolean GENERATED ALWAYS AS (webhook_token IS NOT NULL) STORED,
  link_token_configurado boolean GENERATED ALWAYS AS (link_token IS NOT NULL) STORED,
  alterada_em timestamptz,
  alterada_por text
);
INSERT INTO psp_configuracao (id) VALUES (1);

-- Who changed it and when, from the session (never a value the app sends).
CREATE FUNCTION balcao_psp_configuracao_autoria() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  NEW.alterada_em := now();
  NEW.alterada_por := session_user;
  RETURN NEW;
END
$$;
CREATE TRIGGER psp_configuracao_autoria BEFORE UPDATE ON psp_configuracao
  FOR EACH ROW EXECUTE FUNCTION balcao_psp_configuracao_autoria();

GRANT SELECT, UPDATE ON psp_configuracao TO balcao_app;
GRANT SELECT (id, url, token_url, client_id, cert_path, key_path, ca_path, link_url,
              client_secret_configurado, webhook_token_configurado, link_token_configurado,
              alterada_em, alterada_por)
  ON psp_configuracao TO balcao_pessoa;
GRANT UPDATE (url, token_url, client_id, client_secret, cert_path, key_path, ca_path,
              webhook_token, link_url, link_token)
  ON psp_configuracao TO balcao_supervisor;

-- Down Migration
DROP TRIGGER IF EXISTS psp_configuracao_autoria ON psp_configuracao;
DROP FUNCTION IF EXISTS balcao_psp_configuracao_autoria();
DROP TABLE IF EXISTS psp_configuracao;
