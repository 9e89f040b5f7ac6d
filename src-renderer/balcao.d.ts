import type { BalcaoApi } from '@shared/contract';

declare global {
  interface Window {
    /** Exposed by the preload (Electron) or by the test bridge client (browser tests). */
    readonly balcao: BalcaoApi;
  }
}

export {};
