// textcodec/iconv-lite as an ES module: `import iconv from 'textcodec/iconv-lite'`.
import api from './index.js';
import { createIconv } from './iconv.js';

const iconv = createIconv(api);
export const {
  decode, encode, encodingExists, getDecoder, getEncoder, decodeStream, encodeStream,
  toEncoding, fromEncoding,
} = iconv;
export default iconv;
