import { Text } from 'react-aria-components/Text';
import {
  UNSTABLE_Toast as RACToast,
  UNSTABLE_ToastContent as RACToastContent,
  UNSTABLE_ToastQueue as RACToastQueue,
  UNSTABLE_ToastRegion as RACToastRegion,
} from 'react-aria-components/Toast';
import { useTranslation } from 'react-i18next';
import { IconButton } from './button';
import { AlertIcon, CloseIcon, InfoIcon, SuccessIcon } from './icons';
import * as styles from './toast.css';
import { VisuallyHidden } from './visually-hidden';

export type ToastVariant = 'success' | 'error' | 'info';

/** What a toast says; texts are translated by the caller. */
export interface ToastContent {
  variant: ToastVariant;
  title: string;
  description?: string;
}

/** A queue of toasts; the shell owns one and renders its `ToastRegion`. */
export type ToastQueue = RACToastQueue<ToastContent>;

/** Creates a queue (tests and storybook-like pages make their own; the app uses {@link appToasts}). */
export function createToastQueue(): ToastQueue {
  return new RACToastQueue<ToastContent>({ maxVisibleToasts: 5 });
}

/** The app-wide queue: views call `showToast(appToasts, …)` when a machine reports an outcome. */
export const appToasts: ToastQueue = createToastQueue();

/**
 * Success and info close after 5 s (paused on hover/focus by React Aria); errors stay until
 * dismissed, so nobody misses one (WCAG 2.2.1).
 */
const DEFAULT_TIMEOUT: Record<ToastVariant, number | undefined> = { success: 5000, info: 5000, error: undefined };

/** Shows a toast; returns its key (for `queue.close(key)`). */
export function showToast(queue: ToastQueue, content: ToastContent, timeout = DEFAULT_TIMEOUT[content.variant]): string {
  return queue.add(content, { timeout });
}

const ICONS = { success: SuccessIcon, error: AlertIcon, info: InfoIcon } as const;

/**
 * The landmark region where toasts appear (RAC `ToastRegion`): F6 jumps to it, each toast is
 * announced, carries an icon plus a spoken variant word ("Sucesso", "Erro": never colour alone)
 * and a named dismiss button. Render once, near the root.
 */
export function ToastRegion({ queue = appToasts }: { queue?: ToastQueue }) {
  const { t } = useTranslation();
  return (
    <RACToastRegion queue={queue} aria-label={t('ui.toast.region')} className={styles.region}>
      {({ toast }) => {
        const { variant, title, description } = toast.content;
        const Icon = ICONS[variant];
        return (
          <RACToast toast={toast} className={`${styles.toast} ${styles.variant[variant]}`}>
            <Icon size={20} className={styles.icon[variant]} />
            <RACToastContent className={styles.content}>
              <Text slot="title" className={styles.title}>
                <VisuallyHidden>{`${t(`ui.toast.${variant}`)}:`}</VisuallyHidden> {title}
              </Text>
              {description ? (
                <Text slot="description" className={styles.description}>
                  {description}
                </Text>
              ) : null}
            </RACToastContent>
            <IconButton slot="close" label={t('ui.toast.dismiss')} icon={<CloseIcon />} size="sm" />
          </RACToast>
        );
      }}
    </RACToastRegion>
  );
}
