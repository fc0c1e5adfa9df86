import { ConnectionStatus } from '../components/status-dot';
import { selectConnectionState } from '../../machines/realtime/socket-selectors';
import { useSocket } from '../hooks/services-context';
import * as styles from './navbar.css';

/** The socket's state as the navbar shows it (colour, shape and text; announced politely). */
export function ConnectionIndicator() {
  const state = useSocket(selectConnectionState);
  return <ConnectionStatus state={state} labelClassName={styles.narrowHidden} />;
}
