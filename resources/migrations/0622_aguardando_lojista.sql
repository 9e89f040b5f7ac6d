-- Up Migration

-- The intake parks `incompleto` items as 'aguardando_lojista' while the merchant is asked.
-- The screens helper owns this state; this only makes sure the CHECK allows it (a no-op when
-- an earlier migration already did).
DO $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM pg_constraint
     WHERE conrelid = 'extracoes'::regclass AND contype = 'c'
       AND pg_get_constraintdef(oid) LIKE '%fila_estado%aguardando_lojista%'
  ) THEN
    ALTER TABLE extracoes DROP CONSTRAINT IF EXISTS extracoes_fila_estado_check;
    ALTER TABLE extracoes ADD CONSTRAINT extracoes_fila_estado_check
      CHECK (fila_estado IN ('aberta', 'resolvida', 'descartada', 'concluida', 'aguardando_lojista'));
  END IF;
END
$$;

-- Down Migration
