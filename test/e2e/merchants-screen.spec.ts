/**
 * #36.5 / #37.1 — the supervisor's merchant screen, in pt-BR at 1366×768 and 1920×1080: find the
 * merchant, see its charge waiting in "Falhas no PSP" for want of a Pix key (Reenviar not
 * offered yet), type a bad key (the shared validator's error), then a good one (the screen and
 * the list show it), add a WhatsApp number another merchant holds (refused, naming it), then a
 * free one (listed), and send the charge again.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEM_CHAVE } from '../../src-main/psp/dispatch';
import { DEFAULT_RENDERER_DIR } from '../bridge/server';
import { dados, ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`merchant screen: Pix key (bad, then good), a WhatsApp number, Reenviar, at ${size.width}×${size.height}`, async ({
    page,
  }) => {
    const db = await freshTestDatabase();
    await ensureMerchants(db.admin, { 1: 'Padaria Sol Nascente', 2: 'Mercado Bom Preço' });
    await db.admin.query(`UPDATE merchants SET chave_pix = NULL WHERE id = 1`);
    await db.admin.query(
      `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por)
       VALUES ('+5511912345678', 2, 'supervisor.teste') ON CONFLICT DO NOTHING`,
    );
    const d = dados({
      metodo: 'pix',
      parcelas: 1,
      valor_centavos: 4590,
      vencimento: '2026-12-20',
      cliente_nome: 'Maria Souza',
    });
    const item = await insertExtraction(db.admin, { merchantId: 1, status: 'completo', dados: d });
    const q = queueFor(db.app, { operator: 'Ana' });
    const lease = await q.claim(item);
    if (!lease.claimed) throw new Error(lease.mensagem);
    const cobranca = (await q.confirm({ id: item, token: lease.token, dados: d })).cobranca.id;
    await db.admin.query(
      `UPDATE cobrancas_envios SET estado = 'falhou', motivo = $2 WHERE cobranca_id = $1`,
      [cobranca, SEM_CHAVE],
    );
    // Its own copy of the build: a rebuild elsewhere on this machine cannot change it mid-test.
    const rendererDir = mkdtempSync(join(tmpdir(), 'balcao-lojistas-'));
    cpSync(DEFAULT_RENDERER_DIR, rendererDir, { recursive: true });
    const bridge = await startTestBridge({ deps: makeServiceDeps(db), rendererDir });
    try {
      await page.setViewportSize(size);
      await openApp(page, bridge, '#/lojistas');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lojistas');
      const list = page.getByRole('region', { name: 'Lista de lojistas' });
      await list.getByLabel('Buscar lojista').fill('sol nasc');
      const row = list.getByTestId('lojista-1');
      await expect(list.getByRole('row')).toHaveCount(2);
      await expect(row).toContainText('sem chave Pix');
      await row.getByRole('link', { name: /Padaria Sol Nascente/ }).click();
      await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/lojistas/1');

      const detail = page.getByTestId('lojista-detalhe');
      await expect(detail.getByRole('heading', { level: 2 })).toHaveText('#1 Padaria Sol Nascente');
      await expect(detail.getByTestId('lojista-chave-atual')).toContainText('Sem chave Pix');
      const falha = detail.getByTestId(`lojista-falha-${cobranca}`);
      await expect(falha).toContainText('Maria Souza');
      await expect(falha).toContainText('R$ 45,90');
      await expect(falha).toContainText('O lojista não tem chave Pix cadastrada');
      await expect(falha.getByRole('button', { name: 'Reenviar' })).toBeDisabled();
      await page.screenshot({ path: `/tmp/lojistas-antes-${size.width}.png` });

      // A bad key first: the shared validator's pt-BR reason, nothing saved.
      const chave = detail.getByRole('form', { name: 'Chave Pix do lojista' });
      await chave.getByLabel('Chave Pix').fill('123.456.789-00');
      await chave.getByRole('button', { name: 'Cadastrar chave Pix' }).click();
      await expect(detail.locator('#lojista-chave-erro')).toHaveText(
        'CPF inválido (dígitos verificadores não conferem): 123.456.789-00.',
      );
      const saved = await db.admin.query('SELECT chave_pix FROM merchants WHERE id = 1');
      expect(saved.rows[0]).toEqual({ chave_pix: null });

      await chave.getByLabel('Chave Pix').fill('Financeiro@SolNascente.com.br');
      await chave.getByRole('button', { name: 'Cadastrar chave Pix' }).click();
      await expect(page.getByText('Chave Pix de Padaria Sol Nascente cadastrada')).toBeVisible();
      await expect(detail.getByTestId('lojista-chave-atual')).toHaveText(
        'financeiro@solnascente.com.br E-mail',
      );
      await expect(row).toContainText('financeiro@solnascente.com.br');
      await expect(falha.getByRole('button', { name: 'Reenviar' })).toBeEnabled();

      // A number another merchant holds: refused, naming it; then a free one.
      const fone = detail.getByRole('form', { name: 'Adicionar número de WhatsApp' });
      await fone.getByLabel('Novo número (com DDD)').fill('+55 11 91234-5678');
      await fone.getByRole('button', { name: 'Adicionar número' }).click();
      await expect(detail.locator('#lojista-telefone-erro')).toHaveText(
        'O telefone +5511912345678 já está cadastrado para o lojista #2 (Mercado Bom Preço); remova-o de lá antes.',
      );
      await fone.getByLabel('Novo número (com DDD)').fill('+55 (11) 98765-4321');
      await fone.getByRole('button', { name: 'Adicionar número' }).click();
      await expect(detail.getByTestId('lojista-contatos')).toContainText('+5511987654321');
      await expect(row.getByRole('cell').nth(1)).toHaveText('1');
      await page.screenshot({ path: `/tmp/lojistas-depois-${size.width}.png` });

      // The charge goes on (no PSP here: it waits as pendente, off "Falhas no PSP").
      await falha.getByRole('button', { name: 'Reenviar' }).click();
      await expect(page.getByText(`Cobrança #${cobranca} reenviada: pendente.`)).toBeVisible();
      await expect(detail.getByText('Nenhuma cobrança parada no PSP')).toBeVisible();

      const audit = await db.admin.query<{ acao: string }>(
        `SELECT acao FROM auditoria
          WHERE acao IN ('chave_pix_alterada', 'contato_whatsapp_adicionado', 'cobranca_reenviada')
          ORDER BY id`,
      );
      expect(audit.rows.map((r) => r.acao)).toEqual([
        'chave_pix_alterada',
        'contato_whatsapp_adicionado',
        'cobranca_reenviada',
      ]);
    } finally {
      await bridge.close();
      await db.drop();
      rmSync(rendererDir, { recursive: true, force: true });
    }
  });
}
