import { ConnectionStatus, type ConnectionState } from '../components/status-dot';
import type { SocketSnapshot } from '../../machines/realtime/socket.machine';
import { useSocket } from '../hooks/services-context';
import * as styles from './navbar.css';

/** The socket's state as the navbar shows it (colour, shape and text; announced politely). */
export function selectConnectionState(snapshot: SocketSnapshot): ConnectionState {
  if (snapshot.hasTag('open')) return 'connected';
  if (snapshot.hasTag('connecting') || snapshot.hasTag('reconnecting')) return 'connecting';
  return 'disconnected';
}

export function ConnectionIndicator() {
  const state = useSocket(selectConnectionState);
  return <ConnectionStatus state={state} labelClassName={styles.narrowHidden} />;
}
