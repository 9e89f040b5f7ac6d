import './sales.css';
import './sales-results.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SalesAskResult, SalesSessionView } from '@shared/contract/sales';
import { ERROR_TITLES, type AppErrorShape } from '@shared/errors';
import { withHistoryEntry } from '@shared/sales-history';
import { call, onEvent } from '../api';
import { usePermissions } from '../session/session';
import { displayCombo, useShortcut } from '../components/Shortcuts';
import { hrefFor } from '../router';
import { EmptyState, LoadingState } from '../components/States';
import { useChannel } from '../useChannel';
import { errorShape, newRequestId } from './requests';
import { AskBox } from './AskBox';
import { AnswerView } from './AnswerView';
import { DEFAULT_DRAFT, draftOf, type Draft } from './draft';
import { MerchantPicker } from './MerchantPicker';
import { QueryChips } from './QueryChips';

/** Without an API key: a supervisor registers it; anyone else is told who can (#40.2). */
const noKey = (supervisor: boolean) =>
  supervisor
    ? 'Para perguntar em português, configure a chave da API da Anthropic em Configurações. Enquanto isso, monte a consulta pelos filtros abaixo.'
    : 'Para perguntar em português, um supervisor precisa cadastrar a chave da API da Anthropic em Configurações. Enquanto isso, monte a consulta pelos filtros abaixo.';

/**
 * The chips' query survives leaving and re-opening Vendas in this window (the merchant and the
 * history are kept by main); it re-runs on return, so the numbers are always fresh.
 */
let lastDraft: Draft | null = null;

interface Running {
  requestId: string;
  kind: 'ask' | 'run';
}

/**
 * The sales question panel: pick a merchant (held by the main process for this window), ask in
 * Portuguese or edit the chips, and read the code-written answer with its table, chart and CSV.
 */
export function SalesPanel() {
  // Only a supervisor may register the key: nobody else is sent to a door they cannot open.
  const supervisor = usePermissions().can('supervisao');
  const [session, setSession] = useState<SalesSessionView | null>(null);
  const [sessionError, setSessionError] = useState<AppErrorShape | null>(null);
  const [draft, setDraft] = useState<Draft>(lastDraft ?? DEFAULT_DRAFT);
  const [answer, setAnswer] = useState<SalesAskResult | null>(null);
  const [error, setError] = useState<AppErrorShape | null>(null);
  /** Whether the error came from the chips' query (retry re-runs it) or from a question. */
  const [errorFrom, setErrorFrom] = useState<'run' | 'ask'>('run');
  const [notice, setNotice] = useState<string | null>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [question, setQuestion] = useState('');
  /** The question whose answer (or error, or clarification) is shown; null for chip edits. */
  const [asked, setAsked] = useState<string | null>(null);
  const askRef = useRef<HTMLInputElement>(null);
  const current = useRef<string | null>(null);
  // Without a merchant, one tiny search says whether the database answers at all.
  const probe = useChannel('sales/merchants', { query: '', limit: 1 });

  const loadSession = useCallback(async () => {
    try {
      const s = await call('sales/session', {});
      setSession(s);
      setSessionError(null);
      return s;
    } catch (e) {
      setSessionError(errorShape(e));
      return null;
    }
  }, []);

  /** Starts a request (the chips' query or a question): it is now the newest, the one that wins. */
  const begin = useCallback((kind: Running['kind'], etapa: string) => {
    const requestId = newRequestId();
    current.current = requestId;
    setRunning({ requestId, kind });
    setProgress(etapa);
    setNotice(null);
    return requestId;
  }, []);
  /** A request failed: cancelled (say so) or an error, remembered with where it came from. */
  const fail = useCallback((err: AppErrorShape, from: 'run' | 'ask', cancelled: string) => {
    if (err.code === 'cancelado') setNotice(cancelled);
    else {
      setError(err);
      setErrorFrom(from);
    }
  }, []);
  /** A request ended: if it was still the newest, nothing runs any more. */
  const finish = useCallback((requestId: string) => {
    if (current.current === requestId) {
      current.current = null;
      setRunning(null);
      setProgress(null);
    }
  }, []);

  /** Runs the chips' query without the model. The newest request wins. */
  const runDraft = useCallback(
    async (d: Draft) => {
      const requestId = begin('run', 'consultando as vendas…');
      setDraft(d);
      setAsked(null);
      try {
        const r = await call('sales/run', { consulta: d, requestId });
        if (current.current !== requestId) return;
        setAnswer(r);
        lastDraft = draftOf(r.consulta);
        setDraft(lastDraft);
        setError(null);
      } catch (e) {
        if (current.current !== requestId) return;
        fail(errorShape(e), 'run', 'Consulta cancelada.');
      } finally {
        finish(requestId);
      }
    },
    [begin, fail, finish],
  );

  useEffect(() => {
    let alive = true;
    call('sales/session', {})
      .then((s) => {
        if (!alive) return;
        setSession(s);
        if (s.merchant) void runDraft(lastDraft ?? DEFAULT_DRAFT);
      })
      .catch((e: unknown) => {
        if (alive) setSessionError(errorShape(e));
      });
    return () => {
      alive = false;
    };
  }, [runDraft]);

  useEffect(
    () =>
      onEvent('sales/progress', (p) => {
        if (p.requestId === current.current) setProgress(p.etapa);
      }),
    [],
  );

  // "/" focuses the question box, Ctrl+L the merchant search (help overlay lists both).
  const pickerRef = useRef<HTMLInputElement>(null);
  useShortcut('/', () => askRef.current?.focus(), {
    description: 'Escrever uma pergunta',
    group: 'Vendas',
  });
  useShortcut('Mod+l', () => pickerRef.current?.focus(), {
    description: 'Escolher o lojista',
    group: 'Vendas',
  });

  const selectMerchant = async (merchantId: number) => {
    let s: SalesSessionView;
    try {
      s = await call('sales/selectMerchant', { merchantId });
    } catch (e) {
      setError(errorShape(e));
      return;
    }
    setSession(s);
    setAnswer(null);
    setError(null);
    setNotice(null);
    setAsked(null);
    void runDraft(draft);
    setTimeout(() => askRef.current?.focus(), 0);
  };

  const ask = async (pergunta: string) => {
    const requestId = begin('ask', 'interpretando a pergunta…');
    // A new question starts clean: no earlier answer, clarification or error stays under it.
    setAnswer(null);
    setError(null);
    setAsked(pergunta);
    try {
      const r = await call('sales/ask', { pergunta, requestId });
      if (current.current !== requestId) return;
      setAnswer(r);
      setError(null);
      if (r.tipo === 'resposta') {
        lastDraft = draftOf(r.consulta);
        setDraft(lastDraft);
      }
      if (r.tipo !== 'esclarecimento') setQuestion('');
      // A clarification keeps the question in the box, to be rephrased.
      // The answer's question is the history entry main recorded: no session round trip.
      setSession(
        (s) => s && { ...s, history: withHistoryEntry(s.history, r.pergunta ?? pergunta) },
      );
    } catch (e) {
      // Main may or may not have recorded a question that failed: ask it.
      void loadSession();
      if (current.current !== requestId) return;
      setAnswer(null);
      const err = errorShape(e);
      // The chips under a failed question start over (#42.4): never the previous question's.
      if (err.code !== 'cancelado') {
        lastDraft = DEFAULT_DRAFT;
        setDraft(DEFAULT_DRAFT);
      }
      fail(err, 'ask', 'Pergunta cancelada. O texto continua na caixa.');
    } finally {
      finish(requestId);
    }
  };

  const cancel = () => {
    const r = running;
    if (!r) return;
    void call('sales/cancel', { requestId: r.requestId }).catch(() => undefined);
  };

  if (!session) {
    return sessionError ? (
      <ErrorBox error={sessionError} onRetry={() => void loadSession()} />
    ) : (
      <LoadingState />
    );
  }

  const merchant = session.merchant;
  const databaseDown =
    !merchant && probe.status === 'error' && probe.error.code === 'banco_indisponivel';
  /** The chips show the query behind the numbers: not under a clarification or free SQL. */
  const showChips = answer?.tipo !== 'livre' && answer?.tipo !== 'esclarecimento';
  const disabledReason = !merchant
    ? 'Escolha um lojista para perguntar sobre as vendas dele.'
    : !session.apiKeyConfigured
      ? noKey(supervisor)
      : null;

  return (
    <div className="sales-panel" data-testid="sales-panel">
      <div className="card sales-header">
        <MerchantPicker
          value={merchant}
          onChange={(m) => void selectMerchant(m.id)}
          inputRef={pickerRef}
        />
        {merchant && (
          <p className="selected-merchant" aria-live="polite" data-testid="sales-merchant">
            <span className="selected-merchant__label">Lojista: </span>
            <strong className="selected-merchant__name">{merchant.nome}</strong>{' '}
            <span className="selected-merchant__id">#{merchant.id}</span>
          </p>
        )}
      </div>

      {databaseDown ? (
        <ErrorBox error={probe.error} onRetry={probe.reload} />
      ) : !merchant ? (
        <>
          {error && <ErrorBox error={error} />}
          <EmptyState title="Escolha um lojista">
            As perguntas de vendas respondem sempre sobre um único lojista: o escolhido nesta
            janela. Busque pelo nome ou pelo número (atalho {displayCombo('Mod+l')}).
          </EmptyState>
        </>
      ) : (
        <>
          <AskBox
            ref={askRef}
            value={question}
            onChange={setQuestion}
            onSubmit={(q) => void ask(q)}
            onCancel={cancel}
            history={session.history}
            running={running?.kind === 'ask'}
            progress={progress}
            disabledReason={disabledReason}
          />
          {!session.apiKeyConfigured && supervisor && (
            <p className="sales-hint">
              <a href={hrefFor('configuracoes')} data-testid="configure-key">
                Abrir Configurações para cadastrar a chave
              </a>
            </p>
          )}

          <div className="sales-result" aria-busy={running !== null}>
            {asked !== null && (
              <p className="sales-asked" data-testid="asked-question">
                <span className="muted">Pergunta:</span> “{asked}”
              </p>
            )}
            {notice && (
              <p className="sales-notice" role="status">
                {notice}
              </p>
            )}
            {error && (
              <ErrorBox
                error={error}
                onRetry={errorFrom === 'run' ? () => void runDraft(draft) : undefined}
              />
            )}
            {answer?.tipo === 'esclarecimento' && (
              <div className="sales-clarify" role="alert" data-testid="clarification">
                <p className="sales-clarify__title">Sobre a sua pergunta:</p>
                <p className="sales-clarify__question">{answer.esclarecimento}</p>
                <p className="muted">
                  Sua pergunta continua na caixa acima — reescreva com o detalhe que faltou.
                </p>
              </div>
            )}
            {answer && answer.tipo !== 'esclarecimento' && !error && <AnswerView answer={answer} />}
            {showChips && (
              <QueryChips
                draft={draft}
                hoje={session.hoje}
                disabled={running?.kind === 'ask'}
                onChange={(d) => void runDraft(d)}
              />
            )}
            {answer?.tipo === 'resposta' && !error && <AnswerView answer={answer} details />}
            {running?.kind === 'run' && (
              <p className="sales-progress" role="status" data-testid="run-progress">
                <span className="spinner" aria-hidden="true" /> consultando as vendas…
              </p>
            )}
          </div>
        </>
      )}
    </div>
  );
}

const ERROR_HINTS: Partial<Record<AppErrorShape['code'], string>> = {
  modelo_indisponivel: 'Os filtros abaixo continuam funcionando sem o modelo.',
  sem_chave_api: 'Os filtros abaixo continuam funcionando sem o modelo.',
  tempo_esgotado: 'Escolha um período menor nos filtros abaixo e tente de novo.',
  banco_indisponivel: 'Quando o banco voltar, tente de novo ou mude um filtro.',
};

export function ErrorBox({ error, onRetry }: { error: AppErrorShape; onRetry?: () => void }) {
  return (
    <div className="sales-error" role="alert" data-testid="sales-error" data-code={error.code}>
      <p className="sales-error__title">{ERROR_TITLES[error.code]}</p>
      <p>{error.message}</p>
      {ERROR_HINTS[error.code] && <p className="muted">{ERROR_HINTS[error.code]}</p>}
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          Tentar de novo
        </button>
      )}
    </div>
  );
}
