// Electron entry point (out/main/index.js). All shell code lives in ./shell.
import { runElectronApp } from './shell/main';

runElectronApp();
