import userEvent, { PointerEventsCheckLevel, type UserEvent } from '@testing-library/user-event';

/**
 * user-event for component and screen tests: real keys and clicks, without the pause between keys and
 * the computed-style check per event (both slow in jsdom with the theme's stylesheets, and screen tests
 * type whole forms on shared CI cores). One setup for every test file, so none has its own variant.
 */
export function setupUser(): UserEvent {
  return userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
}
