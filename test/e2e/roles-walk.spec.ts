/**
 * #40.2 — a role never meets a door it cannot open. For every role of src-shared/permissions.ts
 * (and the combinations used in practice: support with finance, and Balcão's own login with every
 * permission), a real sign-in through the bridge with the SAME access gate as main, then a walk
 * of every nav entry, every tab and view of each screen, an item of each queue view, and every
 * command the palette (Ctrl+K) offers there, each one run. Throughout: no call is refused for
 * the role (`acesso_negado`), no refusal text ("Seu papel não inclui…", "Só um supervisor pode
 * fazer isso.") is ever shown, and nothing the role may not use is offered (nav, report tabs, palette,
 * Alt+N, typed addresses, supervisor-only buttons).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { GROUP_ROLES } from '../../src-main/db/roles';
import { urlForRole } from '../../src-main/db/urls';
import { createHandlers } from '../../src-main/ipc/handlers';
import { createPerson } from '../../src-main/people/admin';
import { createAccess } from '../../src-main/people/session';
import { routed } from '../../src-main/start-services';
import { DEFAULT_RENDERER_DIR } from '../bridge/server';
import { NEGADO, type Papel } from '../../src-shared/permissions';
import { expect, makeServiceDeps, openApp, startTestBridge, test } from './support/fixtures';

const P = `w${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-e2e-12345';
/** What a refused call says (NEGADO), and the start every role refusal shares. */
const DOOR = new RegExp(
  [...Object.values(NEGADO), 'Seu papel não inclui']
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

const FILA = 'Fila de revisão';
const VENDAS = 'Vendas';
const COBRANCAS = 'Cobranças';
const RELATORIO = 'Relatório';
const CONFIG = 'Configurações';
const LGPD = 'LGPD';
const LOJISTAS = 'Lojistas';
const ALL_AREAS = [FILA, VENDAS, COBRANCAS, RELATORIO, CONFIG, LGPD, LOJISTAS];
/** Alt+N of each area (src-renderer/areas.tsx). */
const DIGIT: Record<string, number> = {
  [FILA]: 1,
  [VENDAS]: 2,
  [COBRANCAS]: 3,
  [RELATORIO]: 4,
  [LGPD]: 6,
  [LOJISTAS]: 7,
};
/** The address of each area a role may lack. */
const HASH: Record<string, string> = {
  [FILA]: '#/fila',
  [VENDAS]: '#/vendas',
  [COBRANCAS]: '#/cobrancas',
  [LGPD]: '#/lgpd',
  [LOJISTAS]: '#/lojistas',
};

interface Expected {
  /** Who: a person with these roles, or Balcão's own login (every permission). */
  papeis: Papel[] | 'servico';
  nav: string[];
  reportTabs: string[];
  supervisor: boolean;
}

const ROLES: Record<string, Expected> = {
  suporte: {
    papeis: ['suporte'],
    nav: [FILA, COBRANCAS, RELATORIO, CONFIG],
    reportTabs: ['Falhas de validação'],
    supervisor: false,
  },
  financeiro: {
    papeis: ['financeiro'],
    nav: [VENDAS, RELATORIO, CONFIG],
    reportTabs: ['Perguntas'],
    supervisor: false,
  },
  supervisor: {
    papeis: ['supervisor'],
    nav: ALL_AREAS,
    reportTabs: ['Falhas de validação', 'Perguntas', 'Equipe', 'Revisão de qualidade', 'Qualidade'],
    supervisor: true,
  },
  'suporte+financeiro': {
    papeis: ['suporte', 'financeiro'],
    nav: [FILA, VENDAS, COBRANCAS, RELATORIO, CONFIG],
    reportTabs: ['Falhas de validação', 'Perguntas'],
    supervisor: false,
  },
  servico: {
    papeis: 'servico',
    nav: ALL_AREAS,
    reportTabs: ['Falhas de validação', 'Perguntas', 'Equipe', 'Revisão de qualidade', 'Qualidade'],
    supervisor: true,
  },
};

/** Palette commands that open an area or a screen of one, and the area they need. */
const COMMAND_NEEDS: { command: RegExp; area: string }[] = [
  { command: /^Ir para Fila de revisão$/, area: FILA },
  { command: /^Ir para Vendas$/, area: VENDAS },
  { command: /^Ir para Cobranças$/, area: COBRANCAS },
  { command: /^Ir para LGPD$/, area: LGPD },
  { command: /^Ir para Lojistas$/, area: LOJISTAS },
  { command: /^Fila: /, area: FILA },
  { command: /^Relatório: falhas de validação$/, area: FILA },
  { command: /^Relatório: perguntas de vendas$/, area: VENDAS },
];

/** Supervisor-only controls (review/reopen, review/takeOver, settings/* writes, the API key). */
const SUPERVISOR_ONLY = [
  /^Reabrir pedido$/,
  /^Assumir de /,
  /^Salvar preferências$/,
  /^Salvar chave$/,
  /^Remover chave$/,
  /cadastrar a chave/,
];
/** Telling someone to do what only a supervisor may (register the API key). */
const SUPERVISOR_TASK = /configure a chave da API/;

interface Refusal {
  channel: string;
  code: string;
  message: string;
}

/** Every call the page makes through the bridge: how many are open, and what was refused. */
function watchCalls(page: Page) {
  const open = new Set<object>();
  const refused: Refusal[] = [];
  const parsing: Promise<void>[] = [];
  const isInvoke = (url: string) => new URL(url).pathname === '/__bridge/invoke';
  page.on('request', (r) => {
    if (isInvoke(r.url())) open.add(r);
  });
  page.on('requestfailed', (r) => open.delete(r));
  page.on('response', (res) => {
    if (!isInvoke(res.url())) return;
    parsing.push(
      (async () => {
        try {
          const body = (await res.json()) as {
            ok: boolean;
            error?: { code: string; message: string };
          };
          const channel = (res.request().postDataJSON() as { channel?: string }).channel ?? '?';
          if (!body.ok && body.error && body.error.code === 'acesso_negado') {
            refused.push({ channel, ...body.error });
          }
        } catch {
          // Its page was left (a sign-in opens a new one): the answer went nowhere.
        } finally {
          open.delete(res.request());
        }
      })(),
    );
  });
  return {
    /** Waits until no call is on its way, then returns the refusals so far. */
    async settle(): Promise<Refusal[]> {
      await expect.poll(() => open.size, { message: 'chamadas ao main em andamento' }).toBe(0);
      await Promise.all(parsing);
      return [...refused];
    },
    /** Forgets the refusals seen so far (after a deliberate one). */
    clear(): void {
      refused.length = 0;
    },
  };
}
type Calls = ReturnType<typeof watchCalls>;

async function signIn(page: Page, login: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Entrar no Balcão' });
  await expect(form).toBeVisible();
  await form.getByLabel('Usuário').fill(login);
  await form.getByLabel('Senha').fill(SENHA);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('navigation', { name: 'Áreas' })).toBeVisible();
}

/** The walk of one signed-in role: every screen, tab, view, item and palette command. */
async function walk(page: Page, calls: Calls, role: string, want: Expected): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Áreas' });
  const main = page.getByRole('main');
  const palette = page.getByRole('dialog', { name: 'Paleta de comandos' });
  const visited: string[] = [];
  /** After each step: settled, nothing refused, no permission text anywhere. */
  const check = async (step: string) => {
    visited.push(step);
    await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
    const refused = await calls.settle();
    expect(refused, `${role}: chamada recusada em "${step}"`).toEqual([]);
    await expect(page.locator('body'), `${role}: porta fechada em "${step}"`).not.toContainText(
      DOOR,
    );
    const offered = [
      ...(await page.getByRole('button').allInnerTexts()),
      ...(await page.getByRole('link').allInnerTexts()),
    ];
    if (!want.supervisor) {
      await expect(
        page.locator('body'),
        `${role}: tarefa de supervisor em "${step}"`,
      ).not.toContainText(SUPERVISOR_TASK);
      for (const only of SUPERVISOR_ONLY) {
        expect(
          offered.filter((b) => only.test(b.trim())),
          `${role}: botão de supervisor em "${step}"`,
        ).toEqual([]);
      }
    }
  };
  const goTo = async (area: string) => {
    await nav.getByRole('link', { name: new RegExp(`^${area}`) }).click();
    await expect(nav.getByRole('link', { name: new RegExp(`^${area}`) })).toHaveAttribute(
      'aria-current',
      'page',
    );
  };

  // Only the areas the role may use, in order.
  await expect(nav.getByRole('link')).toHaveText(want.nav.map((a) => new RegExp(`^${a}`)));
  // A forbidden area is reached neither by Alt+N nor by typing its address.
  for (const area of ALL_AREAS.filter((a) => !want.nav.includes(a))) {
    await goTo(want.nav[0]!);
    const here = await page.evaluate(() => window.location.hash);
    await page.keyboard.press(`Alt+${DIGIT[area]}`);
    await page.evaluate((h) => (window.location.hash = h), HASH[area]!);
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(here);
    await check(`endereço de ${area}`);
  }

  const ran = new Set<string>();
  for (const area of want.nav) {
    await goTo(area);
    await check(area);
    if (area === VENDAS) {
      // The panel with a merchant chosen: the ask box and what it says without an API key.
      const picker = page.getByRole('combobox', { name: 'Lojista' });
      await picker.fill('1');
      await expect(page.getByRole('option').first()).toBeVisible();
      await picker.press('Enter');
      await expect(page.getByTestId('sales-merchant')).toBeVisible();
      await check(`${area} → lojista escolhido`);
    }
    if (area === RELATORIO) {
      await expect(page.getByRole('tablist', { name: 'Relatórios' }).getByRole('tab')).toHaveText(
        want.reportTabs,
      );
    }
    // Every tab of the screen (report tabs, queue views), and an item of each queue view.
    const tabs = main.getByRole('tab');
    const n = await tabs.count();
    for (let i = 0; i < n; i++) {
      await goTo(area);
      const tab = tabs.nth(i);
      const name = (await tab.innerText()).trim();
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await check(`${area} → ${name}`);
      const row = main.locator('[data-testid^="queue-row-"]').first();
      if (area === FILA && (await row.count()) > 0) {
        const id = (await row.getAttribute('data-testid'))!.replace('queue-row-', '');
        await row.click();
        await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/fila/${id}`);
        await check(`${area} → ${name} → pedido`);
        if (want.supervisor && name.startsWith('Descartados')) {
          await expect(main.getByRole('button', { name: 'Reabrir pedido' })).toBeVisible();
        }
        await page.keyboard.press('Escape');
        await expect.poll(() => page.evaluate(() => window.location.hash)).not.toContain(id);
      }
    }
    // The palette here: nothing of a forbidden area; each command run once.
    await goTo(area);
    await page.keyboard.press('Control+k');
    await expect(palette).toBeVisible();
    const commands = (await palette.locator('.palette-desc').allInnerTexts()).map((c) => c.trim());
    await page.keyboard.press('Escape');
    await expect(palette).toHaveCount(0);
    for (const { command, area: needs } of COMMAND_NEEDS) {
      if (want.nav.includes(needs)) continue;
      expect(
        commands.filter((c) => command.test(c)),
        `${role}: a paleta oferece o que o papel não usa (${area})`,
      ).toEqual([]);
    }
    for (const command of commands) {
      if (ran.has(command)) continue;
      ran.add(command);
      await goTo(area);
      await page.keyboard.press('Control+k');
      await expect(palette).toBeVisible();
      await palette
        .getByRole('option')
        .filter({ has: page.locator('.palette-desc').getByText(command, { exact: true }) })
        .click();
      await expect(palette).toHaveCount(0);
      // A command that opened a dialog or an overlay: looked at, then closed.
      await check(`${area} → paleta: ${command}`);
      if ((await page.getByRole('dialog').count()) > 0) {
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
      }
    }
  }
  expect(visited.length).toBeGreaterThan(want.nav.length);
  expect(await calls.settle()).toEqual([]);
}

test('every role walks every screen it is offered and never meets a closed door', async ({
  page,
  testDb,
  serviceDeps,
  consoleErrors,
}) => {
  // Five walks of the whole app (real SCRAM sign-ins) on a shared, loaded machine.
  test.setTimeout(600_000);
  // A discarded item, so that each queue view has an item to open (the demo data has open and
  // resolved ones).
  const items = await testDb.admin.query<{ id: number }>(
    `SELECT id FROM extracoes WHERE fila_estado = 'aberta' ORDER BY id LIMIT 1`,
  );
  expect(items.rows).toHaveLength(1);
  await testDb.admin.query(
    `UPDATE extracoes SET fila_estado = 'descartada', resolvida_por = 'Davi',
       resolvida_em = '2026-11-30T13:20:00Z', descarte_motivo = 'duplicada' WHERE id = $1`,
    [items.rows[0]!.id],
  );
  // The walk is long: it runs on its own copy of the build, which a rebuild elsewhere on this
  // machine cannot change under it (a lazy chunk gone mid-walk is not a door).
  const rendererDir = mkdtempSync(join(tmpdir(), 'balcao-walk-'));
  cpSync(DEFAULT_RENDERER_DIR, rendererDir, { recursive: true });
  const logins: string[] = [];
  const access = createAccess({
    modo: 'pessoal',
    base: makeServiceDeps(testDb),
    makeHandlers: createHandlers,
    personUrl: (u, p) => urlForRole(testDb.adminUrl, u, p),
  });
  // Balcão's own login (the default window, every permission), and people signing in.
  const own = await startTestBridge({ deps: serviceDeps, rendererDir });
  const people = await startTestBridge({
    handlers: routed(access),
    gate: access.gate,
    rendererDir,
  });
  // Watched from the first call: the window opens again under the watch.
  const calls = watchCalls(page);
  try {
    await openApp(page, own);
    await walk(page, calls, 'servico', ROLES.servico!);
    for (const [role, want] of Object.entries(ROLES)) {
      if (want.papeis === 'servico') continue;
      const login = `${P}_${role.replace('+', '_')}`;
      logins.push(login);
      await createPerson(testDb.admin, { nome: login, papel: want.papeis[0]!, senha: SENHA });
      for (const extra of want.papeis.slice(1)) {
        await testDb.admin.query(`GRANT ${GROUP_ROLES[extra]} TO ${login}`);
      }
      await page.goto(people.loginUrl);
      await signIn(page, login);
      await walk(page, calls, role, want);
      if (role === 'suporte') {
        // The watch sees a refusal when there is one: main still refuses the sales report to
        // support (the door the UI no longer offers), and the refusal is the one we know.
        const r = await page.evaluate(() =>
          window.balcao.invoke('sales/questionsReport', { de: '2026-11-01', ate: '2026-11-30' }),
        );
        expect(r.ok).toBe(false);
        expect(await calls.settle()).toEqual([
          { channel: 'sales/questionsReport', code: 'acesso_negado', message: NEGADO.vendas },
        ]);
        calls.clear();
      }
      await page
        .getByRole('navigation', { name: 'Áreas' })
        .getByRole('button', { name: 'Sair' })
        .click();
    }
  } finally {
    // The page first, then its bridges: a signed-out window still calls main (its session
    // check), and a call to a bridge already closed is an error in the console.
    await page.goto('about:blank');
    await access.close();
    await Promise.all([own.close(), people.close()]);
    for (const r of logins) await testDb.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
    rmSync(rendererDir, { recursive: true, force: true });
  }
  expect(consoleErrors).toEqual([]);
});
