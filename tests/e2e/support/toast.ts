import type { Page } from '@playwright/test';

/** A toast (React Aria renders each as an alertdialog in the toast region) saying `text`. */
export function toast(page: Page, text: string | RegExp) {
  return page.getByRole('alertdialog').filter({ hasText: text });
}
