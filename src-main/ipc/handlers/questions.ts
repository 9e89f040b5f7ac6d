import type { ServiceDeps } from '../../deps';
import { addEvalCase, evalCaseDraft, evalsDir } from '../../evals/add-case';
import { questionsReport } from '../../sales/questions-report';
import type { PartialHandlers } from '../types';

type QuestionsChannels = 'sales/questionsReport' | 'sales/evalCaseDraft' | 'sales/addEvalCase';

export function questionsHandlers(deps: ServiceDeps): PartialHandlers<QuestionsChannels> {
  const opts = () => {
    const s = deps.settings.get();
    return { timeZone: s.timeZone, dir: evalsDir(s.evalsDir) };
  };
  return {
    'sales/questionsReport': (input) =>
      questionsReport(deps.dbs.app, input, deps.settings.get().timeZone),
    'sales/evalCaseDraft': ({ id }) => evalCaseDraft(deps.dbs.app, id, opts()),
    'sales/addEvalCase': (input) => addEvalCase(deps.dbs.app, input, opts()),
  };
}
