// Installs textcodec's TextDecoder, TextEncoder, TextDecoderStream and TextEncoderStream on
// globalThis where the runtime's are missing or wrong (see src/polyfill-check.js).
import api from './index.js';
import { installPolyfill } from './polyfill-check.js';

export const installed = installPolyfill(api);
export default api;
