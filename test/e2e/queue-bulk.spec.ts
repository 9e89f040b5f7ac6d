/**
 * #39.5 and #39.4's last sentence, in pt-BR Chromium at 1366×768 and 1920×1080 through the test
 * bridge on real PostgreSQL (the bridge's login is a supervisor's):
 * - bulk: three items selected (a click, Shift+click for the range, Space on the keyboard row) →
 *   the toolbar says "3 selecionados" → "Atribuir a…" a person (each row says so) → selected
 *   again → "Descartar…" with one reason → they leave the open view, the toast counts them, and
 *   each has its own audit rows; Descartados offers "Reabrir…" for them;
 * - quality review: a sampled automatic charge, registered at the fake PSP (HTTPS, mutual TLS),
 *   judged with a wrong field → "Cancelar cobrança e refazer…" → the dialog shows the amount →
 *   cancelled at the PSP, the item back in the queue, audited.
 * Screenshots in the test's output folder.
 */
import { randomBytes } from 'node:crypto';
import type { Page, TestInfo } from '@playwright/test';
import { createPool } from '../../src-main/db/pool';
import { urlForRole } from '../../src-main/db/urls';
import { createPerson } from '../../src-main/people/admin';
import { claim } from '../../src-main/queue/lease';
import { startFakePsp, type FakePsp } from '../support/fake-psp';
import { dados, insertExtraction, queueFor } from '../support/queue-fixtures';
import type { TestDatabase } from '../support/testdb';
import { expect, ownDatabase, startTestBridge, test } from './support/fixtures';

/** A person of the queue to assign items to (logins are cluster-wide: a name of this run). */
const LIA = `e${randomBytes(3).toString('hex')}_lia`;
const LIA_SENHA = 'senha-lote-e2e-1';

/** A build of the renderer other than out/renderer (a tree where others rebuild meanwhile). */
const RENDERER = process.env.BALCAO_E2E_RENDERER_DIR
  ? { rendererDir: process.env.BALCAO_E2E_RENDERER_DIR }
  : {};

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

const t = test.extend(ownDatabase).extend<object, { psp: FakePsp }>({
  psp: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const psp = await startFakePsp();
      await use(psp);
      await psp.close();
    },
    { scope: 'worker' },
  ],
  bridge: [
    async ({ serviceDeps, psp }, use) => {
      const bridge = await startTestBridge({
        deps: serviceDeps,
        ...RENDERER,
        psp: {
          env: {
            BALCAO_PSP_URL: psp.url,
            BALCAO_PSP_CLIENT_ID: psp.clientId,
            BALCAO_PSP_CLIENT_SECRET: psp.clientSecret,
            BALCAO_PSP_CERT: psp.files.cert,
            BALCAO_PSP_KEY: psp.files.key,
            BALCAO_PSP_CA: psp.files.ca,
          },
          webhookToken: 'token-do-webhook-lote-0123',
        },
      });
      await use(bridge);
      await bridge.close();
    },
    { scope: 'worker' },
  ],
});

t.beforeAll(async ({ testDb }) => {
  await createPerson(testDb.admin, { nome: LIA, papel: 'suporte', senha: LIA_SENHA });
});
t.afterAll(async ({ testDb }) => {
  await testDb.admin.query(`DROP ROLE IF EXISTS ${LIA}`);
});

async function shot(page: Page, info: TestInfo, name: string) {
  const { width, height } = page.viewportSize()!;
  await page.screenshot({ path: info.outputPath(`${name}-${width}x${height}.png`) });
}

async function audits(db: TestDatabase, acao: string, ids: number[]) {
  const r = await db.admin.query<{ id: number; detalhes: Record<string, unknown> }>(
    `SELECT extracao_id::int AS id, detalhes FROM auditoria
      WHERE acao = $1 AND extracao_id = ANY($2::bigint[]) ORDER BY extracao_id`,
    [acao, ids],
  );
  return r.rows;
}

for (const size of SIZES) {
  t.describe(`${size.width}×${size.height}`, () => {
    t.use({ viewport: size });

    t(
      'select 3 items → "Descartar…" with one reason → they leave the open view, each audited',
      async ({ page, testDb, consoleErrors }, info) => {
        const marca = `lote${size.width}`;
        const ids: number[] = [];
        for (const quem of ['Ana', 'Bruno', 'Carla']) {
          ids.push(
            await insertExtraction(testDb.admin, {
              merchantId: 1,
              status: 'incompleto',
              texto: `${marca}: link de 80 reais pra ${quem}`,
              dados: dados({ valor_centavos: 8000, vencimento: null }),
            }),
          );
        }
        await page.evaluate(() => (window.location.hash = '#/fila'));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fila de revisão');
        await page.getByTestId('view-aberta').click();
        await page.getByPlaceholder('Buscar no texto (/)').fill(marca);
        for (const id of ids) await expect(page.getByTestId(`queue-row-${id}`)).toBeVisible();
        await expect(page.locator('.queue-row')).toHaveCount(3);
        const toolbar = page.getByRole('toolbar', { name: 'Ações em lote' });
        await expect(toolbar).toHaveCount(0);

        // The rows in the table's order; a click, then Shift+click selects the range.
        const order = await page
          .locator('.queue-row')
          .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.slice(10))));
        await page.getByTestId(`bulk-select-${order[0]}`).click();
        await expect(toolbar).toContainText('1 selecionado');
        await page.getByTestId(`bulk-select-${order[2]}`).click({ modifiers: ['Shift'] });
        await expect(page.getByTestId('bulk-count')).toHaveText('3 selecionados');
        // Space toggles the row under the keyboard (the last one clicked) — also when the focus
        // is not on its box (here, the list itself).
        await page.getByTestId('queue-table').click({ position: { x: 600, y: 300 } });
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fila de revisão');
        await page.keyboard.press(' ');
        await expect(page.getByTestId('bulk-count')).toHaveText('2 selecionados');
        await expect(page.getByTestId(`bulk-select-${order[2]}`)).not.toBeChecked();
        await page.keyboard.press(' ');
        await expect(page.getByTestId('bulk-count')).toHaveText('3 selecionados');
        await expect(page.getByTestId('bulk-select-page')).toBeChecked();
        // Clicking a checkbox never opens the item.
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fila de revisão');
        await shot(page, info, 'fila-lote-selecao');

        // "Atribuir a…" a person of the queue: each row says so, each item has its audit row.
        await toolbar.getByRole('button', { name: 'Atribuir a…' }).click();
        const assign = page.getByRole('dialog', { name: 'Atribuir 3 pedidos a…' });
        await assign.getByLabel('Pessoa').selectOption(LIA);
        await shot(page, info, 'fila-lote-atribuir');
        await assign.getByRole('button', { name: 'Atribuir', exact: true }).click();
        await expect(assign).toHaveCount(0);
        await expect(
          page.getByRole('status').filter({ hasText: '3 pedidos atribuídos.' }),
        ).toBeVisible();
        for (const id of ids) {
          await expect(page.getByTestId(`queue-row-${id}`)).toContainText(`atribuído a ${LIA}`);
        }
        expect((await audits(testDb, 'atribuida', ids)).map((a) => a.id)).toEqual(
          [...ids].sort((a, b) => a - b),
        );
        // The selection ends with the action; the header box selects the page again.
        await expect(toolbar).toHaveCount(0);
        await page.getByTestId('bulk-select-page').check();
        await expect(page.getByTestId('bulk-count')).toHaveText('3 selecionados');

        await toolbar.getByRole('button', { name: 'Descartar…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Descartar 3 pedidos?' });
        await dialog.getByRole('radio', { name: 'Mensagem de teste' }).check();
        await shot(page, info, 'fila-lote-descartar');
        await dialog.getByRole('button', { name: 'Descartar' }).click();
        await expect(dialog).toHaveCount(0);
        await expect(
          page.getByRole('status').filter({ hasText: '3 pedidos descartados.' }),
        ).toBeVisible();
        await expect(page.locator('.queue-row')).toHaveCount(0);
        await expect(toolbar).toHaveCount(0);

        const log = await audits(testDb, 'descartada', ids);
        expect(log.map((a) => a.id)).toEqual([...ids].sort((a, b) => a - b));
        expect(log.every((a) => a.detalhes.em_lote === true)).toBe(true);
        const st = await testDb.admin.query<{ fila_estado: string; descarte_motivo: string }>(
          'SELECT DISTINCT fila_estado, descarte_motivo FROM extracoes WHERE id = ANY($1::bigint[])',
          [ids],
        );
        expect(st.rows).toEqual([{ fila_estado: 'descartada', descarte_motivo: 'teste' }]);

        // In "Descartados" they can be reopened together.
        await page.getByTestId('view-descartada').click();
        await expect(page.locator('.queue-row')).toHaveCount(3);
        await page.getByTestId('bulk-select-page').check();
        await expect(page.getByTestId('bulk-count')).toHaveText('3 selecionados');
        await expect(toolbar.getByRole('button', { name: 'Descartar…' })).toHaveCount(0);
        await expect(toolbar.getByRole('button', { name: 'Reabrir…' })).toBeVisible();
        await shot(page, info, 'fila-lote-descartados');
        expect(consoleErrors).toEqual([]);
      },
    );

    t(
      'an item another person holds is skipped, and the details say why',
      async ({ page, testDb }, info) => {
        const marca = `segura${size.width}`;
        const ids: number[] = [];
        for (const quem of ['Davi', 'Eva']) {
          ids.push(
            await insertExtraction(testDb.admin, {
              merchantId: 1,
              status: 'incompleto',
              texto: `${marca}: link de 90 reais pra ${quem}`,
              dados: dados({ valor_centavos: 9000, vencimento: null }),
            }),
          );
        }
        // Lia (her own login) is working on the second one.
        const lia = createPool(urlForRole(testDb.adminUrl, LIA, LIA_SENHA), { max: 1 });
        try {
          expect((await claim(lia, { id: ids[1]!, operador: LIA })).claimed).toBe(true);
        } finally {
          await lia.end();
        }
        await page.evaluate(() => (window.location.hash = '#/fila'));
        await page.getByTestId('view-aberta').click();
        await page.getByPlaceholder('Buscar no texto (/)').fill(marca);
        await expect(page.locator('.queue-row')).toHaveCount(2);
        await page.getByTestId('bulk-select-page').check();
        await page
          .getByRole('toolbar', { name: 'Ações em lote' })
          .getByRole('button', { name: 'Descartar…' })
          .click();
        const dialog = page.getByRole('dialog', { name: 'Descartar 2 pedidos?' });
        await dialog.getByRole('radio', { name: 'Pedido duplicado' }).check();
        await dialog.getByRole('button', { name: 'Descartar' }).click();
        await expect(
          page
            .getByRole('status')
            .filter({ hasText: '1 pedido descartado; 1 ignorado (veja os motivos).' }),
        ).toBeVisible();
        const details = page.getByTestId('bulk-skipped');
        await expect(details).toContainText('1 pedido não foi alterado:');
        await expect(details).toContainText(
          `Pedido #${ids[1]}: Este item está em análise por ${LIA}. Só quem está com o item pode agir.`,
        );
        await expect(page.locator('.queue-row')).toHaveCount(1);
        await expect(page.getByTestId(`queue-row-${ids[1]}`)).toContainText(
          `em análise por ${LIA}`,
        );
        await shot(page, info, 'fila-lote-ignorado');
        await details.getByRole('button', { name: 'Fechar os detalhes' }).click();
        await expect(details).toHaveCount(0);
        expect((await audits(testDb, 'descartada', ids)).map((a) => a.id)).toEqual([ids[0]]);
      },
    );

    t(
      'a wrong automatic charge is cancelled from the quality review and its item goes back to the queue',
      async ({ page, testDb, bridge, psp, consoleErrors }, info) => {
        await testDb.admin.query(
          `UPDATE merchants SET chave_pix = 'financeiro@padaria-lote.com.br' WHERE id = 1`,
        );
        const d = dados({
          metodo: 'pix',
          parcelas: 1,
          valor_centavos: 15000,
          cliente_nome: 'Joana Prado',
          vencimento: '2026-12-10',
        });
        const id = await insertExtraction(testDb.admin, {
          merchantId: 1,
          status: 'completo',
          texto: 'manda um pix de 105 reais pra Joana Prado',
          dados: d,
        });
        await testDb.admin.query(
          `UPDATE extracoes SET modelo = 'claude-e2e', versao_prompt = $2 WHERE id = $1`,
          [id, `p-lote-${size.width}`],
        );
        // Created by the system (the intake's automatic creation), sampled as the first of its version.
        const sistema = queueFor(testDb.app, { operator: 'sistema' });
        const lease = await sistema.claim(id);
        if (!lease.claimed) throw new Error(lease.mensagem);
        const { cobranca } = await sistema.confirm({ id, token: lease.token, dados: d });
        expect(await bridge.pix!.step(cobranca.id)).toBe('registrada');
        const txid = (
          await testDb.admin.query<{ txid: string }>(
            'SELECT txid FROM cobrancas_envios WHERE cobranca_id = $1',
            [cobranca.id],
          )
        ).rows[0]!.txid;
        await testDb.admin.query(
          `UPDATE qualidade_amostras SET julgada_por = 'antes', julgada_em = now()
          WHERE julgada_em IS NULL AND cobranca_id <> $1`,
          [cobranca.id],
        );

        await page.evaluate(() => (window.location.hash = '#/relatorio/revisao-qualidade'));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Revisão de qualidade');
        const sample = page.getByTestId('quality-sample');
        await expect(sample).toContainText(`Cobrança #${cobranca.id}`);
        await expect(sample).toContainText('Automática');
        const cancel = page.getByRole('button', { name: 'Cancelar cobrança e refazer…' });
        await expect(cancel).toHaveCount(0);
        // The amount was wrong (the message says 105); every other field right.
        await page
          .getByTestId('quality-row-valor_centavos')
          .getByRole('radio', { name: 'Errado' })
          .check();
        for (const campo of ['parcelas', 'metodo', 'cliente_nome', 'vencimento', 'descricao']) {
          await page
            .getByTestId(`quality-row-${campo}`)
            .getByRole('radio', { name: 'Certo' })
            .check();
        }
        await expect(cancel).toBeEnabled();
        await cancel.click();
        const dialog = page.getByRole('dialog', {
          name: `Cancelar a cobrança #${cobranca.id} de R$ 150,00?`,
        });
        await expect(dialog).toContainText('Padaria');
        await expect(dialog).toContainText('Joana Prado');
        await expect(dialog).toContainText('Campos errados: Valor.');
        await shot(page, info, 'qualidade-cancelar');
        await dialog.getByRole('button', { name: 'Cancelar cobrança e devolver à fila' }).click();
        await expect(dialog).toHaveCount(0);
        await expect(page.getByTestId('quality-notice')).toHaveText(
          `Cobrança #${cobranca.id} cancelada; o pedido #${id} voltou à fila para ser refeito.`,
        );
        expect(psp.cobs.get(txid)?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
        const item = await testDb.admin.query<{ fila_estado: string }>(
          'SELECT fila_estado FROM extracoes WHERE id = $1',
          [id],
        );
        expect(item.rows[0]!.fila_estado).toBe('aberta');
        const log = await testDb.admin.query<{ acao: string }>(
          `SELECT acao FROM auditoria WHERE extracao_id = $1
            AND acao IN ('qualidade_julgada', 'cobranca_cancelada', 'reaberta') ORDER BY id`,
          [id],
        );
        expect(log.rows.map((r) => r.acao)).toEqual([
          'cobranca_cancelada',
          'qualidade_julgada',
          'reaberta',
        ]);
        // The item is in the open queue again, for a person to redo.
        await page.evaluate((i) => (window.location.hash = `#/fila/${i}`), id);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${id}`);
        await expect(
          page.getByRole('button', { name: /Confirmar e criar cobrança/ }),
        ).toBeVisible();
        // Its history says who cancelled and reopened it, and why.
        const historico = page.getByRole('region', { name: 'Histórico' });
        await expect(historico).toContainText('cancelou a cobrança');
        await expect(historico).toContainText('julgou a cobrança na revisão de qualidade');
        await expect(historico).toContainText(
          'reabriu o item (Cobrança automática errada, cancelada na revisão de qualidade.)',
        );
        await shot(page, info, 'qualidade-refazer-item');
        expect(consoleErrors).toEqual([]);
      },
    );
  });
}
