import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { questionsReport } from '../sales/questions-report';
import { addEvalCase, evalCaseDraft, evalCaseOptions } from './add-case';

export type QuestionsChannel =
  'sales/questionsReport' | 'sales/evalCaseDraft' | 'sales/addEvalCase';

/**
 * The "Perguntas" report's channels (`contract/questions.ts`): the report over the sales-question
 * log, and the path from a logged question to an eval case. They live with the evals (a tool)
 * because two of them write eval cases, and services never import the tools.
 */
export function questionsChannels(deps: ServiceDeps): DomainChannels<QuestionsChannel> {
  return {
    'sales/questionsReport': (input) =>
      questionsReport(deps.dbs.app, input, deps.settings.get().timeZone),
    'sales/evalCaseDraft': ({ id }) =>
      evalCaseDraft(deps.dbs.app, id, evalCaseOptions(deps.settings)),
    'sales/addEvalCase': (input) =>
      addEvalCase(deps.dbs.app, input, evalCaseOptions(deps.settings)),
  };
}
