import type { Page } from '@playwright/test';
import { tenantPath, holdScripts } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/**
 * An attack on the prerendered login page another visitor's state drops (src/app/mount-app.tsx): it stays on
 * screen, inert, until the app's first commit. An English, dark visitor whose look cookie is gone: while inert the old form takes no focus,
 * after the commit the container takes input, the e-mail field has the focus and `<html>` holds the dark theme's
 * class alone.
 */
test.describe('a prerendered login page the visitor state replaces', () => {
  async function englishDark(page: Page, origin: string) {
    await page.goto(`${origin}${tenantPath('/login')}`);
    await page.getByRole('combobox', { name: t('shell.language') }).selectOption('en');
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    // The page the server sends follows the look cookie (src/domain/look-cookie.ts): without it (cleared, or
    // never written: another browser profile's storage), the pt-BR light page comes and must be replaced.
    await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'panel_look')).toBe(true);
    await page.context().clearCookies({ name: 'panel_look' });
  }

  test('is inert while the app renders, then the e-mail field has the focus and only the dark class is on <html>', async ({
    page,
    app,
  }) => {
    await englishDark(page, app.origin);
    await page.addInitScript(() => {
      const seen: Record<string, unknown>[] = [];
      (window as unknown as { inertSeen: typeof seen }).inertSeen = seen;
      new MutationObserver(() => {
        const root = document.getElementById('root');
        if (!root?.inert || seen.length > 0) return;
        const email = root.querySelector<HTMLInputElement>('input[name="email"]');
        // The prerendered field may hold the focus its `autofocus` gave at parse time; taken away and asked
        // again, an inert field refuses it.
        email?.blur();
        email?.focus();
        seen.push({
          h1: root.querySelector('h1')?.textContent ?? null,
          focused: document.activeElement === email,
          classes: [...document.documentElement.classList],
        });
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['inert'] });
    });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to the panel');
    const seen = await page.evaluate(() => (window as unknown as { inertSeen: Record<string, unknown>[] }).inertSeen);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ h1: t('auth.login.title'), focused: false });
    const prerenderedClasses = seen[0]?.classes as string[];
    expect(prerenderedClasses).toHaveLength(1);
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toBeFocused();
    const classes = await page.evaluate(() => [...document.documentElement.classList]);
    expect(classes).toHaveLength(1);
    expect(classes).not.toEqual(prerenderedClasses);
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
  });

  // What was typed there is not carried over (the new field is empty): reported, not fixed here.
  test('focused and typed into before the script ran: the focus ends on the new e-mail field', async ({
    page,
    app,
  }) => {
    await englishDark(page, app.origin);
    const release = await holdScripts(page);
    await page.reload({ waitUntil: 'commit' });
    const old = page.getByRole('textbox', { name: t('auth.login.email'), exact: true });
    await old.click();
    await page.keyboard.type('admin@');
    release();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to the panel');
    const email = page.getByRole('textbox', { name: 'Email', exact: true });
    await expect(email).toBeFocused();
  });
});
