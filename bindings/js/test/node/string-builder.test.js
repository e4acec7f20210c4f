// src/string-builder.js is generated: its bytes must be what scripts/gen-string-builder.mjs
// assembles from the module's text (binaryen, a dev dependency), so that the text there is
// what runs. The module itself is tested where it runs (Chromium: test/browser/run.mjs
// checks the string path; the suite checks every decode).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { assemble, source } from '../../scripts/gen-string-builder.mjs';

test('src/string-builder.js is what scripts/gen-string-builder.mjs writes', () => {
  const committed = fs.readFileSync(new URL('../../src/string-builder.js', import.meta.url), 'utf8');
  assert.equal(committed, source(assemble()), 'run: node scripts/gen-string-builder.mjs');
});
