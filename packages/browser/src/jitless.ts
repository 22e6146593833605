// Imported first by every entry: zod compiles parsers with `new Function` unless told not to, and a
// strict Content-Security-Policy (script-src 'self', no 'unsafe-eval') reports even the probe.
import { z } from 'zod';

z.config({ jitless: true });
