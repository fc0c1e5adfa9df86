import type { TFunction } from 'i18next';
import { appToasts, showToast } from '../../../components/toast-queue';

/** Copies `text` and says so in a toast; when the browser refuses (no permission, no HTTPS) it says how to copy by hand. */
export async function copyText(text: string, t: TFunction): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast(appToasts, { variant: 'success', title: t('twoFactor.copied') });
  } catch {
    showToast(appToasts, { variant: 'error', title: t('twoFactor.copyFailed') });
  }
}

/** Offers `text` as a downloaded UTF-8 `.txt` file named `filename`. */
export function downloadText(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
