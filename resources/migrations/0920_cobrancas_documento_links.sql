-- Up Migration

-- Issue #36.4: the payer's document and card/boleto charges through the company's payment-link
-- service. `cliente_documento` is optional in general and required for a boleto (the app refuses
-- to create a boleto without it); stored canonical: a CPF's 11 digits or a CNPJ's 14 characters
-- (alphanumeric since July 2026: 12 of 0-9/A-Z + 2 check digits), no punctuation. The check
-- digits are the app's (src-shared/documento.ts); the shape is held here too.
ALTER TABLE cobrancas ADD COLUMN cliente_documento text
  CHECK (cliente_documento IS NULL OR cliente_documento ~ '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$');

-- A card or boleto charge is registered as a payment link (tipo 'link'): what the merchant sends is
-- the link, not a copia-e-cola. `link_id` is the id the link service answered.
ALTER TABLE cobrancas_envios DROP CONSTRAINT cobrancas_envios_tipo_check;
ALTER TABLE cobrancas_envios ADD CONSTRAINT cobrancas_envios_tipo_check
  CHECK (tipo IN ('cob', 'cobv', 'link'));
ALTER TABLE cobrancas_envios ADD COLUMN link_id text;
ALTER TABLE cobrancas_envios DROP CONSTRAINT cobrancas_envios_check1;
ALTER TABLE cobrancas_envios ADD CONSTRAINT cobrancas_envios_registrada_tem_pagamento
  CHECK (estado NOT IN ('registrada', 'enviada_ao_lojista', 'paga')
         OR copia_e_cola IS NOT NULL OR link IS NOT NULL);

-- Down Migration
ALTER TABLE cobrancas_envios DROP CONSTRAINT cobrancas_envios_registrada_tem_pagamento;
ALTER TABLE cobrancas_envios ADD CONSTRAINT cobrancas_envios_check1
  CHECK (estado NOT IN ('registrada', 'enviada_ao_lojista', 'paga') OR copia_e_cola IS NOT NULL);
ALTER TABLE cobrancas_envios DROP COLUMN IF EXISTS link_id;
ALTER TABLE cobrancas_envios DROP CONSTRAINT cobrancas_envios_tipo_check;
ALTER TABLE cobrancas_envios ADD CONSTRAINT cobrancas_envios_tipo_check
  CHECK (tipo IN ('cob', 'cobv'));
ALTER TABLE cobrancas DROP COLUMN IF EXISTS cliente_documento;
