import chromium from '@sparticuz/chromium';
import { Browser, chromium as playwright } from 'playwright-core';

/**
 * A real headless Chromium, the one the @sparticuz/chromium package ships (unpacked on first use),
 * driven by playwright-core: nothing to download or install. The flags keep it off the network
 * (this machine has none outside loopback) and fit it to a container.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = await chromium.executablePath();
  const args = chromium.args.filter((a) => a !== '--single-process' && !a.startsWith('--use-gl') && !a.startsWith('--headless'));
  return playwright.launch({
    executablePath,
    headless: true,
    args: [...args, '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...extraArgs],
  });
}
