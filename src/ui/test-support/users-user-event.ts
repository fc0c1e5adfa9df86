import { setupUser } from './user-event';

/**
 * user-event for the users screen tests: the same keys and clicks, without the pause between keys
 * and without a computed-style check per event (both slow in jsdom with the theme's stylesheets,
 * and these tests type whole forms on shared CI cores).
 */
export const keys = setupUser();
