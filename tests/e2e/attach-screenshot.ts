// A screenshot of the page kept in the test's output folder and attached to its report.
import { test, type Page } from '@playwright/test';

export async function attachScreenshot(page: Page, name: string): Promise<void> {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}
