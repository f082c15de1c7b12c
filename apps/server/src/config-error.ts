/** A setting read from the environment is missing or invalid; main.ts prints the message and exits. */
export class ConfigError extends Error {}
