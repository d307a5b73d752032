import { expect, test } from '@playwright/test';

test.describe('access gate', () => {
  test('a visitor with no session is sent to the login screen, drawn over a WebGL globe', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/');
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('heading', { name: 'Galaxy Cruise' })).toBeVisible();
    await expect(page.getByLabel('E-mail')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();

    const canvas = page.getByTestId('globe-canvas');
    await expect(canvas).toBeVisible();
    // The grid and the stars are drawn with WebGL: a screenshot of the canvas (what a person
    // sees) must hold more than one colour. The PNG is decoded by the browser's own decoder.
    await expect
      .poll(async () => {
        const png = (await canvas.screenshot()).toString('base64');
        return page.evaluate(async (data) => {
          const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
          const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
          const seen = new Set<number>();
          for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
          return seen.size;
        }, png);
      })
      .toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });

  test('the language switch shows the login screen in Japanese', async ({ page }) => {
    await page.goto('/#/login');
    await page.getByLabel('Language').selectOption('ja');
    await expect(page.getByLabel('メールアドレス')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  });
});
