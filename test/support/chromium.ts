/**
 * Debian's chromium for the browser tier, headless, with what this machine's closed network needs: no
 * background networking, component updates, sync or QUIC (otherwise it keeps dialling Google's hosts).
 */
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
