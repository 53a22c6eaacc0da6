import { chromium } from 'playwright'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' })
for (const width of [390, 1280]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  await page.goto('http://127.0.0.1:4599/')
  await page.waitForTimeout(800)
  const src = await page.locator('picture img').evaluate((img) => img.currentSrc)
  console.log(width, src)
  await page.screenshot({ path: `/tmp/home-${width}.png` })
  await page.close()
}
await browser.close()
