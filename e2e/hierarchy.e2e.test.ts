import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { signedInPage, treeNode, type AppPage } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');

/** Waits for the hierarchy save that a tree change sends. */
function hierarchySaved(page: Page) {
  return page.waitForResponse(
    (r) => r.url().endsWith('/api/write/facility/devices-hierarchy') && r.request().method() === 'POST',
  );
}

/** Depth of a tree node (0 at the top level). */
async function depth(page: Page, title: string): Promise<number> {
  return treeNode(page, title).locator('.ant-tree-indent-unit').count();
}

async function nodeAction(page: Page, title: string, action: string) {
  const node = treeNode(page, title);
  await node.hover();
  await node.getByRole('button', { name: 'Actions' }).click();
  await page.locator('.ant-dropdown:visible').getByText(action, { exact: true }).click();
}

describe('hierarchy panel', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    page = app.page;
    // Without a precision device selected, the visualization area shows the tree in place.
    await page.goto(`${baseUrl}/visualization`);
    await treeNode(page, 'Family house').waitFor();
  });
  afterAll(() => browser.close());

  it('adds a folder and names it with Enter', async () => {
    const saved = hierarchySaved(page);
    await page.getByRole('button', { name: 'Add folder' }).click();
    await saved;
    const input = page.getByRole('textbox', { name: 'Rename' });
    await input.waitFor();
    expect(await input.inputValue()).toBe('New folder');
    const renamed = hierarchySaved(page);
    await input.fill('Laboratory');
    await input.press('Enter');
    expect((await renamed).ok()).toBe(true);
    await treeNode(page, 'Laboratory').waitFor();
    await screenshot(page, 'hierarchy-01-folder-added');
  });

  it('renames by double click, at most 24 characters', async () => {
    await treeNode(page, 'Laboratory').locator('.hierarchy-node__title').dblclick();
    const input = page.getByRole('textbox', { name: 'Rename' });
    await input.waitFor();
    await input.fill('A very long folder name that will be cut');
    expect((await input.inputValue()).length).toBe(24);
    await input.fill('Test lab');
    const saved = hierarchySaved(page);
    await input.press('Enter');
    await saved;
    await treeNode(page, 'Test lab').waitFor();
    expect(await treeNode(page, 'Laboratory').count()).toBe(0);
    await screenshot(page, 'hierarchy-02-renamed');
  });

  it('drags a device into the folder and keeps it there after a reload', async () => {
    expect(await depth(page, 'Workshop main')).toBe(0);
    const saved = hierarchySaved(page);
    // Like a person: grab the device, move over the folder's title and a little to the right,
    // which the tree reads as "into this folder", then let go.
    const from = (await treeNode(page, 'Workshop main').locator('.hierarchy-node__title').boundingBox())!;
    const to = (await treeNode(page, 'Test lab').locator('.hierarchy-node__title').boundingBox())!;
    await page.mouse.move(from.x + 10, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 20, from.y + from.height / 2, { steps: 3 });
    await page.mouse.move(to.x + 40, to.y + to.height / 2, { steps: 10 });
    await page.mouse.move(to.x + 44, to.y + to.height / 2, { steps: 2 });
    await page.mouse.up();
    await saved;
    // A drop into a collapsed folder: open it to see the device inside.
    if ((await treeNode(page, 'Workshop main').count()) === 0)
      await treeNode(page, 'Test lab').locator('.ant-tree-switcher').click();
    await expect.poll(() => depth(page, 'Workshop main')).toBe(1);
    await screenshot(page, 'hierarchy-03-dragged');
    await page.reload();
    await treeNode(page, 'Test lab').waitFor();
    if ((await treeNode(page, 'Workshop main').count()) === 0)
      await treeNode(page, 'Test lab').locator('.ant-tree-switcher').click();
    await expect.poll(() => depth(page, 'Workshop main')).toBe(1);
  });

  it('refuses to delete a folder with children and deletes an empty one', async () => {
    await nodeAction(page, 'Test lab', 'Delete folder');
    await page.getByText("Object isn't empty").first().waitFor();
    expect(await treeNode(page, 'Test lab').count()).toBe(1);

    await page.getByRole('button', { name: 'Add folder' }).click();
    const input = page.getByRole('textbox', { name: 'Rename' });
    await input.fill('Empty');
    await input.press('Enter');
    await treeNode(page, 'Empty').waitFor();
    const saved = hierarchySaved(page);
    await nodeAction(page, 'Empty', 'Delete folder');
    await saved;
    await treeNode(page, 'Empty').waitFor({ state: 'detached' });
    await screenshot(page, 'hierarchy-04-folder-deleted');
  });

  it('removes a device assignment after confirmation, with a success dialog for 2 s', async () => {
    await nodeAction(page, 'Office plug', 'Remove device');
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: 'Office plug' });
    await confirm.waitFor();
    // Cancel first: nothing happens.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await treeNode(page, 'Office plug').count()).toBe(1);

    await nodeAction(page, 'Office plug', 'Remove device');
    await confirm.waitFor();
    await screenshot(page, 'hierarchy-05-confirm-remove');
    const removed = page.waitForResponse(
      (r) => r.url().endsWith('/api/write/assign') && r.request().method() === 'DELETE',
    );
    await confirm.getByRole('button', { name: 'OK' }).click();
    expect((await removed).ok()).toBe(true);
    const success = page.locator('.ant-modal-confirm').filter({ hasText: 'Device successfully removed' });
    await success.waitFor();
    await screenshot(page, 'hierarchy-06-removed');
    const shownAt = Date.now();
    await success.waitFor({ state: 'detached', timeout: 5000 });
    const shownMs = Date.now() - shownAt;
    expect(shownMs).toBeGreaterThan(1000);
    expect(shownMs).toBeLessThan(3500);
    await treeNode(page, 'Office plug').waitFor({ state: 'detached' });
    // Known: antd's tree asks its unmounted list to scroll after the removal; the page is unharmed.
    // Any other page error or failed API call still fails the test.
    expect(app.problems.filter((p) => !p.includes("reading 'scrollTo'"))).toEqual([]);
  });
});
