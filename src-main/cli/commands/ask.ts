import { checkAnalyticsReach } from '../../db/connect';
import type { Command } from 'commander';
import type { Frescor } from '@shared/freshness';
import type { ResultadoVendas } from '@shared/sales-dsl';
import type { SalesDeps } from '../../sales';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { isoDateArg, positiveInt } from '../parse';

interface AskOptions {
  merchant: number;
  hoje?: string;
  dsl?: string;
  json?: boolean;
}

/**
 * Freshness keys of `--json` when the analytics endpoint is a hot standby (#16): `dados_ate`
 * (ISO instant), `atraso_s`, `desatualizado`, `fonte` ('replica' | 'primario') and `aviso`.
 */
export function frescorToJson(f: Frescor | undefined): Record<string, unknown> {
  return f
    ? {
        dados_ate: f.dados_ate,
        atraso_s: f.atraso_s,
        desatualizado: f.desatualizado,
        fonte: f.fonte,
        aviso: f.aviso,
      }
    : {};
}

/** `--json` shape: exactly these keys (plus the freshness keys on a replica). */
export function resultToJson(r: ResultadoVendas): Record<string, unknown> {
  if (r.tipo === 'livre') {
    return {
      consulta_livre: { sql: r.sql, colunas: r.colunas, truncado: r.truncado },
      linhas: r.linhas,
      resposta: r.resposta,
      ...frescorToJson(r.frescor),
    };
  }
  return r.tipo === 'esclarecimento'
    ? { esclarecimento: r.esclarecimento }
    : {
        consulta: r.consulta,
        linhas: r.linhas,
        interpretacao: r.interpretacao,
        resposta: r.resposta,
        ...frescorToJson(r.frescor),
      };
}

function resultToText(r: ResultadoVendas): string {
  const frescor = r.tipo !== 'esclarecimento' && r.frescor ? `\n\n(${r.frescor.aviso})` : '';
  if (r.tipo === 'livre') {
    return `${r.resposta}\n\nConsulta livre (confira o SQL):\n${r.sql}${frescor}`;
  }
  return r.tipo === 'esclarecimento'
    ? `Preciso entender melhor: ${r.esclarecimento}`
    : `${r.resposta}\n\n${r.interpretacao}${frescor}`;
}

export function parseDslArg(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(
      'O valor de --dsl não é um JSON válido (ex.: \'{"metrica":"total_bruto","periodo":"ontem"}\').',
      2,
    );
  }
}

export function registerAsk(program: Command, ctx: () => CliContext): void {
  program
    .command('ask')
    .description(
      'pergunta sobre as vendas de um lojista (em português) ou executa uma consulta DSL',
    )
    .argument('[pergunta]', 'a pergunta, ex.: "quanto vendi no crédito parcelado em março?"')
    .requiredOption('--merchant <n>', 'código do lojista', positiveInt())
    .option('--hoje <AAAA-MM-DD>', 'data de referência para períodos relativos', isoDateArg)
    .option('--dsl <json>', 'consulta pronta (pula o modelo; mesma validação)')
    .option('--json', 'saída em JSON')
    .action(async (pergunta: string | undefined, opts: AskOptions) => {
      const { clockForLocalDate } = await import('../../clock');
      const { answerSalesDsl, askSales } = await import('../../sales');
      const c = ctx();
      if (opts.dsl === undefined && !pergunta?.trim()) {
        throw new CliError('Informe a pergunta entre aspas, ou uma consulta com --dsl.', 2);
      }
      const dsl = opts.dsl !== undefined ? parseDslArg(opts.dsl) : undefined;
      const settings = c.settings.get();
      const dbs = await c.databases();
      // The analytics role must reach only Balcão's database (#12; off on shared test servers).
      await checkAnalyticsReach(dbs.admin, settings.analyticsOutrosBancos);
      const deps: SalesDeps = {
        dbs,
        settings: c.settings,
        logger: c.logger,
        clock: opts.hoje ? clockForLocalDate(opts.hoje, settings.timeZone) : c.clock,
      };
      const r =
        dsl === undefined
          ? await askSales(deps, {
              merchantId: opts.merchant,
              pergunta: pergunta ?? '',
              onProgress: (p) => {
                if (c.io.isTTY && !opts.json && p.tentativa && p.tentativa > 1) {
                  c.io.err(`  ${p.etapa}: tentativa ${p.tentativa} de ${p.maxTentativas}`);
                }
              },
            })
          : await answerSalesDsl(deps, {
              merchantId: opts.merchant,
              dsl,
              ...(pergunta ? { pergunta } : {}),
            });
      c.io.out(opts.json ? JSON.stringify(resultToJson(r)) : resultToText(r));
    });
}
