// Headless Firefox (Debian's firefox-esr, or FIREFOX=path) driven over WebDriver BiDi, the
// W3C protocol Firefox speaks natively (https://w3c.github.io/webdriver-bidi/): a client of
// the few commands the tests and benchmarks need, on the WebSocket of Node >= 22 (Node 20:
// run with --experimental-websocket). Playwright drives Firefox only in its own patched
// build, so it cannot drive the distribution's Firefox.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Quiet, deterministic profile: no update or telemetry traffic, downloads saved without a
// prompt into a directory of ours.
function writeProfile(dir, downloads) {
  const prefs = {
    'browser.download.folderList': 2,
    'browser.download.dir': downloads,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    'browser.download.start_downloads_in_tmp_dir': false,
    'browser.download.alwaysOpenPanel': false,
    'browser.helperApps.neverAsk.saveToDisk': 'text/csv',
    'browser.shell.checkDefaultBrowser': false,
    'app.update.disabledForTesting': true,
    'datareporting.policy.dataSubmissionEnabled': false,
    'toolkit.telemetry.reportingpolicy.firstRun': false,
    'services.settings.server': 'http://127.0.0.1:9/',
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    // performance.now() to the microsecond, for the benchmarks (bench/browser.mjs).
    'privacy.reduceTimerPrecision': false,
  };
  const lines = Object.entries(prefs).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`);
  fs.writeFileSync(path.join(dir, 'user.js'), lines.join('\n') + '\n');
}

export class Firefox {
  static async launch() {
    if (typeof WebSocket !== 'function') {
      throw new Error(`no WebSocket in Node ${process.version}: run node with --experimental-websocket (Node 20) or use Node >= 22`);
    }
    const executable = process.env.FIREFOX || '/usr/bin/firefox-esr';
    if (!fs.existsSync(executable)) {
      throw new Error(`no Firefox at ${executable}: apt-get install -y firefox-esr (or set FIREFOX)`);
    }
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'textcodec-firefox-'));
    const downloads = path.join(profile, 'downloads');
    fs.mkdirSync(downloads);
    writeProfile(profile, downloads);
    const child = spawn(executable, ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port=0', 'about:blank'],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' } });
    let stderr = '';
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Firefox did not start its BiDi server in 60 s:\n${stderr}`)), 60000);
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(stderr);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      });
      child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`Firefox exited (${code}) before its BiDi server started:\n${stderr}`)); });
    });
    child.stderr.resume();
    const socket = new WebSocket(`${url}/session`);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}/session`)), { once: true });
    });
    const ff = new Firefox(child, socket, profile, downloads);
    const { capabilities } = await ff.send('session.new', { capabilities: {} });
    ff.version = `${capabilities.browserName} ${capabilities.browserVersion}`;
    ff.context = (await ff.send('browsingContext.getTree', {})).contexts[0].context;
    await ff.send('session.subscribe', { events: ['log.entryAdded'] });
    return ff;
  }

  constructor(child, socket, profile, downloads) {
    Object.assign(this, { child, socket, profile, downloads, nextId: 1, pending: new Map() });
    this.onLog = (entry) => { if (entry.level === 'error') console.error(`page error: ${entry.text}`); };
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'event') {
        if (message.method === 'log.entryAdded') this.onLog(message.params);
        return;
      }
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.type === 'error') waiter.reject(new Error(`${waiter.method}: ${message.error}: ${message.message}`));
      else waiter.resolve(message.result);
    });
  }

  send(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Runs `script` before any of the page's own scripts on every later navigation. */
  async preload(functionDeclaration) {
    const { script } = await this.send('script.addPreloadScript', { functionDeclaration });
    return () => this.send('script.removePreloadScript', { script });
  }

  goto(url) {
    return this.send('browsingContext.navigate', { context: this.context, url, wait: 'complete' });
  }

  /** The JSON value of `expression` in the page (a promise is awaited). */
  async evaluate(expression, { userActivation = false } = {}) {
    const r = await this.send('script.evaluate', {
      expression: `(async () => JSON.stringify(await (${expression})))()`,
      target: { context: this.context }, awaitPromise: true, userActivation,
    });
    if (r.type === 'exception') throw new Error(`in the page: ${r.exceptionDetails.text}`);
    return r.result.type === 'string' ? JSON.parse(r.result.value) : undefined;
  }

  /** Polls `expression` until it is neither null nor undefined. */
  async waitFor(expression, timeoutMs = 120000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await this.evaluate(expression);
      if (v !== null && v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async close() {
    try {
      await Promise.race([this.send('browser.close', {}), new Promise((r) => setTimeout(r, 5000))]);
    } catch { /* already gone */ }
    this.socket.close();
    if (this.child.exitCode === null) {
      await Promise.race([new Promise((r) => this.child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
      if (this.child.exitCode === null) this.child.kill('SIGKILL');
    }
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}
