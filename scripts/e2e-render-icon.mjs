// Renders media/icon.svg to media/icon.png (128x128) with the system Chromium via playwright-core.
// usage: node scripts/e2e-render-icon.mjs   (only needed when the SVG changes; the PNG is committed)
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const svg = readFileSync(new URL("../media/icon.svg", import.meta.url), "utf8");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator("svg").screenshot({ path: new URL("../media/icon.png", import.meta.url).pathname, omitBackground: true });
} finally {
  await browser.close();
}
