import { CHARGE_FIELDS } from '@shared/charge';
import type { AttemptView, AuditEntry } from '@shared/contract/review';
import { agentText, ruleLabel } from '@shared/rule-text';
import { formatDateTime } from '../format';
import { fieldLabel } from '@shared/rule-text';
import { formatFieldValue } from './describe';
import { formatInt, formatUsd } from './labels';
import { usePermissions } from '../session/session';

const SHOWN = CHARGE_FIELDS;

/** Every model attempt: what it sent, which rules failed, what changed (tokens and cost: `UsageDetails`). */
export function Timeline({
  attempts,
  respostas = [],
  timeZone,
}: {
  attempts: AttemptView[];
  respostas?: { rodada: number; resposta: string | null }[];
  timeZone: string;
}) {
  if (!attempts.length) {
    return <p className="muted">Nenhuma tentativa registrada (o modelo não chegou a responder).</p>;
  }
  return (
    <ol className="review-timeline" aria-label="Tentativas do modelo">
      {attempts.map((a, i) => {
        const newRound = i > 0 && a.rodada !== attempts[i - 1]?.rodada;
        const answer = respostas.find((r) => r.rodada === a.rodada);
        return (
          <li
            key={a.numero}
            className={a.erros.length ? 'attempt attempt-failed' : 'attempt attempt-ok'}
            data-testid={`attempt-${a.numero}`}
          >
            {newRound ? (
              <p className="attempt-round">
                Rodada {a.rodada} —{' '}
                {answer?.resposta ? (
                  <>
                    depois da resposta do lojista: <q>{answer.resposta}</q>
                  </>
                ) : (
                  'reprocessado com o modelo'
                )}
              </p>
            ) : null}
            <header className="attempt-header">
              <strong>Tentativa {a.numero}</strong>
              <span className="muted">{formatDateTime(a.criadaEm, timeZone)}</span>
            </header>
            {i > 0 ? (
              a.mudancas.length ? (
                <p className="attempt-changes">
                  Mudou em relação à anterior:{' '}
                  {a.mudancas.map((m, k) => (
                    <span key={m.campo}>
                      {k ? '; ' : ''}
                      {fieldLabel(m.campo)} {formatFieldValue(m.campo, m.antes)} →{' '}
                      {formatFieldValue(m.campo, m.depois)}
                    </span>
                  ))}
                </p>
              ) : (
                <p className="attempt-changes muted">O modelo repetiu a mesma resposta.</p>
              )
            ) : null}
            {a.entrada ? (
              <dl className="attempt-data">
                {SHOWN.map((f) => (
                  <div key={f}>
                    <dt>{fieldLabel(f)}</dt>
                    <dd>{formatFieldValue(f, a.entrada?.[f])}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="muted">
                Resposta sem os dados da cobrança{a.stopReason ? ` (${a.stopReason})` : ''}.
              </p>
            )}
            {a.erros.length ? (
              <ul className="attempt-errors" aria-label="Regras que falharam">
                {a.erros.map((e, k) => (
                  <li key={k}>
                    <strong>{ruleLabel(e.regra)}:</strong> {agentText(e)}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="attempt-passed">Passou nas regras.</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * Tokens and estimated cost of each attempt, behind a disclosure: agents do not need them to
 * work the item; whoever looks at cost opens it (the report keeps the totals).
 */
export function UsageDetails({
  attempts,
  custoUsd,
}: {
  attempts: AttemptView[];
  custoUsd: number | null;
}) {
  // The model's cost is billed in dollars: supervisors see it, labelled so (#42.6).
  const custos = usePermissions().can('supervisao');
  if (!attempts.length) return null;
  return (
    <details className="usage-details" data-testid="usage-details">
      <summary>
        {custos ? 'Detalhes técnicos (tokens e custo)' : 'Detalhes técnicos (tokens)'}
      </summary>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Tentativa</th>
            <th scope="col" className="num">
              Entrada
            </th>
            <th scope="col" className="num">
              Saída
            </th>
            <th scope="col" className="num">
              Cache lido
            </th>
            <th scope="col" className="num">
              Cache gravado
            </th>
            {custos ? (
              <th scope="col" className="num">
                Custo do modelo (US$)
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr key={a.numero}>
              <td>{a.numero}</td>
              <td className="num">{formatInt(a.uso.input_tokens)}</td>
              <td className="num">{formatInt(a.uso.output_tokens)}</td>
              <td className="num">{formatInt(a.uso.cache_read_input_tokens)}</td>
              <td className="num">{formatInt(a.uso.cache_creation_input_tokens)}</td>
              {custos ? <td className="num">{formatUsd(a.custoUsd)}</td> : null}
            </tr>
          ))}
        </tbody>
        {custos && custoUsd !== null ? (
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>
                Total do pedido
              </th>
              <td className="num">{formatUsd(custoUsd)}</td>
            </tr>
          </tfoot>
        ) : null}
      </table>
    </details>
  );
}

const ACTION_LABEL: Record<string, string> = {
  assumiu: 'abriu o item',
  liberou: 'fechou o item',
  rascunho_salvo: 'salvou um rascunho',
  cobranca_criada: 'criou a cobrança',
  pergunta_ao_lojista: 'copiou a pergunta para o lojista',
  resposta_registrada: 'registrou a resposta do lojista',
  reprocessada: 'reprocessou com o modelo',
  descartada: 'descartou o item',
  extracao_complementada: 'complementou a extração com a resposta',
  assumiu_de: 'assumiu o item de outra pessoa (supervisor)',
  reaberta: 'reabriu o item',
  cobranca_cancelada: 'cancelou a cobrança',
  cobranca_reenviada: 'reenviou a cobrança',
  qualidade_julgada: 'julgou a cobrança na revisão de qualidade',
};

/** A supervisor's assignment (#39.5): to whom, from its audit row. */
function assignedTo(e: AuditEntry): string {
  const to = (e.depois as { atribuida_a?: unknown } | null)?.atribuida_a;
  return typeof to === 'string' ? `atribuiu o item a ${to}` : 'tirou a atribuição do item';
}

/** An action as people read it; one not listed yet reads as words, never as a code. */
const actionLabel = (acao: string) => ACTION_LABEL[acao] ?? acao.replace(/_/g, ' ');

/** The item's audit trail, newest last. */
export function AuditTrail({ events, timeZone }: { events: AuditEntry[]; timeZone: string }) {
  const shown = events.filter((e) => e.acao !== 'assumiu' && e.acao !== 'liberou');
  if (!shown.length) return <p className="muted">Nenhuma ação registrada ainda.</p>;
  return (
    <ul className="review-audit">
      {shown.map((e) => (
        <li key={e.id}>
          <span className="muted">{formatDateTime(e.ocorridoEm, timeZone)}</span>{' '}
          <strong>{e.operador}</strong>{' '}
          {e.acao === 'pergunta_ao_lojista' && typeof e.detalhes.saida === 'number'
            ? 'enviou a pergunta ao lojista'
            : e.acao === 'atribuida'
              ? assignedTo(e)
              : actionLabel(e.acao)}
          {typeof e.detalhes.resposta === 'string' ? (
            <>
              : <q>{e.detalhes.resposta}</q>
            </>
          ) : null}
          {typeof e.detalhes.motivo === 'string' ? <span> ({e.detalhes.motivo})</span> : null}
        </li>
      ))}
    </ul>
  );
}
