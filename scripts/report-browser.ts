/**
 * Headless Chromium for looking at report.html (the screenshot script and the browser test):
 * Debian's /usr/bin/chromium (or $CHROMIUM), a fresh profile, and every request that is not
 * the report file itself refused and recorded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface ReportBrowser {
  page: Page;
  /** URLs of every request refused (anything but file: URLs). */
  blocked: string[];
  close: () => Promise<void>;
}

export async function launchReportBrowser(): Promise<ReportBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "gatebench-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1300, height: 900 },
  });
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    blocked,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
