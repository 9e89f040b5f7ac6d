-- Up Migration

-- Issue #36.7: people of the queue (suporte) send a charge that failed at the PSP again, after
-- fixing it ("Falhas no PSP"): sending again writes the dispatch row (state, claim, attempts), as a
-- supervisor's does. Cancelling stays a supervisor's (the screens and the IPC wrapper refuse it).
GRANT UPDATE ON cobrancas_envios TO balcao_suporte;

-- Down Migration
REVOKE UPDATE ON cobrancas_envios FROM balcao_suporte;
