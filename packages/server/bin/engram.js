#!/usr/bin/env node
// The engram command. A file that exists before the build, so npm links the bin when it installs
// the workspace (dist/ appears only after `npm run build`).
import '../dist/cli.js';
