/*
 * Imported first by main.tsx: zod 4 probes whether it may compile parsers with `new Function` the
 * first time an object schema parses; under the console's CSP (no 'unsafe-eval') the probe is a CSP
 * violation on every page (issue #28). jitless parsing never asks.
 */
import { z } from 'zod';

z.config({ jitless: true });
