/**
 * CRM (/admin/crm): counters, search by name / email / agent / location, the status filter, Lead Details ('Not
 * provided', Returning vs New), status and notes writes (toasts, stored rows, no local change when the write
 * fails) and the CSV export of the filtered rows (RFC 4180 quoting, formula neutralization). Each test run seeds
 * its own leads, marked with a unique stamp, and removes them.
 */
import type { Page, Route } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import fs from 'node:fs';
import { expect, signInAsAdmin, sql, test } from './support.ts';

// created dates below are shown in this zone ('Mar 5, 2026 9:30 AM' for 14:30 UTC)
test.use({ timezoneId: 'America/New_York' });

const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const evilName = `=HYPERLINK("http://evil.test","x"), ${stamp}`;
const alice = `Alice ${stamp}`;
const bob = `Bob ${stamp}`;
const dana = `Dana ${stamp}`;
// the write test works on its own lead, outside the stamp the other tests count
const writeMarker = `w${Math.floor(Math.random() * 1e9).toString(36)}${Date.now().toString(36)}`;
const erin = `Erin ${writeMarker}`;
const erinEmail = `erin-${writeMarker}@example.com`;
let adminEmail: string;

test.beforeAll(async ({ adminEmail: email }) => {
  adminEmail = email;
  await sql(
    `insert into public.report_requests
       (full_name, email, phone, property_address, agent_name, agent_location, status, notes, created_at, contacted_at)
     values
       ($1, $5, '555-0101', '12 Oak St', $6, $7, 'pending', null, '2026-03-05T14:30:00Z', null),
       ($2, $8, null, null, null, null, 'contacted', null, '2026-03-01T10:00:00Z', '2026-03-01T13:05:00Z'),
       ($2, $8, null, null, null, null, 'closed', null, '2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z'),
       ($3, $9, '+1 555 0199', null, 'Agent Quote', 'Austin, TX', 'qualified', 'Said "call me"', '2026-03-03T10:00:00Z', '2026-03-03T12:00:00Z'),
       ($4, $10, null, null, null, null, 'closed', null, '2026-03-04T10:00:00Z', '2026-03-04T10:30:00Z')`,
    [
      alice,
      bob,
      evilName,
      dana,
      `alice-${stamp}@example.com`,
      `Agent Zed ${stamp}`,
      `Springfield ${stamp}, IL`,
      `bob-${stamp}@example.com`,
      `evil-${stamp}@example.com`,
      `dana-${stamp}@example.com`,
    ],
  );
});

test.afterAll(async () => {
  await sql(`delete from public.report_requests where email like $1 or email = $2`, [`%-${stamp}@example.com`, erinEmail]);
});

async function openCrm(page: Page) {
  await signInAsAdmin(page, adminEmail);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'CRM', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/crm$/);
  await expect(page.getByRole('heading', { name: 'CRM Dashboard' })).toBeVisible();
  await expect(page.getByText('Manage leads and report requests')).toBeVisible();
}

const search = (page: Page) => page.getByRole('searchbox', { name: 'Search leads' });
const leadRows = (page: Page) => page.getByRole('row').filter({ hasText: stamp });
// the table behind the open (modal) dialog is aria-hidden, so it is found by markup rather than by role
const tableRow = (page: Page, name: string) => page.locator('tbody tr').filter({ hasText: name });
const toast = (page: Page, title: string) => page.getByRole('status').getByText(title, { exact: true });

async function rowNames(page: Page): Promise<string[]> {
  return (await leadRows(page).locator('td:first-child').allTextContents()).sort();
}

test('counters match the stored leads; search and the status filter narrow the table', async ({ page }) => {
  await openCrm(page);
  await expect(leadRows(page).first()).toBeVisible();
  const [counts] = await sql<{ total: number; pending: number; contacted: number; closed: number }>(
    `select count(*)::int as total, count(*) filter (where status = 'pending')::int as pending,
            count(*) filter (where status in ('contacted', 'qualified'))::int as contacted,
            count(*) filter (where status = 'closed')::int as closed
       from public.report_requests`,
  );
  const counters = page.getByRole('group', { name: 'Lead counters' });
  await expect(counters.getByLabel(`Total Leads: ${counts!.total}`)).toBeVisible();
  await expect(counters.getByLabel(`New / Pending: ${counts!.pending}`)).toBeVisible();
  await expect(counters.getByLabel(`Contacted: ${counts!.contacted}`)).toBeVisible();
  await expect(counters.getByLabel(`Converted / Closed: ${counts!.closed}`)).toBeVisible();

  await search(page).fill(stamp);
  await expect(leadRows(page)).toHaveCount(5);
  // by name, email (any case), agent name and agent location
  await search(page).fill(alice.toUpperCase());
  await expect.poll(() => rowNames(page)).toEqual([alice]);
  await search(page).fill(`BOB-${stamp}@EXAMPLE.COM`);
  await expect.poll(() => rowNames(page)).toEqual([bob, bob]);
  await search(page).fill(`agent zed ${stamp}`);
  await expect.poll(() => rowNames(page)).toEqual([alice]);
  await search(page).fill(`Springfield ${stamp}`);
  await expect.poll(() => rowNames(page)).toEqual([alice]);

  const aliceRow = leadRows(page).first();
  await expect(aliceRow).toContainText(`alice-${stamp}@example.com`);
  await expect(aliceRow).toContainText(`Agent Zed ${stamp}`);
  await expect(aliceRow).toContainText('Pending');
  await expect(aliceRow).toContainText('Mar 5, 2026 9:30 AM');

  await search(page).fill(stamp);
  const status = page.getByRole('combobox', { name: 'Filter by status' });
  await status.selectOption({ label: 'Closed' });
  await expect.poll(() => rowNames(page)).toEqual([bob, dana]);
  await status.selectOption({ label: 'Qualified' });
  await expect.poll(() => rowNames(page)).toEqual([evilName]);
  await expect(leadRows(page)).toContainText('2h 0m'); // waited created → first contact
  await status.selectOption({ label: 'All Statuses' });
  await expect(leadRows(page)).toHaveCount(5);

  await search(page).fill(`nobody-${stamp}-x`);
  await expect(page.getByText('No leads found')).toBeVisible();
});

test('Lead Details shows every field, Not provided and Returning / New', async ({ page }) => {
  await openCrm(page);
  await search(page).fill(`bob-${stamp}`);
  await expect(leadRows(page)).toHaveCount(2);
  await page.getByRole('button', { name: `View details for ${bob}` }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Lead Details' });
  await expect(dialog).toBeVisible();
  const field = (label: string) => dialog.locator('div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
  await expect(field('Name')).toHaveText(bob);
  await expect(field('Email')).toHaveText(`bob-${stamp}@example.com`);
  for (const label of ['Phone', 'Property Address', 'Agent', 'Agent Location']) await expect(field(label)).toHaveText('Not provided');
  await expect(field('Customer Type')).toHaveText('Returning');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await search(page).fill(alice);
  await page.getByRole('button', { name: `View details for ${alice}` }).click();
  await expect(field('Customer Type')).toHaveText('New');
  await expect(field('Phone')).toHaveText('555-0101');
  await expect(field('Property Address')).toHaveText('12 Oak St');
  await expect(field('Agent Location')).toHaveText(`Springfield ${stamp}, IL`);
  await expect(dialog.getByLabel('Status')).toHaveValue('pending');
});

test('status and notes are written, toasted and shown only when the write succeeded', async ({ page }) => {
  await sql(`insert into public.report_requests (full_name, email) values ($1, $2)`, [erin, erinEmail]);
  await openCrm(page);
  await search(page).fill(erin);
  await page.getByRole('button', { name: `View details for ${erin}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Lead Details' });

  // a refused write leaves the row as it was
  await page.route('**/rest/v1/report_requests*', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'database unavailable' }) })
      : route.fallback(),
  );
  await dialog.getByLabel('Status').selectOption('contacted');
  await expect(toast(page, 'Status Not Updated')).toBeVisible();
  await expect(dialog.getByLabel('Status')).toHaveValue('pending');
  await expect(tableRow(page, erin)).toContainText('Pending');
  await page.unroute('**/rest/v1/report_requests*');

  await dialog.getByLabel('Status').selectOption('contacted');
  await expect(toast(page, 'Status Updated')).toBeVisible();
  await expect(dialog.getByLabel('Status')).toHaveValue('contacted');
  await expect(tableRow(page, erin)).toContainText('Contacted');
  const [afterStatus] = await sql<{ status: string; contacted_at: Date | null }>(
    `select status, contacted_at from public.report_requests where email = $1`,
    [erinEmail],
  );
  expect(afterStatus!.status).toBe('contacted');
  expect(afterStatus!.contacted_at).not.toBeNull();

  const notes = dialog.getByLabel('Notes');
  const failPatch = (route: Route) =>
    route.request().method() === 'PATCH' ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }) : route.fallback();
  await page.route('**/rest/v1/report_requests*', failPatch);
  await notes.fill('Prefers email, "after 5pm", =not a formula');
  await notes.blur();
  await expect(toast(page, 'Notes Not Saved')).toBeVisible();
  expect((await sql<{ notes: string | null }>(`select notes from public.report_requests where email = $1`, [erinEmail]))[0]!.notes).toBeNull();
  await page.unroute('**/rest/v1/report_requests*', failPatch);
  // the typed text is kept; leaving the field again retries
  await notes.focus();
  await notes.blur();
  await expect(toast(page, 'Notes Saved')).toBeVisible();
  const [afterNotes] = await sql<{ notes: string | null }>(`select notes from public.report_requests where email = $1`, [
    erinEmail,
  ]);
  expect(afterNotes!.notes).toBe('Prefers email, "after 5pm", =not a formula');

  // reopening shows what was stored
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: `View details for ${erin}` }).click();
  await expect(dialog.getByLabel('Notes')).toHaveValue('Prefers email, "after 5pm", =not a formula');
});

test('Export CSV downloads the filtered rows with RFC 4180 quoting and neutralized formulas', async ({ page }) => {
  await openCrm(page);
  await search(page).fill(stamp);
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label: 'Qualified' });
  await expect.poll(() => rowNames(page)).toEqual([evilName]);
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label: 'All Statuses' });
  await expect(leadRows(page)).toHaveCount(5);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^leads-export-\d{4}-\d{2}-\d{2}\.csv$/);
  const content = fs.readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');

  expect(content.startsWith('Name,Email,Phone,Property Address,Agent,Agent Location,Status,Notes,Created\r\n')).toBe(true);
  expect(content).toContain(`"'=HYPERLINK(""http://evil.test"",""x""), ${stamp}"`);
  const [header, ...rows] = parse(content) as string[][];
  expect(header).toEqual(['Name', 'Email', 'Phone', 'Property Address', 'Agent', 'Agent Location', 'Status', 'Notes', 'Created']);
  expect(rows).toHaveLength(5);
  const byEmail = new Map(rows.map((row) => [row[1], row]));
  expect(byEmail.get(`evil-${stamp}@example.com`)).toEqual([
    `'${evilName}`,
    `evil-${stamp}@example.com`,
    "'+1 555 0199",
    '',
    'Agent Quote',
    'Austin, TX',
    'Qualified',
    'Said "call me"',
    '2026-03-03 05:00',
  ]);
  expect(byEmail.get(`alice-${stamp}@example.com`)?.[8]).toBe('2026-03-05 09:30');
  expect(byEmail.get(`dana-${stamp}@example.com`)?.slice(0, 7)).toEqual([dana, `dana-${stamp}@example.com`, '', '', '', '', 'Closed']);

  // only the filtered rows are exported
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label: 'Closed' });
  await expect(leadRows(page)).toHaveCount(2);
  const [closedDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const closed = parse(fs.readFileSync((await closedDownload.path())!, 'utf8').replace(/^\ufeff/, '')) as string[][];
  expect(closed.slice(1).map((row) => row[0]).sort()).toEqual([bob, dana]);
});
