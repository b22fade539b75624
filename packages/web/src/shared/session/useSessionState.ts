import { useSyncExternalStore } from 'react';
import { sessionStore, type SessionState } from '../../api/sessionStore';

export function useSessionState(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getState, sessionStore.getState);
}
