import { Text } from 'react-aria-components/Text';
import {
  UNSTABLE_Toast as RACToast,
  UNSTABLE_ToastContent as RACToastContent,
  UNSTABLE_ToastQueue as RACToastQueue,
  UNSTABLE_ToastRegion as RACToastRegion,
} from 'react-aria-components/Toast';
import { useTranslation } from 'react-i18next';
import { Button, IconButton } from './button';
import { InTopDialogLayer } from './dialog-portal';
import { AlertIcon, CloseIcon, InfoIcon, SuccessIcon } from './icons';
import * as styles from './toast.css';
import { appToasts, type ToastContent, type ToastQueue } from './toast-queue';
import { VisuallyHidden } from './visually-hidden';

const ICONS = { success: SuccessIcon, error: AlertIcon, info: InfoIcon } as const;

/** React Aria's queue behind an app queue, created (and attached) when a region first renders it. */
function realQueue(queue: ToastQueue): RACToastQueue<ToastContent> {
  const attached = queue.attached;
  if (attached instanceof RACToastQueue) return attached as RACToastQueue<ToastContent>;
  const real = new RACToastQueue<ToastContent>({ maxVisibleToasts: 5 });
  queue.attach(real);
  return real;
}

/**
 * The landmark region where toasts appear (RAC `ToastRegion`): F6 jumps to it, each toast is
 * announced, carries an icon plus a spoken variant word ("Sucesso", "Erro": never colour alone)
 * and a named dismiss button. Render once, near the root. While a Modal is open the region is in
 * its layer (dialog-portal.tsx), above the dialog, as React Aria kept it above its own modals.
 */
export function ToastRegion({ queue = appToasts }: { queue?: ToastQueue }) {
  const { t } = useTranslation();
  const real = realQueue(queue);
  return (
    <InTopDialogLayer>
      <RACToastRegion queue={real} aria-label={t('ui.toast.region')} className={styles.region}>
        {({ toast }) => {
          const { variant, title, description, action } = toast.content;
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
              {action ? (
                <Button
                  variant="secondary"
                  size="sm"
                  onPress={() => {
                    real.close(toast.key);
                    action.onAction();
                  }}
                >
                  {action.label}
                </Button>
              ) : null}
              <IconButton
                label={t('ui.toast.dismiss')}
                icon={<CloseIcon />}
                size="sm"
                onPress={() => real.close(toast.key)}
              />
            </RACToast>
          );
        }}
      </RACToastRegion>
    </InTopDialogLayer>
  );
}
