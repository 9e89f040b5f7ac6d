-- Up Migration
-- The queue's default order (#39.2): most urgent first — past-deadline items first, then the
-- nearest deadline — keyset-paginated on (prazo, id).
--
-- An item's deadline is  inicio + minutos(situacao)  where
--   inicio  = coalesce(situacao_desde, aguardando_desde, criada_em)  (kept by 1000's trigger:
--             a change of situation or a reopen restarts it; leases and takeovers do not), and
--   minutos = BALCAO_PRAZO_FALHOU_MIN (falhou), BALCAO_PRAZO_AGUARDANDO_MIN
--             (aguardando_lojista), BALCAO_PRAZO_INCOMPLETO_MIN (the other situations).
--
-- Why no stored `prazo_em` column: the minutes are settings of each process (environment), read
-- at query time by the list, the marks and the team panel. A stored deadline would need the
-- minutes in the database and a rewrite of every open row (700k, firing the queue's counter
-- triggers) whenever they change, and desktops with different settings would fight over it.
-- Instead the order uses what IS stored: within one situation the minutes are the same, so the
-- order by deadline is the order by `inicio`. The list reads each situation's open items from
-- the index below in (inicio, id) order — at most one page each — and merges the five sorted
-- streams by inicio + minutes (src-main/queue/list.ts). That is exact for any minutes, costs
-- five short index scans, and a change of the minutes needs no write at all. The keyset
-- condition (prazo, id) > (P, I) becomes (inicio, id) > (P − minutos, I) per situation: adding
-- minutes to a timestamptz is exact, so no row repeats or goes missing across pages.
--
-- The expression (not situacao_desde alone) keeps rows stored before 1000, and bulk loads with
-- triggers off (the bench), in the order without rewriting them. Only open items are indexed.
-- Both indexes leave leases (claim, renew, takeover) HOT updates: they change none of the
-- indexed columns.

CREATE INDEX extracoes_fila_prazo ON extracoes
  (situacao, (coalesce(situacao_desde, aguardando_desde, criada_em)), id)
  WHERE fila_estado = 'aberta';

-- The same order for one merchant (the Lojista filter).
CREATE INDEX extracoes_fila_prazo_lojista ON extracoes
  (merchant_id, situacao, (coalesce(situacao_desde, aguardando_desde, criada_em)), id)
  WHERE fila_estado = 'aberta';

-- Down Migration
DROP INDEX IF EXISTS extracoes_fila_prazo_lojista;
DROP INDEX IF EXISTS extracoes_fila_prazo;
