// The back office's Staff and Audit pages (issue 34), as an owner on a phone (390×844), each also photographed at a
// desk (1366×900) into /tmp/manage-shots/: the owner added from the command line adds a packer, who signs in; a
// refused add (an owner without a password) keeps what was typed; the packer's role changes, which ends their session;
// the owner removes them; the audit log lists each of these by the owner's name. Staff see neither page. axe on both.
import { expect, test } from '@playwright/test';
import { expectAccessible } from './orders-setup.ts';
import { addMember, addOwner, expectPrivate, shots, signInToManage } from './manage-setup.ts';

test.use({ viewport: { width: 390, height: 844 } });

/** A mobile number no other spec uses: the time and this process. */
const freshPhone = () => `8${String(Date.now() + process.pid * 13).slice(-9)}`;

test('an owner adds a packer, changes their role (their session ends), removes them, and reads it all in the audit log', async ({ page, browser, request }) => {
  const owner = await addOwner(request);
  await signInToManage(page, owner);

  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/manage\/staff$/);
  const opened = await page.reload();
  expectPrivate(opened);
  // By number: names repeat a serial ('Meera Owner 1' is in 'Meera Owner 12'), numbers are unique.
  await expect(page.locator('[data-member]').filter({ hasText: owner.phone })).toContainText('(you)');

  // An owner needs a password: refused, with what was typed still there.
  const packerPhone = freshPhone();
  await page.getByLabel('Name').fill('Sunil Packer');
  await page.getByLabel('Mobile number').fill(packerPhone);
  await page.getByRole('radio', { name: /^Owner/ }).check();
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('alert')).toContainText(/password/i);
  await expect(page.getByLabel('Name')).toHaveValue('Sunil Packer');
  await expect(page.getByLabel('Mobile number')).toHaveValue(packerPhone);

  await page.getByRole('radio', { name: /^Staff/ }).check();
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('status')).toHaveText('Sunil Packer was added: they sign in with their mobile number.');
  const row = page.locator('[data-member]').filter({ hasText: 'Sunil Packer' });
  await expect(row).toContainText(`${packerPhone} · Staff`);
  await expectAccessible(page);
  await shots(page, 'staff');

  // The packer signs in on their own phone and works the board; the Staff page is not theirs.
  const packerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const packer = await packerContext.newPage();
  await signInToManage(packer, { phone: packerPhone });
  await expect(packer.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Staff' })).toHaveCount(0);
  const refused = await packer.goto('/manage/staff');
  expect(refused?.status()).toBe(403);
  await expect(packer.getByRole('alert')).toBeVisible();

  // Made an editor: their session ends, and the next page asks them to sign in again.
  await row.getByText('Change or remove Sunil Packer').click();
  await row.getByLabel('Role').selectOption('editor');
  await row.getByRole('button', { name: 'Change Sunil Packer’s role' }).click();
  await expect(page.getByRole('status')).toContainText('Sunil Packer has a new role');
  await expect(page.locator('[data-member]').filter({ hasText: 'Sunil Packer' })).toContainText('· Editor');
  await packer.goto('/manage');
  await expect(packer).toHaveURL(/\/manage\/sign-in\?next=/);
  await packerContext.close();

  // Removal asks for the box to be ticked (the browser holds the form until it is).
  const editorRow = page.locator('[data-member]').filter({ hasText: 'Sunil Packer' });
  await editorRow.getByText('Change or remove Sunil Packer').click();
  await editorRow.getByRole('checkbox', { name: 'Sunil Packer can no longer sign in' }).check();
  await editorRow.getByRole('button', { name: 'Remove Sunil Packer' }).click();
  await expect(page.getByRole('status')).toHaveText('The member was removed: they can no longer sign in.');
  await expect(page.locator('[data-member]').filter({ hasText: 'Sunil Packer' })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Audit' }).click();
  const audit = await page.reload();
  expectPrivate(audit);
  const mine = page.locator('[data-audit]').filter({ hasText: `${owner.name} (owner)` });
  await expect(mine.filter({ hasText: 'POST /grocer/Staff' }).first()).toBeVisible();
  await expect(mine.filter({ hasText: 'PUT /grocer/Staff/{id}' }).first()).toBeVisible();
  await expect(mine.filter({ hasText: 'DELETE /grocer/Staff/{id}' }).first()).toBeVisible();
  await expectAccessible(page);
  await shots(page, 'audit');
});

test('staff are refused the audit log', async ({ page, request }) => {
  const staff = await addMember(request, 'staff');
  await signInToManage(page, staff);
  const refused = await page.goto('/manage/audit');
  expect(refused?.status()).toBe(403);
  expectPrivate(refused);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.locator('[data-audit]')).toHaveCount(0);
});
