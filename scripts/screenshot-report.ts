/**
 * npx tsx scripts/screenshot-report.ts <report.html> <out.png> [--open]
 * A full-page screenshot of a report in headless Chromium (Debian's /usr/bin/chromium or
 * $CHROMIUM), with every network request refused. --open expands the first task and trial.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { launchReportBrowser } from "./report-browser.ts";

async function main(): Promise<number> {
  const [html, png, flag] = process.argv.slice(2);
  if (!html || !png || !existsSync(html)) {
    process.stderr.write("usage: npx tsx scripts/screenshot-report.ts <report.html> <out.png> [--open]\n");
    return 2;
  }
  const { page, blocked, close } = await launchReportBrowser();
  try {
    await page.goto(pathToFileURL(resolve(html)).href);
    if (flag === "--open") {
      await page.locator("details.task > summary").first().click();
      await page.locator("details.trial > summary").first().click();
    }
    await page.screenshot({ path: png, fullPage: true });
    process.stdout.write(`${png}${blocked.length ? ` (refused ${blocked.length} network requests)` : ""}\n`);
  } finally {
    await close();
  }
  return 0;
}

main().then(
  (c) => process.exit(c),
  (e) => {
    process.stderr.write(`screenshot-report: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
