import { setupUser } from './user-event';

/**
 * user-event for the tenants screen tests: real keys and clicks, without the pause between keys
 * and the computed-style check per event (both slow in jsdom with the theme's stylesheets).
 */
export const keys = setupUser();

/** Screen flows render React Aria tables, dialogs and tabs in jsdom: allow for a busy machine. */
export const FLOW_TIMEOUT_MS = 30_000;
