// Shared set-up: the boardlab server on a free loopback port, and Debian's chromium driven by playwright-core.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../../../..');
export const shots = process.env.BOARDLAB_SHOTS || join(repo, 'target', 'e2e-screenshots');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export function binary() {
  const candidates = [process.env.BOARDLAB_BIN, join(repo, 'target/release/boardlab'), join(repo, 'target/debug/boardlab')].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('no boardlab binary: build it first (cargo build) or set BOARDLAB_BIN');
  return found;
}

export function haveChromium() {
  return existsSync(CHROMIUM);
}

// Start `boardlab serve` on 127.0.0.1 with a port of the system's choosing; answers {url, proc, stop}.
export function startServer(extraArgs = []) {
  return new Promise((resolveP, reject) => {
    const proc = spawn(binary(), ['serve', '--addr', '127.0.0.1:0', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in 20 s: ' + out)), 20000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveP({ url: m[1].replace(/\/$/, ''), proc, stop: () => new Promise((r) => { proc.once('exit', r); proc.kill('SIGINT'); }) });
      }
    });
    proc.stderr.on('data', (d) => { out += d; });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}): ${out}`)); });
  });
}

export async function launch() {
  mkdirSync(shots, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export async function newPage(browser, opts = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true, bypassCSP: true, ...opts });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.errors = errors;
  return page;
}

export async function shot(page, name) {
  await page.screenshot({ path: join(shots, name + '.png'), fullPage: true });
}

// The status line's text once the page is idle.
export async function idle(page) {
  await page.waitForFunction(() => !document.body.classList.contains('busy'));
}
