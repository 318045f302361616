/**
 * A start-up problem told in words for the person running the service: what is missing, where,
 * and the ways forward. `main` prints the message as it is and exits with status 1.
 */
export class StartupError extends Error {}
