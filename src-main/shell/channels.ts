/** IPC channel names used by main and preload for events pushed main → renderer. */
export const EVENT_CHANNEL_PREFIX = 'balcao:event:';

export function eventChannel(event: string): string {
  return EVENT_CHANNEL_PREFIX + event;
}
