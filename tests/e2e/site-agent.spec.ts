/** The agent profile at /agent/<id>: figures from the database, market comparison with attribution, sales, states. */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { formatDate, formatDays, formatPercent, formatUsd } from '../../src/lib/format.ts';
import { agentRow, createAgents, makeSales, unusedZip } from './agent-fixtures.ts';
import { sql } from './support.ts';
import { waitForIsland } from './site-support.ts';

const suffix = Date.now().toString(36);
let zip = '';
let fixture: Awaited<ReturnType<typeof createAgents>>;
const sales = makeSales('Profile', 12);

test.beforeAll(async () => {
  zip = await unusedZip();
  fixture = await createAgents(zip, [
    { name: `Priya Ranked ${suffix}`, rating: 4.7, reviewCount: 31, mlsId: `DEMO-E2E-${suffix}`, sales },
    { name: `Sam Newcomer ${suffix}`, rating: null, phone: null, email: null, sales: makeSales('Newcomer', 2) },
  ]);
  await sql(
    `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, avg_sale_to_list_fraction, median_dom, homes_sold)
     values ($1, 'Fixtureville', 'MA', '2026-09-30', 655000, 1.0125, 23, 41)`,
    [zip],
  );
});

test.afterAll(async () => {
  await fixture.remove();
  await sql(`delete from public.zip_market_benchmarks where zip_code = $1`, [zip]);
});

test('the header, metric cards and details show the stored figures', async ({ page }) => {
  const agent = fixture.agents[0]!;
  const row = await agentRow(agent.id);
  await page.goto(`/agent/${agent.id}`);
  await waitForIsland(page, 'AgentProfilePage');

  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${agent.name}`));
  await expect(page.getByText('Fixture Realty', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Rated 4.7 out of 5' })).toBeVisible();
  await expect(page.locator('svg[data-filled="true"]')).toHaveCount(4);
  await expect(page.getByText('4.7 (31 reviews)')).toBeVisible();
  await expect(page.locator('main').getByText('Agent data shown in this demo is fictional.')).toBeVisible();

  const windowText = `${formatDate(row.window_start as string)} – ${formatDate(row.window_end as string)}`;
  const saleToList = page.getByRole('listitem', { name: 'Sale-to-list price' });
  await expect(saleToList).toContainText(formatPercent(row.avg_ratio as number));
  await expect(saleToList).toContainText(`n = ${row.sale_to_list_sample_size} closed sales · ${windowText}`);
  const dom = page.getByRole('listitem', { name: 'Days on market' });
  await expect(dom).toContainText(formatDays(row.avg_dom as number));
  await expect(dom).toContainText(`n = ${row.days_on_market_sample_size} closed sales`);
  const total = page.getByRole('listitem', { name: 'Total sales' });
  await expect(total).toContainText('12');
  const share = page.getByRole('listitem', { name: 'Market share' });
  await expect(share).toContainText(formatPercent(row.share as number));
  await expect(share).toContainText(`Ranked #${row.local_ranking} of ${row.total_agents_in_area} agents in ${zip}`);
  expect(row.local_ranking).toBe(1);
  expect(row.total_agents_in_area).toBe(2);

  const details = page.getByRole('complementary', { name: 'Agent details' });
  await expect(details).toContainText('MA-123456');
  await expect(details).toContainText('12 years');
  await expect(details).toContainText(zip);
  await expect(details.getByRole('link', { name: '(617) 555-0101' })).toHaveAttribute('href', 'tel:6175550101');
  await expect(details.getByRole('link', { name: 'agent@example.com' })).toHaveAttribute('href', 'mailto:agent@example.com');
});

test('the market comparison shows the ZIP benchmark with its Redfin attribution', async ({ page }) => {
  const agent = fixture.agents[0]!;
  const row = await agentRow(agent.id);
  await page.goto(`/agent/${agent.id}`);
  const market = page.getByRole('region', { name: new RegExp(`Compared with the market in ${zip}`) });
  await expect(market.getByRole('row', { name: /Sale price/ })).toContainText('$655,000');
  await expect(market.getByRole('row', { name: /Average sale-to-list/ })).toContainText(`${formatPercent(row.avg_ratio as number)}101.3%`);
  await expect(market.getByRole('row', { name: /Median days on market/ })).toContainText(`${formatDays(row.median_dom as number)}23 days`);
  await expect(market).toContainText('Source: Redfin, a national real estate brokerage (redfin.com/news/data-center)');
  await expect(market).toContainText('41 homes sold');
});

test('recent sales: ten, newest first, ratio green at or above list and red below', async ({ page }) => {
  const agent = fixture.agents[0]!;
  await page.goto(`/agent/${agent.id}`);
  const table = page.getByRole('table', { name: /most recent closed sales/ });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(10);
  // makeSales numbers them newest first; the two oldest are left out
  for (let index = 0; index < 10; index += 1) {
    const sale = sales[index]!;
    const row = rows.nth(index);
    await expect(row.getByRole('rowheader')).toHaveText(sale.address);
    await expect(row).toContainText(formatUsd(sale.listPrice));
    await expect(row).toContainText(formatUsd(sale.salePrice));
    const ratio = row.locator('td[data-tone]');
    await expect(ratio).toHaveText(formatPercent((sale.salePrice / sale.listPrice) * 100));
    await expect(ratio).toHaveAttribute('data-tone', sale.salePrice >= sale.listPrice ? 'above' : 'below');
    await expect(ratio).toHaveClass(sale.salePrice >= sale.listPrice ? /text-green-800/ : /text-red-800/);
  }
  await expect(table).not.toContainText(sales[10]!.address);
});

test('an agent without a ranking shows the ranking note, initials and no demo line', async ({ page }) => {
  const agent = fixture.agents[1]!;
  await page.goto(`/agent/${agent.id}`);
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Market share' })).toContainText('Fewer than 5 closed sales in the window');
  await expect(page.getByText('No rating yet')).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Agent details' })).toContainText('Not on file');
  await expect(page.locator('main').getByText('Agent data shown in this demo is fictional.')).toHaveCount(0);
});

test('Share copies the profile link and confirms with a toast', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const agent = fixture.agents[0]!;
  await page.goto(`/agent/${agent.id}`);
  await waitForIsland(page, 'AgentProfilePage');
  await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined }));
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/agent/${agent.id}`);
});

test('an unknown or malformed id shows not found', async ({ page }) => {
  await page.goto('/agent/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible();
  await page.goto('/agent/not-a-uuid');
  await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Search Agents' }).last()).toHaveAttribute('href', '/search');
});

test('a failed load shows the error and Try Again recovers', async ({ page }) => {
  const agent = fixture.agents[0]!;
  let fail = true;
  await page.route('**/rest/v1/agents?**', (route) => (fail ? route.fulfill({ status: 500, json: { message: 'boom' } }) : route.fallback()));
  await page.goto(`/agent/${agent.id}`);
  await expect(page.getByText('Failed to load agent profile. Please try again.')).toBeVisible();
  fail = false;
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible();
});

test('the profile shows a loading state first', async ({ page }) => {
  const agent = fixture.agents[0]!;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/rest/v1/agents?**', async (route) => {
    await gate;
    await route.fallback();
  });
  await page.goto(`/agent/${agent.id}`);
  await expect(page.getByRole('status').filter({ hasText: 'Loading agent profile' })).toBeAttached();
  release();
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible();
});

test('a loaded profile and its open report dialog have no serious accessibility violations', async ({ page }) => {
  const agent = fixture.agents[0]!;
  await page.goto(`/agent/${agent.id}`);
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible();
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(await serious()).toEqual([]);
  await page.getByRole('button', { name: 'Get Report' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await serious()).toEqual([]);
});
