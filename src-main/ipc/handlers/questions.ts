import type { ServiceDeps } from '../../deps';
import { addEvalCase, evalCaseDraft, evalsDir } from '../../evals/add-case';
import { questionsReport } from '../../sales/questions-report';
import type { PartialHandlers } from '../types';

type QuestionsChannels = 'sales/questionsReport' | 'sales/evalCaseDraft' | 'sales/addEvalCase';

export function questionsHandlers(
  deps: ServiceDeps,
  env: NodeJS.ProcessEnv = process.env,
): PartialHandlers<QuestionsChannels> {
  const opts = () => ({ timeZone: deps.settings.get().timeZone, dir: evalsDir(env) });
  return {
    'sales/questionsReport': (input) =>
      questionsReport(deps.dbs.app, input, deps.settings.get().timeZone),
    'sales/evalCaseDraft': ({ id }) => evalCaseDraft(deps.dbs.app, id, opts()),
    'sales/addEvalCase': (input) => addEvalCase(deps.dbs.app, input, opts()),
  };
}
