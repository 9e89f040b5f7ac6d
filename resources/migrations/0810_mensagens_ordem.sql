-- Up Migration

-- Issue #17, "backlog drains in arrival order per merchant": a worker leases a merchant's
-- message only when it is that merchant's first pending one (by recebida_em, then id) and no
-- other of the merchant's messages is leased by a live worker. This index answers that check
-- (and "the merchant's next in line" after each outcome) from the pending rows alone.
CREATE INDEX mensagens_pendentes_merchant ON mensagens (merchant_id, recebida_em, id)
  WHERE estado = 'pendente';

-- Down Migration
DROP INDEX IF EXISTS mensagens_pendentes_merchant;
