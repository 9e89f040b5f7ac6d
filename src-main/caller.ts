import type { EventName, Events } from '@shared/contract';

/**
 * Who is calling a service: one per window (or per CLI run, or test-bridge page). Defined here,
 * with the services, so they never depend on the IPC layer; the IPC layer's `CallContext` is
 * this type.
 */
export interface Caller {
  /** Stable id of the window/session; per-window state (chosen merchant) is keyed by it. */
  sessionId: string;
  /** Push an event to this caller's renderer. */
  emit<E extends EventName>(event: E, payload: Events[E]): void;
  /** Aborted when the window closes (or the request is cancelled by the service). */
  signal?: AbortSignal;
}
