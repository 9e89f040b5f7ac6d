/** Claude access for services: client factory, the validation-feedback tool loop, usage/cost. */
export {
  createClaudeClient,
  requireApiKey,
  NO_API_KEY_MESSAGE,
  type ClientOverrides,
} from './client';
export { mapAnthropicError } from './errors';
export {
  runToolLoop,
  ToolLoopError,
  cachedSystem,
  toolDefinition,
  feedbackMessage,
  type ToolSpec,
  type Validation,
  type ToolAttempt,
  type ToolLoopResult,
  type ToolLoopOptions,
} from './tool-loop';
export { toUso, sumUso, estimateCostUsd, ZERO_USO } from './usage';
export { toolInputSchema, type ToolInputSchema } from '@shared/tool-schema';
