import { createContext, useContext, type ReactNode } from 'react';
import { DEFAULT_TIME_ZONE } from '@shared/time';
import { useChannel, type ChannelState } from './useChannel';
import type { AppInfo } from '@shared/contract/app';

type AppInfoState = ChannelState<AppInfo> & { reload: () => void };

const Ctx = createContext<AppInfoState | null>(null);

/** `app/info` loaded once for the whole shell; reload after settings change. */
export function AppInfoProvider({ children }: { children: ReactNode }) {
  const info = useChannel('app/info', {});
  return <Ctx.Provider value={info}>{children}</Ctx.Provider>;
}

export function useAppInfo(): AppInfoState {
  const c = useContext(Ctx);
  if (!c) throw new Error('useAppInfo fora de AppInfoProvider');
  return c;
}

/** The business time zone (setting), for showing instants. */
export function useTimeZone(): string {
  return useAppInfo().data?.timeZone ?? DEFAULT_TIME_ZONE;
}
