import type { AccuracyFigure, QualityVersionReport } from '@shared/contract/quality';
import { ROTULO_CAMPO_QUALIDADE, formatPct1 } from '@shared/quality';
import { Page } from '../components/Layout';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { hrefFor } from '../router';
import { useChannel } from '../useChannel';
import './quality.css';

const pctConfig = (x: number) => `${x.toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%`;

/** The figure's cells: the rate, its interval and n (the same text as the CLI's). */
function FigureCells({ f }: { f: AccuracyFigure }) {
  if (f.taxa === null || f.inferior === null || f.superior === null) {
    return (
      <>
        <td className="num">—</td>
        <td className="num">—</td>
        <td className="num">0</td>
      </>
    );
  }
  return (
    <>
      <td className="num" title={f.texto}>
        {formatPct1(f.taxa)}
      </td>
      <td className="num">
        {formatPct1(f.inferior)}–{formatPct1(f.superior)}
      </td>
      <td className="num">{f.n.toLocaleString('pt-BR')}</td>
    </>
  );
}

function VersionCard({ v }: { v: QualityVersionReport }) {
  const id = `${v.modelo}-${v.versaoPrompt}`;
  return (
    <section className="card" data-testid={`quality-version-${id}`}>
      <h2>
        Modelo {v.modelo || '(desconhecido)'} · prompt {v.versaoPrompt || '(anterior)'}
      </h2>
      <p className="muted">
        {v.julgadas.toLocaleString('pt-BR')} de {v.amostras.toLocaleString('pt-BR')} amostras
        julgadas. Erro das cobranças automáticas: {v.errosAutomaticas.texto}.
      </p>
      <table className="table" data-testid="quality-accuracy">
        <thead>
          <tr>
            <th scope="col">Campo</th>
            <th scope="col" className="num">
              Acerto
            </th>
            <th scope="col" className="num">
              IC 95% (Wilson)
            </th>
            <th scope="col" className="num">
              n
            </th>
          </tr>
        </thead>
        <tbody>
          {v.campos.map((c) => (
            <tr key={c.campo} data-testid={`quality-accuracy-${c.campo}`}>
              <th scope="row">{ROTULO_CAMPO_QUALIDADE[c.campo]}</th>
              <FigureCells f={c} />
            </tr>
          ))}
          <tr className="quality-total">
            <th scope="row">Todos os campos</th>
            <FigureCells f={v.todosCampos} />
          </tr>
          <tr>
            <th scope="row">Cobrança inteira certa</th>
            <FigureCells f={v.cobrancasCorretas} />
          </tr>
        </tbody>
      </table>
    </section>
  );
}

/**
 * "Qualidade" (supervisors, #39.4): the extraction's accuracy measured by the supervisors'
 * judgements, per field and per (model, prompt version), each with its Wilson 95% interval —
 * the same service function as `balcao fila qualidade`.
 */
export function QualityReportPage() {
  const state = useChannel('quality/report', {});
  const title = 'Relatório: qualidade da extração';
  if (state.status === 'error' && !state.data) {
    return (
      <Page title={title}>
        <ErrorState error={state.error} onRetry={state.reload} />
      </Page>
    );
  }
  if (!state.data) {
    return (
      <Page title={title}>
        <LoadingState label="Carregando o acerto medido…" />
      </Page>
    );
  }
  const r = state.data;
  return (
    <Page
      title={title}
      subtitle={`Amostragem: ${pctConfig(r.percentual)} das cobranças, e todas as primeiras ${r.inicial} de cada modelo e versão do prompt. ${r.pendentes === 1 ? '1 amostra espera' : `${r.pendentes} amostras esperam`} julgamento.`}
      actions={
        <a className="btn" href={hrefFor('relatorio', 'revisao-qualidade')}>
          Revisão de qualidade
        </a>
      }
    >
      <div className="report" aria-busy={state.status === 'loading'} data-testid="quality-report">
        {r.versoes.length === 0 ? (
          <EmptyState title="Nenhuma cobrança sorteada ainda">
            As cobranças entram na amostra quando são criadas.
          </EmptyState>
        ) : (
          r.versoes.map((v) => <VersionCard key={`${v.modelo}\u0000${v.versaoPrompt}`} v={v} />)
        )}
      </div>
    </Page>
  );
}
