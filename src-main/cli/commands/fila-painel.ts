/**
 * `balcao fila painel [--json]` (#39.3): the team panel from a terminal — the very figures of the
 * window's "Equipe" tab, from the same service function. Supervisors only: a person's login
 * without the role is refused as the window refuses the channel; Balcão's service login may.
 */
import { FAIXAS_IDADE, FAIXA_IDADE_LABEL, type TeamPanel } from '@shared/contract/review-panel';
import { AppError } from '@shared/errors';
import { NEGADO, permissoesDe } from '@shared/permissions';
import { identify } from '../../people/session';
import { teamPanel } from '../../queue/team-panel';
import type { CliContext } from '../context';
import { printResult } from '../output';

export const SITUACAO_PAINEL: Record<string, string> = {
  falhou: 'Falhou',
  incompleto: 'Incompleto',
  com_alerta: 'Com alerta',
  aguardando_lojista: 'Aguardando lojista',
  completo: 'Completo',
};

const pct = (x: number) => `${(x * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;
const n = (x: number) => x.toLocaleString('pt-BR');

/** Seconds as people read a handling time: "45 s", "3 min 20 s", "1 h 05 min". */
export function duracaoTexto(s: number): string {
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}

function table(head: string[], rows: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    '  ' + r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [line(head), ...rows.map(line)];
}

/** The human (pt-BR) rendering of the panel. */
export function formatTeamPanel(p: TeamPanel): string {
  const when = new Date(p.gerado_em).toLocaleString('pt-BR', { timeZone: p.time_zone });
  const lines = [`Painel da equipe (${when})`, '', `Fila aberta: ${n(p.backlog.total)} pedidos`];
  if (p.backlog.por_situacao.length) {
    lines.push(
      ...table(
        ['Situação', 'Total', ...FAIXAS_IDADE.map((f) => FAIXA_IDADE_LABEL[f])],
        p.backlog.por_situacao.map((r) => [
          SITUACAO_PAINEL[r.situacao] ?? r.situacao,
          n(r.total),
          ...FAIXAS_IDADE.map((f) => n(r[f])),
        ]),
      ),
    );
  }
  lines.push(
    `Prazos: ${n(p.prazos.atrasados)} atrasados, ${n(p.prazos.vencendo)} vencendo (menos de 25% do prazo) — falhou ${p.prazos_min.falhou} min, incompleto ${p.prazos_min.incompleto} min, aguardando lojista ${p.prazos_min.aguardando} min`,
    '',
    'Agentes (hoje):',
  );
  if (p.agentes.length === 0) lines.push('  Ninguém tratou pedidos hoje nem está com um pedido.');
  else
    lines.push(
      ...table(
        ['Agente', 'Tratados', 'Mediana', 'Com o pedido'],
        p.agentes.map((a) => [
          a.operador,
          n(a.tratados_hoje),
          a.mediana_tratamento_s === null ? '—' : duracaoTexto(a.mediana_tratamento_s),
          a.reserva ? `nº ${a.reserva.pedido}` : '—',
        ]),
      ),
    );
  const f = p.falhas_validacao;
  lines.push(
    '',
    `Criação automática (24 h): ${pct(p.criacao_automatica.taxa)} — ${n(p.criacao_automatica.automaticas)} de ${n(p.criacao_automatica.extracoes)} extrações`,
    `Falhas de validação (24 h): ${pct(f.taxa)} de ${n(f.extracoes)} extrações (limite ${pct(f.limite)})${f.alerta ? ' — ALERTA: acima do limite' : ''}`,
    '',
    'Últimos 7 dias:',
    ...table(
      ['Dia', 'Extrações', 'Automáticas', 'Falharam', 'Tratados'],
      p.dias.map((d) => [
        `${d.dia.slice(8, 10)}/${d.dia.slice(5, 7)}`,
        n(d.extracoes),
        n(d.automaticas),
        n(d.falhou),
        n(d.tratados),
      ]),
    ),
  );
  return lines.join('\n');
}

export async function filaPainel(c: CliContext, opts: { json?: boolean }): Promise<void> {
  const dbs = await c.databases();
  const id = await identify(dbs.app);
  if (id.papeis.length > 0 && !permissoesDe(id.papeis).includes('supervisao')) {
    throw new AppError('acesso_negado', NEGADO.supervisao);
  }
  const s = c.settings.get();
  const p = await teamPanel(dbs.app, {
    agora: c.clock.now(),
    timeZone: s.timeZone,
    prazos: s.prazosMin,
    alertaFalhasValidacaoPct: s.alertaFalhasValidacaoPct,
  });
  printResult(c, opts.json, p, () => formatTeamPanel(p));
}
