-- Up Migration

-- The delta logs (vendas_ajustes, 0580; fila_contagens_delta, 0740; relatorio_dias_delta, 0741)
-- are queues: writers append, a fold reads them whole and deletes what it applied. Every fold
-- and every reader that nets them scans the whole table (or walks its index), so their cost is
-- the table's size, not its live rows. With the default autovacuum thresholds (20% of the live
-- rows — which are ~0) a bulk reversal of 650k sales left vendas_ajustes at 223 MB of dead rows
-- (measured at 20M rows): each fold then read 28k pages for nothing (80 ms). Vacuumed as soon
-- as a fold has deleted a thousand entries, without cost-based pauses (these tables are small
-- once vacuumed; the trailing empty pages are cut off, so a seq scan reads nothing).
ALTER TABLE vendas_ajustes SET (autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);
ALTER TABLE fila_contagens_delta SET (autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);
ALTER TABLE relatorio_dias_delta SET (autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);

-- Down Migration
ALTER TABLE vendas_ajustes RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold,
  autovacuum_vacuum_cost_delay);
ALTER TABLE fila_contagens_delta RESET (autovacuum_vacuum_scale_factor,
  autovacuum_vacuum_threshold, autovacuum_vacuum_cost_delay);
ALTER TABLE relatorio_dias_delta RESET (autovacuum_vacuum_scale_factor,
  autovacuum_vacuum_threshold, autovacuum_vacuum_cost_delay);
