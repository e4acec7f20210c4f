// Type-checks index.d.ts and iconv-lite.d.ts against uses of the API (`deno check`, run by
// npm test); a wrong declaration fails here.
// @ts-types="../index.d.ts"
import { decode, Decoder, detect, encode, Encoder, loadDetect, lookup, sniff, TextDecoder } from '../src/index.js';
// @ts-types="../iconv-lite.d.ts"
import iconv from '../src/iconv-lite.js';

const bytes: Uint8Array = encode('日本', 'shift_jis', { errors: 'html' });
const text: string = decode(bytes, 'shift_jis', { fatal: true, bom: 'keep' });
const d = new Decoder('euc-jp', { bom: 'remove' });
const s: string = d.decode(bytes, { stream: true }) + d.decode();
const e = new Encoder('iso-2022-jp', { errors: 'replace' });
const b: Uint8Array = e.encode(s, { stream: true });
const info = lookup('sjis');
const name: string | undefined = info?.name;
const ready: Promise<void> = loadDetect();
const guess = detect(bytes, { tld: 'jp', allow: ['shift_jis'] });
const confidence: number = guess.confidence;
const language: string | null = guess.language;
const sniffed: 'certain' | 'tentative' | 'irrelevant' = sniff(bytes, { contentType: 'text/html' }).confidence;
const td: string = new TextDecoder('gbk', { fatal: false }).decode(bytes, { stream: false });
const viaIconv: string = iconv.decode(bytes, 'shift_jis', { stripBOM: true });
const exists: boolean = iconv.encodingExists("sjis");
console.log(text, b.length, name, ready, confidence, language, sniffed, td, viaIconv, exists);
