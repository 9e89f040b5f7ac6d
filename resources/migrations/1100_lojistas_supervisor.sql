-- Up Migration

-- Issues #36.5 and #37.1: the supervisor's merchant screen sets a merchant's Pix key, as
-- `balcao lojistas chave-pix` does with Balcão's own login (audited in the same transaction).
-- Adding and removing a merchant's WhatsApp numbers was granted to supervisors by 0970.
GRANT UPDATE (chave_pix) ON merchants TO balcao_supervisor;

-- Down Migration
REVOKE UPDATE (chave_pix) ON merchants FROM balcao_supervisor;
