import type { Command } from 'commander';
import { type KumoConfig, loadConfig } from '../config/index.js';

/**
 * What the commands of the program share: the configuration, loaded when a command runs (so
 * `--help` works whatever the environment holds), and where a command leaves its exit code.
 */
export class CommandHost {
  exitCode = 0;
  /** The command whose action runs, for its usage below a usage error. */
  running: Command | undefined;

  /** The settings from the environment and the config file; `defaults` are the command's own. */
  /** `overrides` are a command's options, which win over the environment. */
  config(defaults: Partial<KumoConfig> = {}, overrides: Partial<KumoConfig> = {}): KumoConfig {
    return loadConfig(undefined, overrides, defaults);
  }
}
