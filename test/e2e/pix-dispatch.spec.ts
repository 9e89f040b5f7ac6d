/**
 * #36.7 — a charge's dispatch on the screens, in pt-BR Chromium at 1366×768 and 1920×1080,
 * against the fake PSP over real HTTPS with mutual TLS (test/support/fake-psp.ts). The bridge's
 * services talk to that PSP as main does from BALCAO_PSP_*; each step of the dispatch runs
 * in-process (`bridge.pix.step`, the `cobrancas` worker's job) and the PSP's webhook is played at
 * the real handler of `balcao serve`, served by the bridge.
 * - confirm in the queue → Cobranças shows `Registrada` with its copia-e-cola → the payer pays,
 *   the webhook arrives → `Paga`; the item's history shows every step with its time;
 * - a merchant without a Pix key → the charge waits in "Falhas no PSP" with the reason; the
 *   merchant's name leads a supervisor to its screen, where the key is set; "Reenviar" registers it;
 * - a supervisor cancels an open charge (dialog naming merchant and amount) → `Cancelada` at the
 *   PSP and here, audited;
 * - without a PSP, Cobranças says plainly that nothing is sent.
 */
import { randomBytes } from 'node:crypto';
import type { Page, TestInfo } from '@playwright/test';
import { urlForRole } from '../../src-main/db/urls';
import { createHandlers } from '../../src-main/ipc/handlers';
import { createPerson } from '../../src-main/people/admin';
import { createAccess } from '../../src-main/people/session';
import { routed } from '../../src-main/start-services';
import { startFakePsp, type FakePsp } from '../support/fake-psp';
import { dados, insertExtraction } from '../support/queue-fixtures';
import type { TestDatabase } from '../support/testdb';
import { expect, makeServiceDeps, openApp, startTestBridge, test } from './support/fixtures';

const WEBHOOK_TOKEN = 'token-do-webhook-e2e-0123';
const CHAVE = 'financeiro@padaria-e2e.com.br';

/** A build of the renderer other than out/renderer (a tree where others rebuild meanwhile). */
const RENDERER = process.env.BALCAO_E2E_RENDERER_DIR
  ? { rendererDir: process.env.BALCAO_E2E_RENDERER_DIR }
  : {};

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

const t = test.extend<object, { psp: FakePsp }>({
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
          webhookToken: WEBHOOK_TOKEN,
        },
      });
      await use(bridge);
      await bridge.close();
    },
    { scope: 'worker' },
  ],
});

async function merchant(
  db: TestDatabase,
  chave: string | null,
): Promise<{ id: number; nome: string }> {
  const [m] = (
    await db.admin.query<{ id: number; nome: string }>(
      `INSERT INTO merchants (id, nome, chave_pix)
       SELECT coalesce(max(id), 0) + 1, $1, $2 FROM merchants RETURNING id::int AS id, nome`,
      [chave ? 'Padaria Pão Quente' : 'Oficina Sem Chave Pix', chave],
    )
  ).rows;
  return m!;
}

/** An agent confirms a Pix charge in the queue (the real screen); returns the charge's id. */
async function confirmInQueue(
  page: Page,
  db: TestDatabase,
  merchantId: number,
  cliente: string,
  valor: number,
): Promise<number> {
  const id = await insertExtraction(db.admin, {
    merchantId,
    texto: `manda um pix de ${valor / 100} reais pra ${cliente}`,
    status: 'completo',
    dados: dados({
      metodo: 'pix',
      parcelas: 1,
      valor_centavos: valor,
      cliente_nome: cliente,
      vencimento: '2026-12-10',
      descricao: 'Encomenda de bolos',
    }),
  });
  await page.evaluate((i) => (window.location.hash = `#/fila/${i}`), id);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Pedido #${id}`);
  const confirm = page.getByRole('button', { name: /Confirmar e criar cobrança/ });
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await page
    .getByRole('dialog', { name: 'Criar esta cobrança?' })
    .getByRole('button', { name: 'Criar cobrança' })
    .click();
  await expect(page.getByTestId('created-charge')).toContainText('Cobrança #');
  const r = await db.admin.query<{ id: number }>(
    'SELECT id::int AS id FROM cobrancas WHERE extracao_id = $1',
    [id],
  );
  return r.rows[0]!.id;
}

async function envio(db: TestDatabase, id: number) {
  const r = await db.admin.query<{ estado: string; txid: string; copia_e_cola: string | null }>(
    'SELECT estado, txid, copia_e_cola FROM cobrancas_envios WHERE cobranca_id = $1',
    [id],
  );
  return r.rows[0]!;
}

/** Cobranças' filter by dispatch state. */
const envioFilter = (page: Page) =>
  page
    .locator('label.field-inline')
    .filter({ hasText: /^Envio/ })
    .locator('select');

async function openCharges(page: Page) {
  await page.evaluate(() => (window.location.hash = '#/cobrancas'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cobranças');
}

async function shot(page: Page, info: TestInfo, name: string) {
  const { width, height } = page.viewportSize()!;
  await page.screenshot({ path: info.outputPath(`${name}-${width}x${height}.png`) });
}

for (const size of SIZES) {
  t.describe(`${size.width}×${size.height}`, () => {
    t.use({ viewport: size });

    t(
      'confirmed in the queue → Registrada with its copia-e-cola → the webhook → Paga',
      async ({ page, testDb, bridge, psp, consoleErrors }, info) => {
        const m = await merchant(testDb, CHAVE);
        const id = await confirmInQueue(page, testDb, m.id, 'Joana Prado', 15000);
        expect(await envio(testDb, id)).toMatchObject({ estado: 'pendente' });

        // The worker's step: PUT /cob/{txid} at the PSP.
        expect(await bridge.pix!.step(id)).toBe('registrada');
        const e = await envio(testDb, id);
        expect(e.copia_e_cola).toBeTruthy();
        expect(psp.cobs.get(e.txid)?.valor).toMatchObject({ original: '150.00' });

        await openCharges(page);
        await expect(page.getByTestId('sem-psp')).toHaveCount(0);
        const row = page.getByTestId(`charge-${id}`);
        await expect(row.getByTestId('envio-estado')).toContainText('Registrada');
        await expect(row.getByTestId('copia-e-cola')).toHaveText(e.copia_e_cola!);
        await expect(row.getByTestId('copia-e-cola')).toHaveAttribute('title', e.copia_e_cola!);
        await expect(row.getByRole('button', { name: 'Copiar copia-e-cola' })).toBeVisible();
        // The service login is a supervisor: an open charge can be cancelled.
        await expect(row.getByRole('button', { name: 'Cancelar' })).toBeVisible();
        // The filter by state: only the registered ones.
        await envioFilter(page).selectOption({ label: 'Registrada' });
        // (Other tests of this worker leave charges in other states: none of them shows.)
        const rows = page.getByTestId('charges-table').locator('tbody tr');
        await expect(
          rows.getByTestId('envio-estado').filter({ hasNotText: 'Registrada' }),
        ).toHaveCount(0);
        await expect(row).toBeVisible();
        await shot(page, info, 'cobrancas-registrada');

        // The payer pays; the PSP calls the webhook (at the handler of balcao serve).
        const body = psp.pay(e.txid);
        const res = await fetch(`${bridge.origin}/pix/webhook/${WEBHOOK_TOKEN}/pix`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', host: new URL(bridge.origin).host },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(200);
        // A callback alone never pays a charge: the step asks the PSP (GET /cob) first.
        expect((await envio(testDb, id)).estado).toBe('registrada');
        expect(await bridge.pix!.step(id)).toBe('paga');

        await envioFilter(page).selectOption({ label: 'Paga' });
        await expect(row.getByTestId('envio-estado')).toContainText('Paga');
        await expect(row.getByRole('button', { name: 'Cancelar' })).toHaveCount(0);
        await shot(page, info, 'cobrancas-paga');

        // The item's history: every dispatch step with its time.
        await row.getByRole('link').first().click();
        const hist = page.getByTestId('envio-historico');
        await expect(hist).toBeVisible();
        await expect(hist.locator('li')).toHaveText([
          /Cobrança criada.*por agente\.teste/,
          /Registrada no PSP.*por sistema/,
          /Pagamento confirmado pelo PSP.*por sistema/,
        ]);
        await expect(hist.locator('li time').first()).toHaveText(
          /\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}/,
        );
        await hist.scrollIntoViewIfNeeded();
        await shot(page, info, 'item-historico-envio');
        expect(consoleErrors).toEqual([]);
      },
    );

    t(
      'a merchant without a Pix key → "Falhas no PSP" with the reason; fixed, Reenviar registers it',
      async ({ page, testDb, bridge, consoleErrors }, info) => {
        const m = await merchant(testDb, null);
        const id = await confirmInQueue(page, testDb, m.id, 'Carlos Andrade', 8990);
        expect(await bridge.pix!.step(id)).toBe('falhou');

        await page.keyboard.press('Escape');
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fila de revisão');
        await page.getByTestId('view-falhas-psp').click();
        const row = page.getByTestId(`falha-${id}`);
        await expect(row).toContainText(m.nome);
        await expect(row).toContainText('R$ 89,90');
        await expect(row.getByTestId('falha-motivo')).toHaveText(
          'O lojista não tem chave Pix cadastrada: cadastre a chave Pix do lojista e reenvie a cobrança.',
        );
        await shot(page, info, 'falhas-no-psp');

        // Cobranças shows the same failure with its reason.
        await openCharges(page);
        await envioFilter(page).selectOption({ label: 'Falhou' });
        await expect(page.getByTestId(`charge-${id}`).getByTestId('envio-estado')).toContainText(
          'Falhou',
        );
        await expect(page.getByTestId(`charge-${id}`)).toContainText(
          'não tem chave Pix cadastrada',
        );

        // The supervisor follows the merchant's name to its screen and sets the key there
        // (#36.5); then sends the charge again from the view.
        await page.evaluate(() => (window.location.hash = '#/fila'));
        await page.getByTestId('view-falhas-psp').click();
        await page.getByTestId(`falha-${id}`).getByRole('link', { name: m.nome }).click();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lojistas');
        const chave = page
          .getByTestId('lojista-detalhe')
          .getByRole('form', { name: 'Chave Pix do lojista' });
        await chave.getByLabel('Chave Pix').fill(CHAVE);
        await chave.getByRole('button', { name: 'Cadastrar chave Pix' }).click();
        await expect(page.getByTestId('lojista-chave-atual')).toContainText(CHAVE);
        await page.evaluate(() => (window.location.hash = '#/fila'));
        await page.getByTestId('view-falhas-psp').click();
        await page.getByTestId(`falha-${id}`).getByRole('button', { name: 'Reenviar' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'reenviada' })).toContainText(
          `Cobrança #${id} reenviada: registrada.`,
        );
        await expect(page.getByTestId(`falha-${id}`)).toHaveCount(0);
        expect((await envio(testDb, id)).estado).toBe('registrada');
        expect(consoleErrors).toEqual([]);
      },
    );
  });
}

t(
  'a supervisor cancels an open charge: the dialog names merchant and amount; cancelled at the PSP, audited',
  async ({ page, testDb, bridge, psp }, info) => {
    const m = await merchant(testDb, CHAVE);
    const id = await confirmInQueue(page, testDb, m.id, 'Rita Moraes', 23450);
    expect(await bridge.pix!.step(id)).toBe('registrada');
    const { txid } = await envio(testDb, id);

    await openCharges(page);
    const row = page.getByTestId(`charge-${id}`);
    await row.getByRole('button', { name: 'Cancelar' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancelar a cobrança #${id}?` });
    await expect(dialog).toContainText('R$ 234,50');
    await expect(dialog).toContainText(m.nome);
    await shot(page, info, 'cancelar-cobranca');
    await dialog.getByRole('button', { name: 'Cancelar cobrança de R$ 234,50' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByTestId('envio-estado')).toContainText('Cancelada');
    await expect(row.getByRole('button', { name: 'Cancelar' })).toHaveCount(0);
    expect(psp.cobs.get(txid)?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const audit = await testDb.admin.query<{ operador: string }>(
      `SELECT operador FROM auditoria WHERE acao = 'cobranca_cancelada' AND detalhes->>'cobranca_id' = $1`,
      [String(id)],
    );
    expect(audit.rows).toEqual([{ operador: 'agente.teste' }]);
  },
);

t(
  'without a PSP, Cobranças says plainly that charges stay pending and nothing is sent',
  async ({ page, serviceDeps }) => {
    const plain = await startTestBridge({ deps: serviceDeps, ...RENDERER });
    try {
      await openApp(page, plain, '#/cobrancas');
      await expect(page.getByTestId('sem-psp')).toHaveText(
        'Nenhum PSP configurado: as cobranças ficam pendentes e nada é enviado.',
      );
    } finally {
      await plain.close();
    }
  },
);

t(
  'support sees the dispatch and its copia-e-cola, sends a failed charge again, never sees Cancelar',
  async ({ page, testDb, bridge }) => {
    const m = await merchant(testDb, CHAVE);
    const id = await confirmInQueue(page, testDb, m.id, 'Paulo Teixeira', 5000);
    expect(await bridge.pix!.step(id)).toBe('registrada');
    const semChave = await merchant(testDb, null);
    const failed = await confirmInQueue(page, testDb, semChave.id, 'Vera Lúcia', 7000);
    expect(await bridge.pix!.step(failed)).toBe('falhou');

    const login = `e${randomBytes(3).toString('hex')}_pix_sue`;
    const senha = 'senha-e2e-pix-12345';
    await createPerson(testDb.admin, { nome: login, papel: 'suporte', senha });
    const access = createAccess({
      modo: 'pessoal',
      base: makeServiceDeps(testDb),
      makeHandlers: createHandlers,
      personUrl: (u, p) => urlForRole(testDb.adminUrl, u, p),
    });
    const people = await startTestBridge({
      handlers: routed(access),
      gate: access.gate,
      ...RENDERER,
    });
    try {
      await page.goto(people.loginUrl);
      const form = page.getByRole('form', { name: 'Entrar no Balcão' });
      await form.getByLabel('Usuário').fill(login);
      await form.getByLabel('Senha').fill(senha);
      await form.getByRole('button', { name: 'Entrar' }).click();
      await expect(page.getByRole('navigation', { name: 'Áreas' })).toContainText('Suporte');
      await openCharges(page);
      const row = page.getByTestId(`charge-${id}`);
      await expect(row.getByTestId('envio-estado')).toContainText('Registrada');
      await expect(row.getByRole('button', { name: 'Copiar copia-e-cola' })).toBeVisible();
      await expect(
        page.getByTestId('charges-table').getByRole('button', { name: 'Cancelar' }),
      ).toHaveCount(0);
      expect(people.calls.filter((c) => c.channel === 'pix/cancel')).toEqual([]);

      // Support sends a failed charge again with its own login (migration 0910 lets it write
      // the dispatch row). This bridge has no PSP: the charge goes back to waiting, unsent.
      await page.evaluate(() => (window.location.hash = '#/fila'));
      await page.getByTestId('view-falhas-psp').click();
      await page.getByTestId(`falha-${failed}`).getByRole('button', { name: 'Reenviar' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'reenviada' })).toContainText(
        `Cobrança #${failed} reenviada: pendente.`,
      );
      await expect(page.getByTestId(`falha-${failed}`)).toHaveCount(0);
      expect((await envio(testDb, failed)).estado).toBe('pendente');
      const audit = await testDb.admin.query<{ operador: string }>(
        `SELECT operador FROM auditoria WHERE acao = 'cobranca_reenviada' AND detalhes->>'cobranca_id' = $1`,
        [String(failed)],
      );
      expect(audit.rows).toEqual([{ operador: login }]);
    } finally {
      await people.close();
    }
  },
);
