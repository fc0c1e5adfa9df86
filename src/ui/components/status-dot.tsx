import { useTranslation } from 'react-i18next';
import * as styles from './badge.css';
import type { Tone } from './badge';
import { cx } from './class-names';

export interface StatusDotProps {
  /** The visible text of the state (translated). Required: the dot alone means nothing. */
  label: string;
  tone: Tone;
  /** Dot shape: `on` filled, `pending` dashed ring, `off` hollow — a second cue besides colour. */
  shape?: keyof typeof styles.dotShape;
  /** Announce changes (a polite `status` region): for the socket state, not for table rows. */
  live?: boolean;
  className?: string;
  /** Class of the text (e.g. to hide it visually on narrow toolbars while screen readers still read it). */
  labelClassName?: string;
}

/** A coloured, shaped dot plus its text. */
export function StatusDot({ label, tone, shape = 'on', live, className, labelClassName }: StatusDotProps) {
  return (
    <span className={cx(styles.status, className)} role={live ? 'status' : undefined}>
      <span className={cx(styles.dot, styles.dotShape[shape], styles.dotTone[tone])} aria-hidden="true" />
      <span className={labelClassName}>{label}</span>
    </span>
  );
}

/** States of the real-time socket (contracts/socket.md §4). */
export type ConnectionState = 'connected' | 'connecting' | 'disconnected';

const CONNECTION = {
  connected: { tone: 'success', shape: 'on' },
  connecting: { tone: 'warning', shape: 'pending' },
  disconnected: { tone: 'danger', shape: 'off' },
} as const;

/** The socket's state for the navbar: "Conectado" / "Conectando…" / "Desconectado", announced on change. */
export function ConnectionStatus({
  state,
  className,
  labelClassName,
}: {
  state: ConnectionState;
  className?: string;
  labelClassName?: string;
}) {
  const { t } = useTranslation();
  const { tone, shape } = CONNECTION[state];
  return (
    <StatusDot
      live
      label={t(`shell.connection.${state}`)}
      tone={tone}
      shape={shape}
      className={className}
      labelClassName={labelClassName}
    />
  );
}

/** A user's presence (`isConnected`) in lists: "Online" / "Offline". */
export function PresenceStatus({ isConnected, className }: { isConnected: boolean; className?: string }) {
  const { t } = useTranslation();
  return (
    <Presence
      isConnected={isConnected}
      labels={{ online: t('ui.presence.online'), offline: t('ui.presence.offline') }}
      className={className}
    />
  );
}

/**
 * {@link PresenceStatus} with its two labels translated once by the caller: for the cells of long
 * virtualized lists, which mount rows while scrolling and should not translate (or subscribe to
 * i18next) once per row.
 */
export function Presence({
  isConnected,
  labels,
  className,
}: {
  isConnected: boolean;
  labels: { online: string; offline: string };
  className?: string;
}) {
  return isConnected ? (
    <StatusDot label={labels.online} tone="success" shape="on" className={className} />
  ) : (
    <StatusDot label={labels.offline} tone="neutral" shape="off" className={className} />
  );
}
