/**
 * #38.4 — the supervisor's LGPD screen: a search by CPF with wrong check digits is refused in
 * pt-BR; a valid one shows everything Balcão holds grouped by where it came from, downloadable
 * as JSON; "Anonimizar" asks first, listing every field that will change; afterwards the CPF
 * finds nothing and the person's phone finds the message with the marker — at 1366×768 and
 * 1920×1080.
 */
import { readFileSync } from 'node:fs';
import { MARCADOR_TITULAR } from '@shared/lgpd';
import { insertTrail } from '../support/lgpd-fixtures';
import { ensureMerchants } from '../support/queue-fixtures';
import {
  expect,
  freshTestDatabase,
  makeServiceDeps,
  openApp,
  startTestBridge,
  test,
} from './support/fixtures';

const CPF = '529.982.247-25';
const FONE = '(11) 98765-4321';

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`LGPD screen: search, export by origin, JSON, anonymise with confirmation, at ${size.width}×${size.height}`, async ({
    page,
  }) => {
    const db = await freshTestDatabase();
    await ensureMerchants(db.admin, { 1: 'Padaria Sol Nascente' });
    const trail = await insertTrail(db.admin, {
      merchantId: 1,
      texto: `link de R$ 150,00 pro João Silva, CPF ${CPF}, fone ${FONE}`,
      nome: 'João Silva',
      documento: '52998224725',
      diasAtras: 1,
      agora: new Date('2026-11-30T12:00:00Z'),
      valorCentavos: 15000,
    });
    const bridge = await startTestBridge({ deps: makeServiceDeps(db) });
    try {
      await page.setViewportSize(size);
      await openApp(page, bridge, '#/lgpd');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('LGPD');
      const form = page.getByRole('form', { name: 'Buscar titular' });
      const campo = form.getByLabel('CPF/CNPJ do titular');

      // Wrong check digits: refused in pt-BR before anything is read.
      await campo.fill('529.982.247-24');
      await form.getByRole('button', { name: 'Buscar' }).click();
      await expect(form.getByRole('alert')).toHaveText(
        '«529.982.247-24» não é um CPF nem um CNPJ válido (confira os dígitos verificadores).',
      );

      await campo.fill(CPF);
      await form.getByRole('button', { name: 'Buscar' }).click();
      const exp = page.getByTestId('lgpd-exportacao');
      await expect(exp).toContainText('***.982.247-**');
      const msgs = exp.getByRole('region', { name: 'Mensagens recebidas dos lojistas' });
      await expect(msgs).toContainText(`mensagens #${trail.mensagem} · texto`);
      await expect(msgs).toContainText(`CPF ${CPF}`);
      await expect(exp.getByRole('region', { name: 'Cobranças' })).toContainText('R$ 150,00');
      await page.screenshot({ path: `/tmp/lgpd-tela-${size.width}.png`, fullPage: true });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        exp.getByRole('button', { name: 'Baixar JSON' }).click(),
      ]);
      const json = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
        mensagens: { origem: { id: string } }[];
        total: number;
      };
      expect(json.mensagens.map((m) => m.origem.id)).toEqual([String(trail.mensagem)]);

      await exp.getByRole('button', { name: 'Anonimizar titular…' }).click();
      const dialog = page.getByTestId('lgpd-anonimizar-dialog');
      await expect(dialog.getByRole('heading')).toHaveText('Anonimizar ***.982.247-**?');
      await expect(dialog.getByTestId('lgpd-anonimizar-campos')).toContainText(
        `mensagens #${trail.mensagem} · texto`,
      );
      await expect(dialog.getByTestId('lgpd-anonimizar-campos')).toContainText(
        `cobrancas #${trail.cobranca} · cliente_nome`,
      );
      await page.screenshot({ path: `/tmp/lgpd-confirmar-${size.width}.png` });
      // Going back changes nothing.
      await dialog.getByRole('button', { name: 'Voltar' }).click();
      await expect(dialog).toHaveCount(0);
      const antes = await db.admin.query('SELECT texto FROM mensagens WHERE id = $1', [
        trail.mensagem,
      ]);
      expect(antes.rows[0].texto).toContain(CPF);

      await exp.getByRole('button', { name: 'Anonimizar titular…' }).click();
      await dialog.getByRole('button', { name: 'Anonimizar', exact: true }).click();
      await expect(dialog).toHaveCount(0);
      // Searched again: the CPF finds nothing; the phone finds the message with the marker.
      await expect(exp).toContainText('Nada encontrado');
      await form.getByLabel('Buscar por').selectOption('telefone');
      await form.getByLabel('Telefone do titular').fill(FONE);
      await form.getByRole('button', { name: 'Buscar' }).click();
      await expect(msgs).toContainText(
        `link de R$ 150,00 pro ${MARCADOR_TITULAR}, CPF ${MARCADOR_TITULAR}, fone ${FONE}`,
      );
      await page.screenshot({ path: `/tmp/lgpd-depois-${size.width}.png`, fullPage: true });
      const audit = await db.admin.query(
        `SELECT count(*)::int AS n FROM auditoria WHERE acao = 'lgpd_anonimizar'`,
      );
      expect(audit.rows[0].n).toBe(1);
    } finally {
      await bridge.close();
      await db.drop();
    }
  });
}
