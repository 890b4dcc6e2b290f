#!/usr/bin/env node
// Launcher for the gateway: runs gateway/main.ts through tsx, in this process (signals reach the
// daemon directly, no child process).
import { register } from 'tsx/esm/api';

register();
await import(new URL('../gateway/main.ts', import.meta.url).href);
