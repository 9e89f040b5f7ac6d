-- Up Migration

-- Same view, same columns and rules as 0200; the tenant is now read once per query through a
-- scalar subquery (an InitPlan parameter) instead of calling balcao_lojista_atual() in the
-- condition. The function is not inlinable (it pins search_path), so in the plain form the
-- planner charges its call on every recheck of a bitmap heap scan and falls back to a plain
-- index scan with random heap reads: ~3x slower over a year of a busy merchant's sales.
-- Numbered above 0250 so databases that already have the rollups migrate in order.
CREATE OR REPLACE VIEW vendas_aprovadas WITH (security_barrier = true) AS
  SELECT t.modalidade, t.bandeira, t.valor_bruto_centavos, t.valor_liquido_centavos,
         t.aprovada_em
    FROM transacoes t
   WHERE t.merchant_id = (SELECT balcao_lojista_atual())
     AND t.status = 'aprovada';

-- Down Migration
CREATE OR REPLACE VIEW vendas_aprovadas WITH (security_barrier = true) AS
  SELECT t.modalidade, t.bandeira, t.valor_bruto_centavos, t.valor_liquido_centavos,
         t.aprovada_em
    FROM transacoes t
   WHERE t.merchant_id = balcao_lojista_atual()
     AND t.status = 'aprovada';
