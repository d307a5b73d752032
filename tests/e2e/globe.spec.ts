import { expect, test } from '@playwright/test';

test.describe('globe view', () => {
  test('a deep link opens the view it names, shown by the camera indicator', async ({ page }) => {
    await page.goto('/#/?ra=150.1163&dec=2.2058&fov=0.5');
    await expect(page).toHaveURL(/#\/login$/);
    const indicator = page.getByTestId('camera-indicator');
    await expect(indicator).toContainText('10h 00m 27.9s');
    await expect(indicator).toContainText('+02° 12′ 21″');
    await expect(page.getByTestId('camera-fov')).toHaveText('30.0′');
  });

  test('the keyboard zooms and pans the globe', async ({ page }) => {
    await page.goto('/#/login');
    const canvas = page.getByTestId('globe-canvas');
    await expect(page.getByTestId('camera-fov')).toHaveText('45.0°');
    await canvas.focus();
    await page.keyboard.press('+');
    await expect(page.getByTestId('camera-fov')).toHaveText('36.0°');
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await expect(page.getByTestId('camera-fov')).toHaveText('56.3°');
    const before = await page.getByTestId('camera-indicator').textContent();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByTestId('camera-indicator')).not.toHaveText(before ?? '');
  });

  test('the wheel zooms in and drag rotates', async ({ page }) => {
    await page.goto('/#/login');
    const box = (await page.getByTestId('globe-canvas').boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + 40);
    await page.mouse.wheel(0, -400);
    await expect(page.getByTestId('camera-fov')).not.toHaveText('45.0°');
    const before = await page.getByTestId('camera-indicator').textContent();
    await page.mouse.down();
    await page.mouse.move(box.x + 140, box.y + 90, { steps: 5 });
    await page.mouse.up();
    await expect(page.getByTestId('camera-indicator')).not.toHaveText(before ?? '');
  });
});
